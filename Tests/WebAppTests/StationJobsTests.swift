import Foundation
import Hummingbird
import HummingbirdTesting
import NIOPosix
import Engine
import Outputs
import RadioModel
import TestSupport
import XCTest

/// A station page's forms start real jobs on the daemon (the same `JobSpec` as `onair jobs start`): a
/// relay to an HTTP mount that a client then hears, listed on the page, and stopped from it.
final class StationJobsTests: XCTestCase {
    private static let mount = "/station.mp3"

    func testARelayStartedFromTheStationPageIsHeardOnItsMountAndStoppedFromThePage() async throws {
        let icecast = try IcecastHarness.playingTone(at: Self.mount, title: "Relay tone")
        defer { icecast.stop() }
        let relayMount = URL(string: "http://127.0.0.1:\(try FreePort.pick())/kitchen.mp3")!
        let harness = try WebAppHarness(stations: [
            TestStations.station(id: "demo", name: "Demo FM", url: icecast.url(mount: Self.mount).absoluteString),
        ])
        defer { harness.stop() }
        var declared = DeclaredSinks()
        try declared.declare("kitchen", relayMount.absoluteString)
        try declared.save(harness.paths)

        try await harness.application().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/stations/demo", method: .get).body)
            XCTAssertTrue(page.contains(#"<option value="kitchen">kitchen (\#(relayMount.absoluteString))</option>"#), "the declared sink is offered: \(page)")

            let started = try await client.execute(uri: "/stations/demo/jobs", method: .post, headers: WebForm.headers,
                                                   body: WebForm.body(["kind": "relay", "sink": "kitchen"]))
            XCTAssertEqual(started.status, .seeOther)
            let location = try XCTUnwrap(started.headers[.location])
            XCTAssertEqual(location, "/stations/demo?notice=Relaying%20to%20kitchen%20(job%201).")
            let job = try XCTUnwrap(harness.daemon.jobs.list().first)
            XCTAssertEqual(job.kind, .relay)
            XCTAssertEqual(job.sinks.map(\.sink), [relayMount.absoluteString])

            let heard = try await NIOThreadPool.singleton.runIfActive { try RawHTTP.get(relayMount, duration: 2).body.count }
            XCTAssertGreaterThan(heard, 16_000, "a client of the relay's mount hears the station (a second of 128 kbit/s at least)")

            let listed = String(buffer: try await client.execute(uri: location, method: .get).body)
            XCTAssertTrue(listed.contains("Job 1: relay to \(relayMount.absoluteString)"), listed)
            XCTAssertTrue(listed.contains("Relaying to kitchen (job 1)."))

            let stopped = try await client.execute(uri: "/stations/demo/jobs/1/stop", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(stopped.status, .seeOther)
            XCTAssertTrue(harness.daemon.jobs.list().isEmpty)
            let gone = try await NIOThreadPool.singleton.runIfActive { (try? RawHTTP.get(relayMount, timeout: 1))?.statusCode }
            XCTAssertNotEqual(gone, 200, "the mount ends with the job")
        }
    }
}
