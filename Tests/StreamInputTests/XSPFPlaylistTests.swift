import Foundation
import TestSupport
import XCTest
@testable import StreamInput

/// XSPF as the specification and its errata have it, and as real files break it. The quirks come from
/// totem-pl-parser's suite (xml-base.xspf, whose test it leaves disabled because totem ignores xml:base;
/// playlist.xspf's location with a space; old-lastfm-output.xspf without the XSPF namespace) and mopidy's
/// (names compared lowercased); the fixtures reproduce them (Fixtures/playlists/README.md).
final class XSPFPlaylistTests: XCTestCase {
    private func read(_ text: String, url: String = "http://radio.example/dir/list.xspf") throws -> PlaylistReading {
        try PlaylistParser.read(Data(text.utf8), url: url)
    }

    private func xspf(_ tracks: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\">\n<trackList>\n\(tracks)</trackList>\n</playlist>\n"
    }

    func testXMLBaseNestsAndOnlyTrackLocationsAreStreams() throws {
        let reading = try PlaylistParser.read(try ASXPlaylistTests.fixture("nested-base.xspf"), url: "http://radio.example/dir/list.xspf")
        XCTAssertEqual(reading.format, .xspf)
        // radio/ + lists/ + ../../streams/ + one.mp3 against …/dir/list.xspf; a location's own xml:base; the
        // attribution's and the extension's locations are not tracks; the mmsh: track is skipped.
        XCTAssertEqual(reading.content, .entries(["http://radio.example/dir/streams/one.mp3", "http://mirror.example/m/one.mp3",
                                                  "https://third.example/live"]))
        XCTAssertEqual(reading.items.map(\.title), ["First Station", nil])
        XCTAssertEqual(reading.skipped.count, 1)
        XCTAssertTrue(reading.skipped[0].message.contains("mmsh://wm.example/second"), "\(reading.skipped)")
        XCTAssertEqual(reading.skipped[0].line, 19)
        XCTAssertEqual(reading.warnings, [])
    }

    func testAPlaylistWithoutTheNamespaceAndWithBrokenXMLIsReadWithWarnings() throws {
        let reading = try PlaylistParser.read(try ASXPlaylistTests.fixture("no-namespace-bare-ampersand.xspf"),
                                              url: "http://radio.example/old.xspf")
        XCTAssertEqual(reading.content, .entries(["http://play.example/listen?user=1&token=abc"]))
        XCTAssertEqual(reading.items.first?.title, "Radio & Friends")
        XCTAssertEqual(reading.warnings.count, 2, "\(reading.warnings)")
        XCTAssertTrue(reading.warnings.contains { $0.contains("a bare '&'") && $0.contains("xmlns:omx") }, "\(reading.warnings)")
        XCTAssertTrue(reading.warnings.contains { $0.contains("without the XSPF namespace") }, "\(reading.warnings)")
        XCTAssertTrue(reading.warnings.allSatisfy { !$0.contains("\n") })
    }

    func testALocationWithASpaceIsRefusedNamingIt() {
        let playlist = xspf("<track>\n<location>http://207.200.96.226:8000 extraparam=1</location>\n</track>\n")
        XCTAssertThrowsError(try read(playlist)) { error in
            XCTAssertEqual("\(error)", "http://radio.example/dir/list.xspf:5: <location> 'http://207.200.96.226:8000 extraparam=1' is not a URI: it contains a space")
        }
        // Beside a good track it is skipped, and said.
        let two = xspf("<track><location>http://a.example/x y</location></track>\n<track><location>http://b.example/z</location></track>\n")
        let reading = try? read(two)
        XCTAssertEqual(reading?.content, .entries(["http://b.example/z"]))
        XCTAssertEqual(reading?.skipped.first?.line, 4)
    }

    func testNonASCIILocationsAreEscapedAsIRIs() throws {
        let reading = try read(xspf("<track><location>http://a.example/Rádio</location></track>\n"))
        XCTAssertEqual(reading.content, .entries(["http://a.example/R%C3%A1dio"]))
    }

    func testWhatIsNotAnXSPFPlaylistIsRefusedInOneLine() {
        let foreign = "<playlist xmlns=\"http://example.org/other\"><trackList><track><location>http://a.example/</location></track></trackList></playlist>"
        XCTAssertThrowsError(try read(foreign)) { error in
            XCTAssertTrue("\(error)".contains("not an XSPF playlist"), "\(error)")
        }
        XCTAssertThrowsError(try read("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>")) { error in
            XCTAssertTrue("\(error)".contains("root is <rss>"), "\(error)")
        }
        XCTAssertThrowsError(try read(xspf(""))) { error in
            XCTAssertTrue("\(error)".contains("lists no stream"), "\(error)")
        }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE playlist [<!ENTITY a \"aaaa\">]><playlist xmlns=\"http://xspf.org/ns/0/\"><trackList><track><location>http://a.example/&a;</location></track></trackList></playlist>"
        XCTAssertThrowsError(try read(bomb)) { error in
            XCTAssertTrue("\(error)".contains("DTD"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    // MARK: As the resolver meets them

    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        let writer = ICYStreamWriter(audio: Data(repeating: 0xFF, count: 64_000), metaint: 16_000)
        server.route("/live.mp3", FixtureHTTPServer.icyStream(writer, statusLine: "ICY 200 OK", contentType: "audio/mpeg"))
        server.route("/down", FixtureHTTPServer.status(503))
    }

    override func tearDown() { server.stop() }

    private func url(_ path: String) -> String { server.url(path).absoluteString }

    func testTracksAreTriedInOrderSkippingWindowsMedia() throws {
        let playlist = xspf("<track><location>\(url("/down"))</location></track>\n<track><location>mms://wm.example/live</location></track>\n"
                            + "<track><location>live.mp3</location></track>\n")
        for (path, type) in [("/list.xspf", "application/xspf+xml"), ("/playlist", "audio/mpeg"), ("/x", "application/xml")] {
            server.route(path, FixtureHTTPServer.file(Data(playlist.utf8), contentType: type))
            let resolved = try StreamResolver().resolve(url(path))
            XCTAssertEqual(resolved.url, url("/live.mp3"), "\(path) as \(type)")
            XCTAssertEqual(resolved.kind, .icy)
            XCTAssertNil(resolved.warnings)
        }
    }

    func testLenientReadingSurfacesAsWarnings() throws {
        let playlist = "<playlist version=\"1\"><trackList><track><location>live.mp3?a=1&b=2</location></track></trackList></playlist>"
        server.route("/old.xspf", FixtureHTTPServer.file(Data(playlist.utf8), contentType: "application/xspf+xml"))
        let resolved = try StreamResolver().resolve(url("/old.xspf"))
        XCTAssertEqual(resolved.url, url("/live.mp3?a=1&b=2"))
        XCTAssertEqual(resolved.warnings?.count, 2, "\(resolved.warnings ?? [])")
    }
}
