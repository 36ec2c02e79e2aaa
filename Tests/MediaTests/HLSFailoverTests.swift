import Foundation
import XCTest
import StreamInput
import TestSupport

/// The alternatives a broadcaster offers, used when what is in use fails: redundant variants of one
/// bandwidth (RTHK's primary/backup pair) at the start and mid-stream, and per-listener URLs that
/// expire, resolved again from the station's first URL. One live encoder stands behind every URL.
final class HLSFailoverTests: XCTestCase {
    private var server: FixtureHTTPServer!
    private var encoder: LiveHLSEncoder!
    private let type = "application/vnd.apple.mpegurl"

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        encoder = try LiveHLSEncoder(frequency: 440, listSize: 8)
        try encoder.waitForSegments(4)
    }

    override func tearDown() { server.stop() }

    private func master(_ variants: [String]) -> FixtureHTTPServer.Handler {
        let lines = variants.flatMap { ["#EXT-X-STREAM-INF:PROGRAM-ID=1,BANDWIDTH=54000,CODECS=\"mp4a.40.2\"", $0] }
        return FixtureHTTPServer.file(Data(((["#EXTM3U"] + lines).joined(separator: "\n") + "\n").utf8), contentType: type)
    }

    private func follow(_ path: String, seconds: Double) -> (EventLog, PCMAudio) {
        PipelineHarness().play(seconds: seconds, timeout: 40) {
            HLSStream(url: self.server.url(path).absoluteString, options: PipelineHarness().options, onEvent: $0)
        }
    }

    func testADeadPrimaryGivesWayToItsBackupAtTheStart() throws {
        server.route("/primary/", FixtureHTTPServer.status(503))
        server.serveDirectory(encoder.directory.url, at: "/backup/")
        server.route("/master.m3u8", master(["primary/\(encoder.playlistPath)", "backup/\(encoder.playlistPath)"]))
        let (log, audio) = follow("/master.m3u8", seconds: 4)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 4, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertTrue(log.warnings.contains { $0.contains("trying the next variant") }, "\(log.warnings)")
        XCTAssertEqual(server.requestCount("/primary/\(encoder.playlistPath)"), 1, "the primary is tried once, then its backup")
    }

    func testWhenThePrimaryDiesMidStreamTheBackupTakesOverWithoutLosingAudio() throws {
        let primary = HLSFaultInjector(directory: encoder.directory.url, prefix: "/primary/")
        server.route("/primary/", primary.handler)
        server.serveDirectory(encoder.directory.url, at: "/backup/")
        server.route("/master.m3u8", master(["primary/\(encoder.playlistPath)", "backup/\(encoder.playlistPath)"]))
        onOwnThread(after: 3) { primary.outage(seconds: 120) }
        let (log, audio) = follow("/master.m3u8", seconds: 12)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertTrue(log.warnings.contains { $0.contains("switching to the variant") && $0.contains("/backup/") }, "\(log.warnings)")
        XCTAssertGreaterThan(server.requestCount("/backup/\(encoder.playlistPath)"), 0)
        // The backup lists the same segments: the window (8 segments) covers the switch, so nothing is lost.
        XCTAssertTrue(log.gaps.isEmpty, "\(log.gaps)")
        XCTAssertEqual(audio.duration, 12, accuracy: 0.001)
        XCTAssertLessThan(audio.longestSilence(), 0.1)
    }

    func testAnExpiredPerListenerURLIsResolvedAgainFromTheStationsFirstURL() throws {
        // Like a CDN's tokenised session: the master hands out /s/N/…; session 1 answers 403 after 3 s.
        let sessions = Counter()
        let firstExpires = Date().addingTimeInterval(3)
        server.route("/station.m3u8") { [type, encoder] request, connection in
            let session = sessions.increment()
            let body = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=54000,CODECS=\"mp4a.40.2\"\ns/\(session)/\(encoder!.playlistPath)\n"
            try FixtureHTTPServer.file(Data(body.utf8), contentType: type)(request, connection)
        }
        server.route("/s/") { [encoder] request, connection in
            let parts = request.path.split(separator: "/")
            guard parts.count >= 3, let session = Int(parts[1]) else { return try FixtureHTTPServer.status(404)(request, connection) }
            if session == 1 && Date() > firstExpires { return try FixtureHTTPServer.status(403)(request, connection) }
            try FixtureHTTPServer.directory(encoder!.directory.url, at: "/s/\(session)/")(request, connection)
        }
        let (log, audio) = follow("/station.m3u8", seconds: 12)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(server.requestCount("/station.m3u8"), 2, "the station's URL was asked again once")
        XCTAssertTrue(log.warnings.contains { $0.contains("expired") }, "\(log.warnings)")
        XCTAssertEqual(audio.duration, 12, accuracy: 0.001)
        XCTAssertEqual(log.gaps.reduce(0) { $0 + $1.seconds }, 0, accuracy: 0.001, "the window covered the new session: \(log.gaps)")
        XCTAssertLessThan(audio.longestSilence(), 0.1)
    }
}
