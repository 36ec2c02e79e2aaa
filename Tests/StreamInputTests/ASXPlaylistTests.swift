import Foundation
import TestSupport
import XCTest
@testable import StreamInput

/// Windows Media metafiles (.asx, .wax) as players read them. The quirks come from totem-pl-parser's suite
/// (pukas.wax: mms: REF first, `href = "…"`; empty-asx.asx; asf-with-asx-suffix.asx: an .asx URL answering
/// ASF itself; its showwhilebuffering rule), VLC's ASXToXML (names in any case, bare '&', unquoted values)
/// and mopidy's (SIMPLE_ASX: `<ENTRY href>`); the fixtures reproduce them (Fixtures/playlists/README.md).
final class ASXPlaylistTests: XCTestCase {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/playlists/\(name)"))
    }

    private func read(_ text: String, url: String = "http://radio.example/listen/test.asx") throws -> PlaylistReading {
        try PlaylistParser.read(Data(text.utf8), url: url)
    }

    func testWindowsMediaPlayerQuirksAreReadAsPlayersReadThem() throws {
        let reading = try PlaylistParser.read(try Self.fixture("wmp-quirks.asx"), url: "http://radio.example/listen/test.asx")
        XCTAssertEqual(reading.format, .asx)
        // The buffering entry and the event's entry are not programmes; mms: is skipped; BASE makes the
        // relative REF absolute; the bare '&' and the unquoted value are read; ENTRYREF and <Entry href> follow.
        XCTAssertEqual(reading.content, .entries([
            "http://streams.example/radio/live.mp3?session=1&q=2&format=mp3", "http://backup.example:8000/live",
            "http://other.example/more.asx", "http://simple.example/stream",
        ]))
        XCTAssertEqual(reading.items.map(\.title), ["Test Radio (main)", "Onair Test Radio", "Onair Test Radio"])
        XCTAssertEqual(reading.items.first?.urls.count, 2, "the REFs of one ENTRY are one item's alternatives")
        XCTAssertEqual(reading.skipped.map(\.line), [11])
        XCTAssertTrue(reading.skipped.first?.message.contains("mms://wm.example/live") ?? false, "\(reading.skipped)")
    }

    func testALatin1WaxKeepsItsTitlesAndTheShoutcastSemicolon() throws {
        let reading = try PlaylistParser.read(try Self.fixture("latin1-titles.wax"), url: "http://radio.example/listen.wax")
        XCTAssertEqual(reading.content, .entries(["http://shout.example:11824/;"]))
        XCTAssertTrue(reading.items[0].title?.hasPrefix("Rádio Coração") ?? false, "\(reading.items)")
    }

    func testCapitalisedNamesAndMismatchedEndTags() throws {
        let asx = """
        <Asx Version='3.0'><Title>Gay FM</Title>
        <ENTRY><Title>Live</TITLE><Ref Href='https://a.example/listen/radio.mp3'/></entry>
        <entry><REF href="http://b.example:8080" /></ENTRY></ASX>
        """
        let reading = try read(asx)
        XCTAssertEqual(reading.content, .entries(["https://a.example/listen/radio.mp3", "http://b.example:8080"]))
        XCTAssertEqual(reading.items.map(\.title), ["Live", "Gay FM"])
    }

    func testAnASXWithNoEntryListsNoStream() {
        XCTAssertThrowsError(try read("<asx version=\"3.0\">\n\n\t\t\t\t\n</asx>\n")) { error in
            XCTAssertTrue("\(error)".contains("lists no stream"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    func testOnlyWindowsMediaReferencesAreRefusedNamingThem() {
        let asx = "<asx version=\"3.0\"><entry><ref href=\"mms://wm.example/live\"/><ref href=\"rtsp://wm.example/live\"/></entry></asx>"
        XCTAssertThrowsError(try read(asx)) { error in
            XCTAssertTrue("\(error)".contains("mms://wm.example/live"), "\(error)")
            XCTAssertTrue("\(error)".contains("only point at http or https"), "\(error)")
        }
    }

    func testWindowsMediaItselfIsNotAPlaylist() {
        var asf = Data(PlaylistSniffer.asfMagic)
        asf.append(Data(repeating: 0, count: 2000))
        XCTAssertThrowsError(try PlaylistParser.read(asf, url: "http://radio.example/live.asx")) { error in
            XCTAssertEqual("\(error)", "http://radio.example/live.asx: Windows Media (ASF) data, not an ASX playlist: onair does not play Windows Media")
        }
    }

    func testUTF16WithAByteOrderMark() throws {
        let asx = "<ASX version=\"3.0\"><ENTRY><TITLE>Ünïcode</TITLE><REF HREF=\"http://a.example/x\"/></ENTRY></ASX>"
        var data = Data([0xFF, 0xFE])
        data.append(asx.data(using: .utf16LittleEndian)!)
        let reading = try PlaylistParser.read(data, url: "http://radio.example/a.asx")
        XCTAssertEqual(reading.content, .entries(["http://a.example/x"]))
        XCTAssertEqual(reading.items.first?.title, "Ünïcode")
    }

    func testABrokenASXIsRefusedInOneLine() {
        XCTAssertThrowsError(try read("<asx version=\"3.0\">\n<entry><ref href=\"http://a.example/\">\n</asx>")) { error in
            XCTAssertTrue("\(error)".contains("not a readable ASX playlist"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
        // An entity bomb never reaches libxml2's expansion: the DTD is refused.
        let bomb = "<!DOCTYPE asx [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]><asx><entry><title>&b;</title><ref href=\"http://a.example/\"/></entry></asx>"
        XCTAssertNoThrow(try read(bomb), "an ASX DOCTYPE is dropped with its subset, as players ignore it")
    }

    func testEntriesAreBounded() {
        let refs = (0...PlaylistParser.maxEntries).map { "<entry><ref href=\"http://s\($0).example/\"/></entry>" }.joined()
        XCTAssertThrowsError(try read("<asx version=\"3.0\">\(refs)</asx>")) { error in
            XCTAssertTrue("\(error)".contains("more than \(PlaylistParser.maxEntries) entries"), "\(error)")
        }
    }

    func testRepairKeepsLinesAndSaysWhatItRepaired() {
        let (text, repairs) = LenientXML.repair("<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<ASX>\n<!-- a\ncomment -->\n<REF HREF=a&b Other = 'x' HREF=\"dup\"/>\n</ASX>", foldingNames: true)
        XCTAssertEqual(text, "\n<asx>\n\n\n<ref href=\"a&amp;b\" other='x' />\n</asx>")
        XCTAssertEqual(Set(repairs), [.unquotedValue("href"), .bareAmpersand, .duplicateAttribute("href")])
    }

    // MARK: As the resolver meets them

    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        let writer = ICYStreamWriter(audio: Data(repeating: 0xFF, count: 64_000), metaint: 16_000)
        server.route("/live.mp3", FixtureHTTPServer.icyStream(writer, statusLine: "ICY 200 OK", contentType: "audio/mpeg"))
    }

    override func tearDown() { server.stop() }

    private func url(_ path: String) -> String { server.url(path).absoluteString }

    func testAnASXServedWithAnAudioTypeIsReadNotPlayed() throws {
        let asx = "<ASX version=\"3.0\"><ENTRY><REF HREF=\"mms://x.example/a\"/><REF HREF=\"\(url("/live.mp3"))\"/></ENTRY></ASX>"
        for (path, type) in [("/listen.wax", "audio/x-ms-wax"), ("/listen", "video/x-ms-asf"), ("/tune-in", "audio/mpeg"),
                             ("/plain", "application/octet-stream")] {
            server.route(path, FixtureHTTPServer.file(Data(asx.utf8), contentType: type))
            let resolved = try StreamResolver().resolve(url(path))
            XCTAssertEqual(resolved.url, url("/live.mp3"), "\(path) as \(type)")
            XCTAssertEqual(resolved.kind, .icy)
            XCTAssertEqual(resolved.chain.first, url(path))
        }
    }

    func testAnASXLinkAnsweringWindowsMediaIsRefusedInOneLine() {
        var asf = Data(PlaylistSniffer.asfMagic)
        asf.append(Data(repeating: 0x11, count: 8000))
        server.route("/file.asx", FixtureHTTPServer.file(asf, contentType: "video/x-ms-asf"))
        server.route("/stream", FixtureHTTPServer.file(asf, contentType: "application/octet-stream"))
        server.route("/listed.wax", FixtureHTTPServer.file(asf, contentType: "audio/x-ms-wax"))
        for path in ["/file.asx", "/stream", "/listed.wax"] {
            XCTAssertThrowsError(try StreamResolver().resolve(url(path)), path) { error in
                XCTAssertTrue("\(error)".contains("Windows Media (ASF)"), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        // video/x-ms-asf names ASX files and ASF streams alike: the first bytes decide, so an endless ASF stream
        // is never read as a document; audio/x-ms-wax names only metafiles, so that body was read whole.
        XCTAssertThrowsError(try StreamResolver().resolve(url("/file.asx"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("answers Windows Media (ASF), which onair does not play"), "\(error)")
        }
        XCTAssertThrowsError(try StreamResolver().resolve(url("/listed.wax"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("Windows Media (ASF) data, not an ASX playlist: onair does not play Windows Media"), "\(error)")
        }
    }

    func testEntryRefsNestWithinTheResolversDepth() throws {
        server.route("/outer.asx", FixtureHTTPServer.file(Data("<asx><entryref href=\"inner.asx\"/></asx>".utf8), contentType: "video/x-ms-asf"))
        server.route("/inner.asx", FixtureHTTPServer.file(Data("<asx><entry><ref href=\"live.mp3\"/></entry></asx>".utf8),
                                                         contentType: "video/x-ms-asf"))
        let resolved = try StreamResolver().resolve(url("/outer.asx"))
        XCTAssertEqual(resolved.url, url("/live.mp3"))
        XCTAssertEqual(resolved.chain, [url("/outer.asx"), url("/inner.asx"), url("/live.mp3")])

        server.route("/loop.asx", FixtureHTTPServer.file(Data("<asx><entryref href=\"loop.asx\"/></asx>".utf8), contentType: "video/x-ms-asf"))
        XCTAssertThrowsError(try StreamResolver().resolve(url("/loop.asx"))) { error in
            XCTAssertTrue("\(error)".contains("nested deeper than"), "\(error)")
        }
    }

    func testEntriesAreTriedInOrder() throws {
        server.route("/down", FixtureHTTPServer.status(503))
        let asx = "<ASX><ENTRY><REF HREF=\"\(url("/down"))\"/></ENTRY><ENTRY><REF HREF=\"\(url("/live.mp3"))\"/></ENTRY></ASX>"
        server.route("/two.asx", FixtureHTTPServer.file(Data(asx.utf8), contentType: "video/x-ms-asf"))
        XCTAssertEqual(try StreamResolver().resolve(url("/two.asx")).url, url("/live.mp3"))
        XCTAssertEqual(server.requestCount("/down"), 1)
    }
}
