import Foundation
import TestSupport
import XCTest
@testable import StreamInput

/// .pls, .m3u, RealAudio .ram and ASF reference lists as players read them: totem-pl-parser's suite
/// (missing-items.pls: numbering gaps; its .ram reader's `--stop--`), mopidy's (`[Playlist]`, quoted values,
/// EXTINF titles) and the corpus's Sveriges Radio files (a NumberOfEntries that lies).
final class PLSQuirksTests: XCTestCase {
    private func read(_ text: String, url: String = "http://radio.example/dir/list") throws -> PlaylistReading {
        try PlaylistParser.read(Data(text.utf8), url: url)
    }

    func testStrayLinesBeforeTheHeaderAreNotEntriesAndFilesComeInNumberOrder() throws {
        let reading = try PlaylistParser.read(try ASXPlaylistTests.fixture("stray-lines-gaps.pls"), url: "http://radio.example/dir/list.pls")
        XCTAssertEqual(reading.format, .pls)
        XCTAssertEqual(reading.content, .entries(["http://one.example/stream", "http://three.example/stream", "http://ten.example/stream"]),
                       "NumberOfEntries=2 is not believed; File10 comes after File3")
        XCTAssertEqual(reading.items.map(\.title), ["First", "Third", nil])
        XCTAssertEqual(reading.skipped, [], "'Content-Type: …' and '<br />' are not fetched as relative URLs")
    }

    func testAHeaderInAnyCaseAndTheNextSectionEndsTheList() throws {
        let pls = "[Playlist]\nFile1='http://a.example/s'\nFile2=\"http://b.example/s\"\n[Other]\nFile3=http://c.example/s\n"
        XCTAssertEqual(try read(pls).content, .entries(["http://a.example/s", "http://b.example/s"]))
    }

    func testEntriesOfEqualNumberKeepTheirOrder() throws {
        let pls = "[playlist]\nFile2=http://b.example/\n" + (1...20).map { "File1=http://a\($0).example/" }.joined(separator: "\n")
        let expected = (1...20).map { "http://a\($0).example/" } + ["http://b.example/"]
        XCTAssertEqual(try read(pls).content, .entries(expected))
    }

