import Foundation
import XCTest
import TestSupport

/// `onair stations check` against local stand-ins of catalogue stations (a user catalogue in ONAIR_HOME):
/// an Icecast-like stream with a title behind a dead first stream, a live HLS stream from FFmpeg, and a
/// station whose only stream is gone.
final class StationsCheckTests: XCTestCase {
    func testEachStreamIsReportedAliveWithWhatItPlaysOrDeadWithWhy() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 4, codec: .mp3, bitrate: 128))
        let writer = ICYStreamWriter(audio: mp3, metaint: 8192, schedule: [.title("Artist - Song")])
        server.route("/live.mp3", FixtureHTTPServer.icyStream(writer, headers: [("icy-br", "128")]))
        server.route("/gone.mp3", FixtureHTTPServer.status(404))
        server.route("/down.aac", FixtureHTTPServer.status(503))
        let encoder = try LiveHLSEncoder(frequency: 660, listSize: 5)
        server.serveDirectory(encoder.directory.url, at: "/hls/")
        try encoder.waitForSegments(3)

        func station(_ id: String, _ streams: [(String, String)]) -> String {
            let list = streams.map { #"{"url": "\#(server.url($0.0).absoluteString)", "kind": "\#($0.1)"}"# }
            return #"{"id": "\#(id)", "name": "Check \#(id)", "country": "GB", "language": "en", "timeZone": "Europe/London", "streams": [\#(list.joined(separator: ", "))]}"#
        }
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let stations = [station("check-icy", [("/gone.mp3", "icy"), ("/live.mp3", "icy")]),
                        station("check-hls", [("/hls/" + encoder.playlistPath, "hls")]),
                        station("check-dead", [("/down.aac", "icy")])]
        try Data(("{\"version\": 1, \"stations\": [" + stations.joined(separator: ", ") + "]}").utf8)
            .write(to: config.appendingPathComponent("stations.json"))

        let result = try onair.run(["stations", "check", "check-icy", "check-hls", "check-dead", "--json"], timeout: 120)
        XCTAssertEqual(result.status, 1, "one station plays nothing: \(result)")
        XCTAssertEqual(result.stderrText.trimmingCharacters(in: .newlines), "onair: 1 of 3 stations have no stream that plays: check-dead")
        let checked = OnairBinary.events(result.stdoutText)
        XCTAssertEqual(checked.compactMap { $0["station"] as? String }, ["check-icy", "check-hls", "check-dead"], result.stdoutText)
        guard checked.count == 3 else { return }
        let icy = try XCTUnwrap(checked[0]["streams"] as? [[String: Any]])
        XCTAssertEqual(icy.map { $0["alive"] as? Bool }, [false, true])
        XCTAssertTrue((icy[0]["problem"] as? String ?? "").contains("404"), "\(icy[0])")
        XCTAssertEqual(icy[1]["kind"] as? String, "icy")
        XCTAssertEqual(icy[1]["codec"] as? String, "mp3")
        XCTAssertEqual(icy[1]["bitrate"] as? Int, 128)
        XCTAssertEqual(icy[1]["title"] as? String, "Artist - Song")
        XCTAssertLessThan(icy[1]["firstAudioSeconds"] as? Double ?? 99, 5)
        let hls = try XCTUnwrap((checked[1]["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(hls["alive"] as? Bool, true, "\(hls)")
        XCTAssertEqual(hls["kind"] as? String, "hls")
        XCTAssertEqual(hls["codec"] as? String, "aac")
        let dead = try XCTUnwrap((checked[2]["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(dead["alive"] as? Bool, false)
        XCTAssertTrue((dead["problem"] as? String ?? "").contains("503"), "\(dead)")

        // The text report says the same in lines a person reads.
        let text = try onair.run(["stations", "check", "check-icy"], timeout: 60)
        XCTAssertTrue(text.succeeded, "\(text)")
        XCTAssertTrue(text.stdoutText.contains("check-icy (Check check-icy): alive"), text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("2. alive"), text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("title \"Artist - Song\""), text.stdoutText)
        XCTAssertEqual(try onair.run(["stations", "check", "no-such-station"]).status, 3)
    }
}
