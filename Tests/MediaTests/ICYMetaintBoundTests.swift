import Foundation
import XCTest
import StreamInput
import TestSupport

/// icy-metaint is taken up to 1 MiB (a minute of 128 kbit/s between titles); one byte more is a
/// broken or hostile server, and the stream is asked for again without titles.
final class ICYMetaintBoundTests: XCTestCase {
    func testAMetaintOfExactly1MiBIsUsedAndOneMoreFallsBackToAudioWithoutTitles() throws {
        XCTAssertEqual(LiveStream.maxMetaint, 1 << 20)
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 8, codec: .mp3, bitrate: 128))
        for metaint in [LiveStream.maxMetaint, LiveStream.maxMetaint + 1] {
            server.route("/m\(metaint)") { request, connection in
                let writer = ICYStreamWriter(audio: mp3, metaint: request.headers["Icy-MetaData"] == "1" ? metaint : 16_000)
                guard request.headers["Icy-MetaData"] == "1" else { return try FixtureHTTPServer.icyStream(writer)(request, connection) }
                try connection.sendStatus(line: "ICY 200 OK", headers: [("Content-Type", "audio/mpeg"), ("icy-metaint", "\(metaint)")])
                try connection.send(writer.interleaved())
            }
            let (log, audio) = PipelineHarness().play(server.url("/m\(metaint)").absoluteString, seconds: 3)
            let refused = log.warnings.contains { $0.contains("unusable icy-metaint") }
            XCTAssertEqual(refused, metaint > LiveStream.maxMetaint, "metaint \(metaint): \(log.events)")
            XCTAssertEqual(audio.duration, 3, accuracy: 0.001, "metaint \(metaint)")
        }
    }
}
