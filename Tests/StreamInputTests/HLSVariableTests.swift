import Foundation
import TestSupport
import XCTest
@testable import StreamInput

/// EXT-X-DEFINE (RFC 8216bis §4.4.2.3) in master and media playlists: values substituted where the
/// playlist refers to them, anything undefined or unbounded refused in one line.
final class HLSVariableTests: XCTestCase {
    private let masterURL = "https://radio.example/hls/master.m3u8?token=abc%2F123"

    func testMasterVariablesAndAQueryParameterReachTheURIsAndAttributes() throws {
        let variants = try HLSQuirkFixtures.master("define-master.m3u8", url: masterURL)
        XCTAssertEqual(variants.map(\.url), ["https://cdn.radio.example/rendition.m3u8?t=abc/123",
                                             "https://cdn.radio.example/live/128.m3u8?token=abc/123"])
        XCTAssertEqual(variants[1].codecs, ["mp4a.40.2"])
        XCTAssertEqual(variants[1].audioGroup, "mp4a.40.2")
        XCTAssertEqual(StreamResolver().choose(from: variants).url, "https://cdn.radio.example/live/128.m3u8?token=abc/123")
    }

    func testAnUndefinedVariableIsOneLineNamingIt() {
        XCTAssertThrowsError(try HLSQuirkFixtures.master("define-undefined-variable.m3u8", url: masterURL)) { error in
            XCTAssertEqual((error as? PlaylistError)?.line, 4)
            XCTAssertTrue("\(error)".contains("undefined variable {$host}"), "\(error)")
            XCTAssertFalse("\(error)".contains("not a URL"))
        }
    }

