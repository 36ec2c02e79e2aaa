import Foundation
import XCTest
import TestSupport
@testable import StreamInput

/// Every bound on what a remote server can make onair hold or follow, exercised exactly at its
/// value (accepted) and one step beyond (refused with a plain error). RELIABILITY.md lists them.
final class ResourceBoundsTests: XCTestCase {
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        let writer = ICYStreamWriter(audio: Data(repeating: 0, count: 64_000), metaint: 16_000)
        server.route("/live.mp3", FixtureHTTPServer.icyStream(writer, statusLine: "HTTP/1.0 200 OK", contentType: "audio/mpeg"))
    }

    override func tearDown() { server.stop() }

    private func url(_ path: String) -> String { server.url(path).absoluteString }

    func testAPlaylistOfExactlyTheSizeBoundParsesAndOneByteMoreIsRefused() throws {
        XCTAssertEqual(PlaylistParser.maxBytes, 512 * 1024)
        let entry = "http://radio.example/stream\n"
        func playlist(size: Int) -> Data {
            Data((entry + String(repeating: "#", count: size - entry.utf8.count - 1) + "\n").utf8)
        }
        XCTAssertEqual(playlist(size: PlaylistParser.maxBytes).count, PlaylistParser.maxBytes)
        XCTAssertEqual(try PlaylistParser.parse(playlist(size: PlaylistParser.maxBytes), url: "http://x/a.m3u"),
                       .entries(["http://radio.example/stream"]))
        XCTAssertThrowsError(try PlaylistParser.parse(playlist(size: PlaylistParser.maxBytes + 1), url: "http://x/a.m3u")) {
            XCTAssertTrue("\($0)".contains("larger than 524288 bytes"), "\($0)")
        }
    }

    func testExactly500EntriesAreReadAnd501Refused() throws {
        XCTAssertEqual(PlaylistParser.maxEntries, 500)
        func list(_ count: Int) -> Data { Data((1...count).map { "http://s\($0).example/" }.joined(separator: "\n").utf8) }
        guard case .entries(let entries) = try PlaylistParser.parse(list(500), url: "http://x/a.m3u") else {
            return XCTFail("not a station list")
        }
        XCTAssertEqual(entries.count, 500)
        XCTAssertThrowsError(try PlaylistParser.parse(list(501), url: "http://x/a.m3u"))
    }

    func testFiveRedirectsAreFollowedAndASixthIsRefused() throws {
        XCTAssertEqual(TransferRequest(url: "http://x/").maxRedirects, 5)
        // /hop1 → /hop2 → … → /hop6 → the stream: six redirects from /hop1, five from /hop2.
        for hop in 1..<6 { server.route("/hop\(hop)", FixtureHTTPServer.redirect(to: "/hop\(hop + 1)")) }
        server.route("/hop6", FixtureHTTPServer.redirect(to: "/live.mp3"))
        XCTAssertEqual(try StreamResolver().resolve(url("/hop2")).url, url("/live.mp3"), "five redirects")
        XCTAssertThrowsError(try StreamResolver().resolve(url("/hop1")), "six redirects") { error in
            XCTAssertTrue("\(error)".lowercased().contains("redirect"), "\(error)")
        }
    }

    func testPlaylistsNestFourDeepAndAFifthIsRefused() throws {
        XCTAssertEqual(StreamResolver().maxDepth, 4)
        // /n0.m3u → /n1.m3u → … → /nK.m3u → the stream.
        for level in 0..<6 {
            let next = level == 5 ? "/live.mp3" : "/n\(level + 1).m3u"
            server.route("/n\(level).m3u", FixtureHTTPServer.file(Data("\(url(next))\n".utf8), contentType: "audio/x-mpegurl"))
        }
        // Four playlists, then the stream at depth 4.
        XCTAssertEqual(try StreamResolver().resolve(url("/n2.m3u")).url, url("/live.mp3"))
        XCTAssertThrowsError(try StreamResolver().resolve(url("/n1.m3u"))) { error in
            XCTAssertTrue("\(error)".contains("nested deeper than 4"), "\(error)")
        }
    }

    func testAnID3TagOfExactly1MiBIsReadAndOneByteMoreIsNot() throws {
        XCTAssertEqual(ID3Tag.maxSize, 1 << 20)
        func tag(totalSize: Int) -> [UInt8] {
            let title: [UInt8] = [0x03] + Array("Bounded".utf8)
            let frame = Array("TIT2".utf8) + [0, 0, 0, UInt8(title.count), 0, 0] + title
            let body = frame + [UInt8](repeating: 0, count: totalSize - 10 - frame.count) // padding
            let size = body.count
            let syncsafe = [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
            return Array("ID3".utf8) + [4, 0, 0] + syncsafe + body
        }
        XCTAssertEqual(ID3Tag(tag(totalSize: ID3Tag.maxSize)[...])?.text["TIT2"], "Bounded")
        XCTAssertNil(ID3Tag(tag(totalSize: ID3Tag.maxSize + 1)[...]))
    }

    func testTheByteQueueTakesUpToItsCapacityThenRefusesUntilRead() {
        let queue = ByteQueue(capacity: 1000)
        let chunk = [UInt8](repeating: 7, count: 400)
        chunk.withUnsafeBytes { bytes in
            XCTAssertTrue(queue.hasRoom(for: 400)); queue.append(bytes)
            XCTAssertTrue(queue.hasRoom(for: 400)); queue.append(bytes)
            XCTAssertTrue(queue.hasRoom(for: 200), "exactly the capacity")
            XCTAssertFalse(queue.hasRoom(for: 201), "one byte beyond it")
        }
        XCTAssertEqual(LiveStreamOptions().bufferBytes, 1 << 20, "a station's queue: about a minute of 128 kbit/s")
    }

    func testAResponseOfExactlyItsByteBoundIsTakenAndOneByteMoreFails() throws {
        // The mechanism behind every bounded download: playlists (512 KiB), HLS segments (32 MiB),
        // directory answers (16 MiB).
        XCTAssertEqual(SegmentLoader.maxSegmentBytes, 32 << 20)
        XCTAssertEqual(RadioBrowserClient.maxResponseBytes, 16 << 20)
        server.route("/body", FixtureHTTPServer.file(Data(repeating: 0x41, count: 100_000), contentType: "application/octet-stream"))
        let request = TransferRequest(url: url("/body"))
        XCTAssertEqual(try TransferEngine.shared.fetch(request, maxBytes: 100_000).body.count, 100_000)
        XCTAssertThrowsError(try TransferEngine.shared.fetch(request, maxBytes: 99_999)) { error in
            XCTAssertTrue("\(error)".contains("larger than 99999 bytes"), "\(error)")
        }
    }
}
