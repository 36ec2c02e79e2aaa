import Foundation
import XCTest
import TestSupport

/// A station whose server sends a pre-roll at the start of every connection (the catalogue's
/// `preRoll`): each one is a `[pre-roll]` chapter, in the index too, and the show's title follows it.
final class RecordPreRollTests: XCTestCase {
    func testEachConnectionsPreRollIsAChapterAndInTheIndex() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 8, codec: .mp3, bitrate: 128))
        let writer = ICYStreamWriter(audio: mp3, metaint: 16_000, schedule: [.title("Show - Song")])
        let connections = Counter()
        server.route("/preroll.mp3") { request, connection in
            guard connections.increment() == 1 else { return try FixtureHTTPServer.icyStream(writer)(request, connection) }
            try connection.sendStatus(line: "ICY 200 OK", headers: [("Content-Type", "audio/mpeg"), ("icy-metaint", "16000")])
            try connection.send(writer.interleaved().prefix(3 * 16_001))
            try connection.sleep(0.3)
            connection.close()
        }
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "ads-fm", "name": "Ads FM", "country": "GB", "language": "en",
          "timeZone": "Europe/London", "preRoll": 1.5,
          "streams": [{"url": "\(server.url("/preroll.mp3").absoluteString)", "kind": "icy"}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))

        let result = try onair.run(["record", "ads-fm", "--duration", "7", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let finished = try XCTUnwrap(RecordedFile.finished(result.stdoutText).first, result.stdoutText)
        let file = RecordedFile(url: URL(fileURLWithPath: try XCTUnwrap(finished["file"] as? String)))
        let chapters = try file.chapters()
        let preRolls = chapters.filter { $0.title.contains("[pre-roll]") }
        XCTAssertEqual(preRolls.count, 2, "\(chapters)")
        XCTAssertEqual(preRolls.first?.start ?? -1, 0, accuracy: 0.05, "\(chapters)")
        XCTAssertEqual(preRolls.last?.start ?? -1, 3, accuracy: 0.2, "at the reconnect: \(chapters)")
        // The show's title takes over when each pre-roll ends, though the server sent it with the connection.
        let show = chapters.filter { $0.title.hasSuffix("Show - Song") }
        XCTAssertEqual(show.map(\.start).first ?? -1, 1.5, accuracy: 0.05, "\(chapters)")
        XCTAssertEqual(show.map(\.start).last ?? -1, (preRolls.last?.start ?? 0) + 1.5, accuracy: 0.05, "\(chapters)")
        let titles = try XCTUnwrap(finished["titles"] as? [[String: Any]])
        XCTAssertEqual(titles.filter { ($0["details"] as? [String: Any])?["kind"] as? String == "pre-roll" }.count, 2, "\(titles)")
    }
}

