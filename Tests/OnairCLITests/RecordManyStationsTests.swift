import Foundation
import XCTest
import TestSupport

/// Many stations in one `onair record`: each holds a socket and its files open, more than the usual soft
/// limit on open files (1,024 on most distributions) allows for a few hundred stations.
final class RecordManyStationsTests: XCTestCase {
    func testMoreStationsThanTheSoftOpenFileLimitAllowsAreAllRecorded() throws {
        let stationCount = 24
        let mp3 = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 20)], codec: .mp3, bitrate: 128))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let urls = (0..<stationCount).map { index -> String in
            server.route("/station-\(index).mp3") { _, connection in
                try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [("Content-Type", "audio/mpeg")])
                try ICYStreamWriter(audio: mp3).stream(to: connection, bytesPerSecond: RelayStation.bytesPerSecond,
                                                       includeMetadata: false)
            }
            return server.url("/station-\(index).mp3").absoluteString
        }
        let onair = try OnairBinary()
        // A soft limit of 40 open files (the hard limit 4,096): too few for 24 stations unless onair raises it.
        let record = try ProcessRunner.start("prlimit", ["--nofile=40:4096", OnairBinary.path, "record"] + urls
                                                 + ["--duration", "3", "--json"], environment: onair.environment)
        XCTAssertTrue(record.waitForExit(timeout: 60), "onair record ends after --duration")
        let result = record.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(RecordedFile.finished(result.stdoutText).count, stationCount, result.stdoutText + result.stderrText)
    }
}