    func testAMissingQueryParameterIsRefusedNamingIt() {
        XCTAssertThrowsError(try HLSQuirkFixtures.master("define-master.m3u8", url: "https://radio.example/hls/master.m3u8")) { error in
            XCTAssertTrue("\(error)".contains(#"QUERYPARAM="token""#), "\(error)")
        }
    }

    func testMediaPlaylistVariablesIncludingOneImportedFromTheMaster() throws {
        let url = "https://radio.example/hls/audio.m3u8?session=s1"
        let playlist = try MediaPlaylistParser.parse(try HLSQuirkFixtures.lines("define-media.m3u8"), base: URL(string: url)!,
                                                     url: url, imported: ["host": "keys.radio.example", "unused": "x"])
        XCTAssertEqual(playlist.segments.map(\.url), ["https://segments.radio.example/live/100.m4s?s=s1",
                                                      "https://segments.radio.example/live/101.m4s?s=s1"])
        XCTAssertEqual(playlist.segments.first?.encryption?.keyURL, "https://keys.radio.example/key?s=s1")
        XCTAssertEqual(playlist.segments.first?.encryption?.iv, Array(0...15))
        XCTAssertEqual(playlist.segments.first?.initSection?.url, "https://segments.radio.example/live/init.mp4")
    }

    func testResolvingAMasterHandsItsVariablesToTheMediaPlaylistButNotToTheJSON() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/hls/master.m3u8", FixtureHTTPServer.file(Data("""
            #EXTM3U
            #EXT-X-DEFINE:NAME="host",VALUE="keys.radio.example"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            audio.m3u8?session=s1&t={$token}
            """.utf8), contentType: "application/vnd.apple.mpegurl"))
        server.route("/hls/audio.m3u8", FixtureHTTPServer.file(try HLSQuirkFixtures.data("define-media.m3u8"),
                                                               contentType: "application/vnd.apple.mpegurl"))
        let resolved = try StreamResolver().resolve(server.url("/hls/master.m3u8?token=secret-7").absoluteString)
        XCTAssertEqual(resolved.kind, .hls)
        XCTAssertEqual(resolved.hls?.segments, 2, "the media playlist IMPORTed host and was read")
        XCTAssertEqual(resolved.chosenVariant?.masterVariables, ["host": "keys.radio.example", "token": "secret-7"])
        let json = String(decoding: try JSONEncoder().encode(resolved), as: UTF8.self)
        XCTAssertFalse(json.contains("keys.radio.example"), "the master's variables stay out of resolve --json: \(json)")
    }

    func testImportWithoutTheMastersVariableOrInAMasterIsRefused() {
        XCTAssertThrowsError(try PlaylistParser.parse(try HLSQuirkFixtures.data("define-media.m3u8"),
                                                      url: "https://radio.example/hls/audio.m3u8?session=s1")) { error in
            XCTAssertTrue("\(error)".contains(#"IMPORT="host": no master playlist's variables reached"#), "\(error)")
        }
        let url = "https://radio.example/hls/audio.m3u8?session=s1"
        XCTAssertThrowsError(try MediaPlaylistParser.parse(try HLSQuirkFixtures.lines("define-media.m3u8"), base: URL(string: url)!,
                                                           url: url, imported: ["hostname": "x"])) { error in
            XCTAssertTrue("\(error)".contains("the master playlist defines no such variable"), "\(error)")
        }
        let master = "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"host\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"
        XCTAssertThrowsError(try PlaylistParser.parse(Data(master.utf8), url: masterURL)) { error in
            XCTAssertTrue("\(error)".contains("not a master"), "\(error)")
        }
    }

    func testNamesAreLettersDigitsHyphensAndUnderscoresDefinedOnce() {
        var variables = PlaylistVariables(url: masterURL, imported: nil)
        XCTAssertNoThrow(try variables.define(#"#EXT-X-DEFINE:NAME="a-B_9",VALUE="v""#, number: 2))
        XCTAssertThrowsError(try variables.define(#"#EXT-X-DEFINE:NAME="a-B_9",VALUE="w""#, number: 3)) { error in
            XCTAssertTrue("\(error)".contains("a second time"), "\(error)")
        }
        XCTAssertThrowsError(try variables.define(#"#EXT-X-DEFINE:NAME="a.b",VALUE="v""#, number: 4)) { error in
            XCTAssertTrue("\(error)".contains("'a.b' is not made of letters"), "\(error)")
        }
        XCTAssertThrowsError(try variables.define(#"#EXT-X-DEFINE:NAME="c""#, number: 5)) { error in
            XCTAssertTrue("\(error)".contains("without a VALUE"), "\(error)")
        }
    }

    func testAValueIsNotExpandedAgainAndANonReferenceIsKept() throws {
        var variables = PlaylistVariables(url: masterURL, imported: nil)
        try variables.define(#"#EXT-X-DEFINE:NAME="host",VALUE="cdn.example""#, number: 2)
        try variables.define(#"#EXT-X-DEFINE:NAME="tricky",VALUE="x/{$host}/y""#, number: 3)
        XCTAssertEqual(try variables.substitute("{$tricky}", line: 4), "x/{$host}/y")
        XCTAssertEqual(try variables.substitute("a{$}b{$ host}{$host", line: 4), "a{$}b{$ host}{$host")
    }

    func testTheNumberSizeAndExpansionOfVariablesAreBounded() throws {
        var many = PlaylistVariables(url: masterURL, imported: nil)
        for index in 0..<PlaylistVariables.maxCount {
            try many.define("#EXT-X-DEFINE:NAME=\"v\(index)\",VALUE=\"x\"", number: index + 2)
        }
        XCTAssertThrowsError(try many.define(#"#EXT-X-DEFINE:NAME="one-more",VALUE="x""#, number: 100)) { error in
            XCTAssertTrue("\(error)".contains("more than \(PlaylistVariables.maxCount) EXT-X-DEFINE variables"), "\(error)")
        }
        var long = PlaylistVariables(url: masterURL, imported: nil)
        let longValue = String(repeating: "x", count: PlaylistVariables.maxValueLength + 1)
        XCTAssertThrowsError(try long.define("#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(longValue)\"", number: 2))
        // The largest value referred to on every segment line of a playlist: refused once the text it writes
        // passes what a playlist may hold, not after building megabytes.
        let value = String(repeating: "x", count: PlaylistVariables.maxValueLength)
        let bomb = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(value)\"\n"
            + String(repeating: "#EXTINF:6,\n{$v}{$v}{$v}{$v}\n", count: 40)
        XCTAssertThrowsError(try PlaylistParser.parse(Data(bomb.utf8), url: "https://radio.example/a.m3u8")) { error in
            XCTAssertTrue("\(error)".contains("expand to more than"), "\(error)")
        }
    }
}