    func testTheResolverNeverFetchesTheStrayLines() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let writer = ICYStreamWriter(audio: Data(repeating: 0xFF, count: 64_000), metaint: 16_000)
        server.route("/live.mp3", FixtureHTTPServer.icyStream(writer, statusLine: "ICY 200 OK", contentType: "audio/mpeg"))
        server.route("/down", FixtureHTTPServer.status(503))
        let pls = "<html><body>\nwarning: something\n[playlist]\nFile1=down\nFile2=live.mp3\nNumberOfEntries=7\n"
        server.route("/radio.pls", FixtureHTTPServer.file(Data(pls.utf8), contentType: "audio/x-scpls"))
        let resolved = try StreamResolver().resolve(server.url("/radio.pls").absoluteString)
        XCTAssertEqual(resolved.url, server.url("/live.mp3").absoluteString)
        XCTAssertEqual(server.requests().map(\.path).filter { !["/radio.pls", "/down", "/live.mp3"].contains($0) }, [])
    }

    func testExtendedM3UTitlesFollowTheirEntries() throws {
        let reading = try PlaylistParser.read(try ASXPlaylistTests.fixture("stations.m3u"), url: "http://radio.example/stations.m3u")
        XCTAssertEqual(reading.items, [
            PlaylistItem(title: "Radio One, the first", urls: ["http://one.example/live.mp3"]),
            PlaylistItem(title: nil, urls: ["http://two.example/live.aac"]),
            PlaylistItem(title: "Radio One again", urls: ["http://one.example/live.mp3"]),
            PlaylistItem(title: "Radio Three", urls: ["https://three.example/hls/master.m3u8"]),
        ])
        XCTAssertEqual(PlaylistParser.extinfTitle("#EXTINF:-1,"), nil)
        XCTAssertEqual(PlaylistParser.extinfTitle("#EXTINF:123"), nil)
        XCTAssertEqual(PlaylistParser.extinfTitle("#EXTINF:123, Artist - Title, live"), "Artist - Title, live")
    }

    func testARealAudioListSkipsRTSPAndStopsAtStop() throws {
        let reading = try PlaylistParser.read(try ASXPlaylistTests.fixture("real.ram"), url: "http://radio.example/live.ram")
        XCTAssertEqual(reading.content, .entries(["http://real.example/live.mp3"]))
        XCTAssertEqual(reading.skipped.map(\.line), [1, 2])
        XCTAssertTrue(PlaylistParser.isPlaylist(mediaType: "audio/x-pn-realaudio", url: "http://radio.example/x", body: Data()))
    }

    func testAnASFReferenceFileListsItsRefsInOrder() throws {
        let reference = "[Reference]\r\nRef2=http://b.example/live?MSWMExt=.asf\r\nRef1=http://a.example/live?MSWMExt=.asf\r\n"
        let reading = try read(reference, url: "http://radio.example/live.wma")
        XCTAssertEqual(reading.format, .asfReference)
        XCTAssertEqual(reading.content, .entries(["http://a.example/live?MSWMExt=.asf", "http://b.example/live?MSWMExt=.asf"]))
    }

    func testFirstBytesDecideWhetherAnAudioTypedBodyIsADocument() {
        func verdict(_ text: String, complete: Bool = false) -> PlaylistSniffer.Verdict {
            PlaylistSniffer.verdict(Data(text.utf8), complete: complete)
        }
        XCTAssertEqual(verdict("\u{FEFF}\n  [playlist]\nFile1=http://a/"), .document)
        XCTAssertEqual(verdict("#EXTM3U\n#EXTINF:-1,x\nhttp://a.example/"), .document)
        XCTAssertEqual(verdict("<?xml version=\"1.0\"?><playlist>"), .document)
        XCTAssertEqual(verdict("<ASX version=\"3.0\"><ENTRY>"), .document)
        XCTAssertEqual(verdict("http://a/x\n"), .needMore, "16 characters are wanted before a verdict")
        XCTAssertEqual(verdict("http://a/x\n", complete: true), .document)
        XCTAssertEqual(verdict("ID3\u{4}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}TIT2 and more bytes here"), .stream)
        XCTAssertEqual(PlaylistSniffer.verdict(Data([0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0x55, count: 40)), complete: false), .stream)
        XCTAssertEqual(verdict("OggS and what an Ogg page holds"), .stream)
        // UTF-16's byte order mark is also an MPEG-1 Layer I frame header: the bytes after it decide.
        XCTAssertEqual(PlaylistSniffer.verdict(Data([0xFF, 0xFE] + Array("<asx version=\"3.0\"><entry>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                                               complete: false), .document)
        XCTAssertEqual(PlaylistSniffer.verdict(Data([0xFF, 0xFE, 0x44, 0x33] + [UInt8](repeating: 0x91, count: 60)), complete: false), .stream)
    }

    func testBinaryDataWithAPlaylistsTypeIsNoPlaylist() {
        XCTAssertThrowsError(try PlaylistParser.read(Data([0x47, 0x40, 0x00, 0x10] + [UInt8](repeating: 0, count: 184)),
                                                     url: "http://radio.example/live.m3u")) { error in
            XCTAssertEqual("\(error)", "http://radio.example/live.m3u: binary data, not a playlist")
        }
    }

    func testAShortAudioAnswerIsStillAStream() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/short", FixtureHTTPServer.file(Data([0xFF, 0xFB, 0x90, 0x64]), contentType: "audio/mpeg"))
        let resolved = try StreamResolver().resolve(server.url("/short").absoluteString)
        XCTAssertEqual(resolved.kind, .icy)
        XCTAssertEqual(resolved.url, server.url("/short").absoluteString)
    }
}
