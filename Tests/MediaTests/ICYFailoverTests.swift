import Foundation
import XCTest
import Media
import StreamInput
import TestSupport

/// Icecast/Shoutcast alternatives used after the stream has started: a .pls's mirrors, a per-listener
/// URL that expires, a station's next stream.
final class ICYFailoverTests: XCTestCase {
    private var server: FixtureHTTPServer!
    private var writer: ICYStreamWriter!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        let mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 8, codec: .mp3, bitrate: 128))
        writer = ICYStreamWriter(audio: mp3, metaint: 16_000, schedule: [.title("Same show")])
    }

    override func tearDown() { server.stop() }

    /// For 1.5 s after it is first asked, answers with 2 s of audio sent at its pace, then hangs up;
    /// later, answers `status` for ever: a mirror that died, or a session that expired. (A resolver's
    /// probe counts as the first ask.)
    private func diesAfterTwoSeconds(answering status: Int, onRefusal: FirstTime? = nil) -> FixtureHTTPServer.Handler {
        let firstAsked = FirstTime()
        return { [writer] request, connection in
            guard Date().timeIntervalSince(firstAsked.mark()) < 1.5 else {
                _ = onRefusal?.mark()
                return try FixtureHTTPServer.status(status)(request, connection)
            }
            try connection.sendStatus(line: "ICY 200 OK", headers: [("Content-Type", "audio/mpeg"), ("icy-metaint", "16000")])
            let bytes = writer!.interleaved().prefix(2 * 16_001)
            for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4000) {
                try connection.send(bytes[start..<min(bytes.endIndex, start + 4000)])
                try connection.sleep(0.25)
            }
            connection.close()
        }
    }

    private func play(_ candidates: [String]) -> (EventLog, PCMAudio) {
        PipelineHarness().play(seconds: 6, timeout: 30) { LiveStream(candidates: candidates, options: PipelineHarness().options, onEvent: $0) }
    }

    func testWhenThePlaylistsFirstMirrorDiesTheNextEntryTakesOver() throws {
        server.route("/mirror1.mp3", diesAfterTwoSeconds(answering: 503))
        server.route("/mirror2.mp3", FixtureHTTPServer.icyStream(writer))
        let pls = "[playlist]\nFile1=\(server.url("/mirror1.mp3").absoluteString)\nFile2=\(server.url("/mirror2.mp3").absoluteString)\n"
        server.route("/listen.pls", FixtureHTTPServer.file(Data(pls.utf8), contentType: "audio/x-scpls"))
        let (log, audio) = play([server.url("/listen.pls").absoluteString])
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 6, accuracy: 0.001)
        XCTAssertEqual(log.gaps.count, 1, "the switch is one gap: \(log.gaps)")
        XCTAssertTrue(log.warnings.contains { $0.contains("listen.pls again") }, "\(log.warnings)")
        XCTAssertGreaterThan(server.requestCount("/mirror2.mp3"), 0, "the second mirror took over")
        XCTAssertEqual(log.titles.map(\.title), ["Same show"])
    }

    func testAnExpiredPerListenerURLSendsUsBackToThePlaylistAtOnce() throws {
        // The playlist hands out session 1 until it has expired (403), then session 2.
        let expired = FirstTime()
        server.route("/session/1.mp3", diesAfterTwoSeconds(answering: 403, onRefusal: expired))
        server.route("/session/2.mp3", FixtureHTTPServer.icyStream(writer))
        server.route("/station.m3u") { [server] request, connection in
            let body = "#EXTM3U\n\(server!.url("/session/\(expired.happened ? 2 : 1).mp3").absoluteString)\n"
            try FixtureHTTPServer.file(Data(body.utf8), contentType: "audio/x-mpegurl")(request, connection)
        }
        let (log, audio) = play([server.url("/station.m3u").absoluteString])
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 6, accuracy: 0.001)
        // Each resolution asks twice: the stream's own connection finds a playlist, then the resolver reads it.
        XCTAssertEqual(server.requestCount("/station.m3u"), 4, "resolved once more, after the first refusal")
        XCTAssertEqual(server.requestCount("/session/1.mp3"), 3, "the resolver's probe, the play, the refused reconnect: no more")
        XCTAssertEqual(log.gaps.count, 1, "\(log.gaps)")
    }

    func testAStationsStreamThatKeepsFailingGivesWayToItsNextStream() throws {
        server.route("/main.mp3", diesAfterTwoSeconds(answering: 503))
        server.route("/backup.mp3", FixtureHTTPServer.icyStream(writer))
        let (log, audio) = play([server.url("/main.mp3").absoluteString, server.url("/backup.mp3").absoluteString])
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 6, accuracy: 0.001)
        XCTAssertTrue(log.warnings.contains { $0.contains("trying the station's next stream") }, "\(log.warnings)")
        XCTAssertEqual(server.requestCount("/main.mp3"), LiveStream.failoverAfter, "the drop, then one failed retry")
        XCTAssertEqual(log.gaps.count, 1, "\(log.gaps)")
    }
}

/// When something first happened. `lock` guards `first`.
final class FirstTime: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Date?
    /// The first call's time, on every call.
    func mark() -> Date { lock.withLock { if first == nil { first = Date() }; return first! } }
    var happened: Bool { lock.withLock { first != nil } }
}
