import Foundation
import XCTest
import Outputs
import StreamInput
import TestSupport

/// Pushing a station to a real Icecast 2.4 as a source client.
final class IcecastPushTests: XCTestCase {
    private var icecast: IcecastHarness!

    override func setUpWithError() throws {
        icecast = try IcecastHarness()
    }

    override func tearDown() {
        icecast?.stop()
    }

    private func stationAudio() throws -> Data {
        try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 120))
    }

    func testThePushPlaysOnIcecastWithTheTitleAndComesBackAfterARestart() throws {
        let title = "Café del Mar - Guns N' Roses & Friends"
        let mount = "/pushed.mp3"
        let station = try RelayTestStation(audio: try stationAudio(), titles: [.title(title)],
                                           sinks: [icecast.sourceURL(mount: mount)])
        defer { station.stop() }

        try waitForMount(mount, title: title)
        XCTAssertEqual(try probe(icecast.url(mount: mount)), ["codec_name": "mp3", "sample_rate": "48000"])
        XCTAssertEqual(station.events.statuses.map { "\($0.status)" }, ["connected(peer: \"Icecast at 127.0.0.1:\(icecast.port)\(mount)\")"],
                       "one connection that stays up")
        XCTAssertEqual(station.events.warnings, [])

        // Icecast dies and comes back: the push reconnects and sets the title again.
        try icecast.restartServer()
        try waitForMount(mount, title: title, timeout: 20)
        XCTAssertEqual(try probe(icecast.url(mount: mount))["codec_name"], "mp3")
        let reports = station.events.statuses.map { "\($0.label) \($0.status)" } + station.events.warnings
        XCTAssertTrue(reports.contains { $0.contains("disconnected") }, "\(reports)")
        for report in reports { XCTAssertFalse(report.contains(icecast.sourcePassword), report) }
    }

    func testAWrongPasswordDetachesThePushWithOneLine() throws {
        let url = "icecast://source:not-the-password@127.0.0.1:\(icecast.port)/refused.mp3"
        let station = try RelayTestStation(audio: try stationAudio(), sinks: [url])
        defer { station.stop() }
        let failure = try waitFor("a sink failure", timeout: 10) { station.events.failures.first }
        XCTAssertTrue(failure.contains("refused the source credentials"), failure)
        XCTAssertFalse(failure.contains("not-the-password"), failure)
        XCTAssertFalse(failure.contains("\n"))
    }

    // MARK: Helpers

    private func waitForMount(_ mount: String, title: String, timeout: Double = 10) throws {
        _ = try waitFor("\(mount) titled '\(title)' on Icecast", timeout: timeout) {
            try icecast.mounts().first { $0.mount == mount && $0.title == title }
        }
    }

    private func probe(_ url: URL) throws -> [String: String] {
        let result = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate",
                                                       "-of", "json", url.absoluteString], timeout: 30).check()
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let stream = (json?["streams"] as? [[String: Any]])?.first ?? [:]
        return stream.compactMapValues { $0 as? String }
    }
}
