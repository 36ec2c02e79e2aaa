import XCTest
@testable import StreamInput

final class PlaylistParserTests: XCTestCase {
    private func parse(_ text: String, url: String = "http://radio.example/list") throws -> PlaylistContent {
        try PlaylistParser.parse(Data(text.utf8), url: url)
    }

    func testPLSEntriesComeInFileNumberOrder() throws {
        let pls = """
        [playlist]
        NumberOfEntries=3
        File2=http://b.example/stream
        Title2=B
        File1=http://a.example/stream
        File3=relative/stream
        Version=2
        """
        XCTAssertEqual(try parse(pls), .entries(["http://a.example/stream", "http://b.example/stream",
                                                 "http://radio.example/relative/stream"]))
    }

    func testPlainM3UIsAListOfStreams() throws {
        let m3u = "#EXTM3U\n#EXTINF:-1,Radio\nhttps://one.example/live.mp3\n\n# comment\nhttp://two.example/live.aac\n"
        XCTAssertEqual(try parse(m3u), .entries(["https://one.example/live.mp3", "http://two.example/live.aac"]))
    }

    func testLocalFilesAndOtherSchemesAreRefused() {
        XCTAssertThrowsError(try parse("[playlist]\nFile1=file:///etc/passwd\n")) { error in
            XCTAssertTrue("\(error)".contains("only point at http or https"), "\(error)")
            XCTAssertEqual((error as? PlaylistError)?.line, 2)
        }
        // A bare path resolves against the playlist's own http URL: it stays remote.
        XCTAssertEqual(try parse("/etc/passwd\n"), .entries(["http://radio.example/etc/passwd"]))
        // Mixed: the safe entry survives, the local one is dropped.
        XCTAssertEqual(try parse("file:///etc/passwd\nhttp://ok.example/s\nrtsp://x/y\n"), .entries(["http://ok.example/s"]))
    }

    func testMasterPlaylistVariantsWithQuotedCommas() throws {
        let master = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=320000,CODECS="mp4a.40.2",AVERAGE-BANDWIDTH=300000
        high/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a.40.5"
        https://cdn.example/low.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401f,mp4a.40.2"
        video.m3u8
        """
        guard case .hlsMaster(let variants) = try parse(master, url: "https://cdn.example/radio/master.m3u8") else {
            return XCTFail("not a master playlist")
        }
        XCTAssertEqual(variants.map(\.url), ["https://cdn.example/radio/high/index.m3u8", "https://cdn.example/low.m3u8",
                                             "https://cdn.example/radio/video.m3u8"])
        XCTAssertEqual(variants[2].codecs, ["avc1.4d401f", "mp4a.40.2"])
        XCTAssertEqual(variants[1].codec, "he-aac")
        let high = StreamResolver(quality: .high).choose(from: variants)
        let low = StreamResolver(quality: .low).choose(from: variants)
        XCTAssertEqual(high.url, "https://cdn.example/radio/high/index.m3u8", "video variants are not chosen for radio")
        XCTAssertEqual(low.url, "https://cdn.example/low.m3u8")
    }

    func testMediaPlaylistIsRecognised() throws {
        guard case .hlsMedia(let playlist) = try parse("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg1.ts\n") else {
            return XCTFail("not recognised as a media playlist")
        }
        XCTAssertEqual(playlist.targetDuration, 6)
    }

    func testMalformedPlaylistsGiveALine() {
        XCTAssertThrowsError(try parse("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\nx.m3u8\n")) { error in
            XCTAssertEqual((error as? PlaylistError)?.line, 2)
        }
        XCTAssertThrowsError(try parse("[playlist]\nFileX=http://a/b\n")) { error in
            XCTAssertEqual((error as? PlaylistError)?.line, 2)
        }
        XCTAssertThrowsError(try parse("")) { error in
            XCTAssertTrue("\(error)".contains("no stream"))
        }
    }

    func testSizeIsBounded() {
        let huge = Data(repeating: UInt8(ascii: "#"), count: PlaylistParser.maxBytes + 1)
        XCTAssertThrowsError(try PlaylistParser.parse(huge, url: "http://x/y"))
        let many = (0...PlaylistParser.maxEntries).map { "http://s\($0).example/" }.joined(separator: "\n")
        XCTAssertThrowsError(try parse(many))
    }

    func testAttributeListParsing() {
        let attributes = PlaylistParser.attributes(of: #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English, UK",URI="a.m3u8""#)
        XCTAssertEqual(attributes["NAME"], "English, UK")
        XCTAssertEqual(attributes["URI"], "a.m3u8")
        XCTAssertEqual(attributes["TYPE"], "AUDIO")
    }
}
