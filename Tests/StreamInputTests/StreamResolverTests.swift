import Foundation
import XCTest
import TestSupport
@testable import StreamInput

final class StreamResolverTests: XCTestCase {
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        let writer = ICYStreamWriter(audio: Data(repeating: 0, count: 64_000), metaint: 16_000)
        server.route("/live.mp3", FixtureHTTPServer.icyStream(writer, statusLine: "ICY 200 OK", contentType: "audio/mpeg",
                                                             headers: [("icy-name", "Fixture FM"), ("icy-br", "128")]))
        server.route("/live.aac", FixtureHTTPServer.icyStream(writer, statusLine: "HTTP/1.0 200 OK", contentType: "audio/aacp"))
    }

    override func tearDown() { server.stop() }

    private func url(_ path: String) -> String { server.url(path).absoluteString }

    func testDirectStreamReportsKindTypeCodecAndName() throws {
        let resolved = try StreamResolver().resolve(url("/live.mp3"))
        XCTAssertEqual(resolved.url, url("/live.mp3"))
        XCTAssertEqual(resolved.kind, .icy)
        XCTAssertEqual(resolved.contentType, "audio/mpeg")
        XCTAssertEqual(resolved.codec, "mp3")
        XCTAssertEqual(resolved.bitrate, 128)
        XCTAssertEqual(resolved.name, "Fixture FM")
    }

    func testRedirectsAreFollowedButBounded() throws {
        server.route("/r1", FixtureHTTPServer.redirect(to: "/r2", code: 301))
        server.route("/r2", FixtureHTTPServer.redirect(to: url("/live.aac"), code: 302))
        let resolved = try StreamResolver().resolve(url("/r1"))
        XCTAssertEqual(resolved.url, url("/live.aac"))
        XCTAssertEqual(resolved.codec, "aac")

        for hop in 0..<7 { server.route("/loop\(hop)", FixtureHTTPServer.redirect(to: "/loop\(hop + 1)")) }
        XCTAssertThrowsError(try StreamResolver().resolve(url("/loop0"))) { error in
            XCTAssertTrue("\(error)".lowercased().contains("redirect"), "\(error)")
        }
    }

    func testPLSTriesEntriesInOrder() throws {
        server.route("/down", FixtureHTTPServer.status(503))
        let pls = "[playlist]\nNumberOfEntries=2\nFile1=\(url("/down"))\nFile2=\(url("/live.mp3"))\n"
        server.route("/station.pls", FixtureHTTPServer.file(Data(pls.utf8), contentType: "audio/x-scpls"))
        let resolved = try StreamResolver().resolve(url("/station.pls"))
        XCTAssertEqual(resolved.url, url("/live.mp3"))
        XCTAssertEqual(server.requestCount("/down"), 1, "the first entry was tried")
        XCTAssertEqual(resolved.chain.first, url("/station.pls"))
    }

    func testM3UListWithRelativeEntries() throws {
        server.route("/list.m3u", FixtureHTTPServer.file(Data("#EXTM3U\n#EXTINF:-1,Fixture\nlive.aac\n".utf8),
                                                        contentType: "audio/x-mpegurl"))
        XCTAssertEqual(try StreamResolver().resolve(url("/list.m3u")).url, url("/live.aac"))
    }

    func testHLSMasterPicksAVariantByQuality() throws {
        let media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:6.0,\nseg1.ts\n"
        for name in ["low", "high"] {
            server.route("/hls/\(name).m3u8", FixtureHTTPServer.file(Data(media.utf8), contentType: "application/vnd.apple.mpegurl"))
        }
        let master = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a.40.5"
        low.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=320000,CODECS="mp4a.40.2"
        high.m3u8
        """
        server.route("/hls/master.m3u8", FixtureHTTPServer.file(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"))
        let high = try StreamResolver(quality: .high).resolve(url("/hls/master.m3u8"))
        XCTAssertEqual(high.kind, .hls)
        XCTAssertEqual(high.url, url("/hls/high.m3u8"))
        XCTAssertEqual(high.codec, "aac")
        XCTAssertEqual(high.bitrate, 320)
        XCTAssertEqual(high.variants?.count, 2)
        let low = try StreamResolver(quality: .low).resolve(url("/hls/master.m3u8"))
        XCTAssertEqual(low.url, url("/hls/low.m3u8"))
        XCTAssertEqual(low.codec, "he-aac")
    }

    func testNothingLeadsToALocalFile() {
        server.route("/evil.pls", FixtureHTTPServer.file(Data("[playlist]\nFile1=file:///etc/passwd\n".utf8), contentType: "audio/x-scpls"))
        server.route("/evil-redirect", FixtureHTTPServer.redirect(to: "file:///etc/passwd"))
        server.route("/evil.m3u", FixtureHTTPServer.file(Data("file:///etc/passwd\n".utf8), contentType: "audio/x-mpegurl"))
        for path in ["/evil.pls", "/evil-redirect", "/evil.m3u"] {
            XCTAssertThrowsError(try StreamResolver().resolve(url(path)), path) { error in
                XCTAssertFalse("\(error)".contains("root:"), "contents of /etc/passwd leaked: \(error)")
            }
        }
        XCTAssertThrowsError(try StreamResolver().resolve("file:///etc/passwd")) { error in
            XCTAssertTrue("\(error)".contains("only http and https"), "\(error)")
        }
    }

    func testAWebPageIsNotAStream() {
        server.route("/page", FixtureHTTPServer.file(Data("<html><body>Listen live!</body></html>".utf8), contentType: "text/html"))
        XCTAssertThrowsError(try StreamResolver().resolve(url("/page"))) { error in
            XCTAssertTrue("\(error)".contains("neither an audio stream nor a playlist"), "\(error)")
        }
    }
}
