import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real partition. One daemon runs in a network namespace of its own, linked to the test's by two paths,
/// one to PostgreSQL and one to the station (Icecast); mid-episode the path to the database is cut, so its
/// packets go nowhere. It records on; its lease runs out and the other daemon takes the episode over; when
/// the path is back, the first learns it lost the lease, stops at the fence and attaches its part. The test
/// runs itself inside a network namespace of its own (`PrivateNetwork`), so nothing touches the machine's.
final class ClusterPartitionTests: XCTestCase {
    func testADaemonCutOffFromTheDatabaseIsFencedWhenThePathIsBackAndTheEpisodeHoldsBothParts() throws {
        guard PrivateNetwork.interface != nil else {
            let inside = try PrivateNetwork.run(test: "OnairCLITests.ClusterPartitionTests/" + #function.replacingOccurrences(of: "()", with: ""),
                                                timeout: 400)
            XCTAssertTrue(PrivateNetwork.passed(inside), PrivateNetwork.failures(of: inside))
            // The figures RELIABILITY.md reports, from the run inside.
            inside.stdoutText.split(separator: "\n").filter { $0.hasPrefix("partition: ") }.forEach { print($0) }
            return
        }
        guard geteuid() == 0 else { throw XCTSkip("a network namespace for one daemon is made as root") }
        let namespace = try NetworkNamespace(links: 2)
        let (toDatabase, toStation) = (namespace.links[0], namespace.links[1])
        let postgres: PostgresHarness
        do {
            postgres = try PostgresHarness(alsoOn: (toDatabase.outsideAddress, toDatabase.insideBlock))
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        let icecast = try IcecastHarness.playing("/cut.mp3", title: "Partition tone", bindAddress: "0.0.0.0")
        defer { icecast.stop() }
        // One name for the station on both sides: the leases are keyed by it.
        let station = "http://\(toStation.outsideAddress):\(icecast.port)/cut.mp3"
        let (a, b) = (try OnairBinary(), try OnairBinary())
        let database = postgres.url

        let cutOff = try a.start(["daemon", "--json", "--http", "off", "--database", postgres.url(host: toDatabase.outsideAddress),
                                  "--name", "a"], in: namespace)
        defer { cutOff.stop(grace: 5) }
        XCTAssertTrue(eventually(timeout: 20, every: 0.2) { (try? b.cluster(database: database))?.daemons.count == 1 },
                      "a did not register from its namespace: \(cutOff.stderrText)")
        let seconds = 50.0
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 4).rounded(.up))
        let added = try b.run(["schedule", "add", station, "--on", OnairBinary.utcText(start), "--for", "\(Int(seconds))s", "--tz", "UTC",
                               "--database", database])
        XCTAssertTrue(added.succeeded, "\(added)")
        XCTAssertTrue(eventually(timeout: 20, every: 0.2) { (try? b.cluster(database: database))?.leases.first?["daemon"] as? String == "a" },
                      "a claims the episode: \(String(decoding: cutOff.stdout, as: UTF8.self))")
        let survivor = try b.start(["daemon", "--json", "--http", "off", "--database", database, "--name", "b"])
        defer { survivor.stop(grace: 5) }

        Thread.sleep(until: start.addingTimeInterval(6))
        try namespace.cut(toDatabase)
        let cutAt = Date()
        XCTAssertTrue(eventually(timeout: 30, every: 0.2) {
            (try? b.cluster(database: database))?.leases.first.map { $0["daemon"] as? String == "b" && $0["epoch"] as? Int == 2 } == true
        }, "b takes the station over once a's lease has run out: \(String(decoding: survivor.stdout, as: UTF8.self))")
        let takenOverAfter = Date().timeIntervalSince(cutAt)
        Thread.sleep(forTimeInterval: 2)
        try namespace.restore(toDatabase)
        let restoredAt = Date()

        let events = { OnairBinary.events(String(decoding: cutOff.stdout, as: UTF8.self)).compactMap { $0["event"] as? String } }
        XCTAssertTrue(eventually(timeout: 60, every: 0.2) { events().contains("episode-fenced") },
                      "a stops at the fence once it reaches the database again: \(events())")
        let learnedAfter = Date().timeIntervalSince(restoredAt)
        let lost = events().firstIndex(of: "lease-lost"), fenced = events().firstIndex(of: "episode-fenced")
        XCTAssertNotNil(lost, "a is told its lease is lost: \(events())")
        XCTAssertLessThan(lost ?? .max, fenced ?? .min, "and then writes no outcome: \(events())")

        let episode = b.endedEpisode(database: database, timeout: start.addingTimeInterval(seconds).timeIntervalSinceNow + 60)
        let logs = String(decoding: cutOff.stdout, as: UTF8.self) + String(decoding: survivor.stdout, as: UTF8.self)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)\n\(logs)")
        XCTAssertTrue((episode["reason"] as? String)?.hasPrefix("taken over") == true, "b wrote the outcome: \(episode)")
        let files = episode["files"] as? [String] ?? []
        let parts = try b.indexed(database: database)
        XCTAssertEqual(parts.compactMap { $0["file"] as? String }, files, "one episode, its two parts indexed once each, in order: \(episode)")
        guard parts.count == 2, let firstStart = OnairBinary.date(parts[0]["startUTC"]), let firstEnd = OnairBinary.date(parts[0]["endUTC"]),
              let secondStart = OnairBinary.date(parts[1]["startUTC"]), let secondEnd = OnairBinary.date(parts[1]["endUTC"]) else {
            return XCTFail("parts: \(parts)\n\(logs)")
        }
        let end = start.addingTimeInterval(seconds)
        XCTAssertEqual(firstStart.timeIntervalSince(start), 0, accuracy: 1.5, "a's part opens the window")
        XCTAssertGreaterThan(firstEnd, cutAt.addingTimeInterval(5), "a went on recording while cut off")
        XCTAssertLessThan(firstEnd, end.addingTimeInterval(-1), "a stopped at the fence, before the window's end: no whole episode twice")
        XCTAssertGreaterThan(secondStart, cutAt.addingTimeInterval(5), "b's part begins after a's lease ran out")
        XCTAssertEqual(secondEnd.timeIntervalSince(end), 0, accuracy: 1.5, "b's part closes the window")
        for file in files { XCTAssertEqual(try FFprobe.decodeErrors(URL(fileURLWithPath: file)), 0, "\(file) decodes cleanly") }
        print(String(format: "partition: cut at 6 s, b held the station %.1f s later, the path back at %.1f s, a fenced %.1f s after that; "
                     + "parts %.1f–%.1f s (a) and %.1f–%.1f s (b) of %.0f s", takenOverAfter, restoredAt.timeIntervalSince(start), learnedAfter,
                     firstStart.timeIntervalSince(start), firstEnd.timeIntervalSince(start), secondStart.timeIntervalSince(start),
                     secondEnd.timeIntervalSince(start), seconds))
    }
}
