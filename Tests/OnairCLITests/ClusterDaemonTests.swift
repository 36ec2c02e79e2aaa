import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Several `onair daemon` processes sharing one schedule on a real PostgreSQL 15 (started by the
/// test), recording a real Icecast station into one shared directory: of three daemons, the one
/// killed mid-episode is taken over by one of the other two and the episode ends up in two parts; the database restarting mid-episode costs
/// one log line and no audio.
final class ClusterDaemonTests: XCTestCase {
    private var postgres: PostgresHarness!
    private var icecast: IcecastHarness!
    private var daemons: [RunningProcess] = []
    private let shared = try! TemporaryDirectory(prefix: "onair-shared-recordings")

    override func setUpWithError() throws {
        do {
            postgres = try PostgresHarness()
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        // No burst of recent audio on connecting (`playing`'s default): what the survivor records is then exactly
        // what was broadcast after it took over, so the parts' audio adds up to the window less the gap.
        icecast = try IcecastHarness.playing("/cluster.mp3", title: "Cluster tone")
    }

    override func tearDown() {
        daemons.forEach { $0.stop(grace: 5) }
    }

    // MARK: Helpers

    /// An onair with its own data directory whose recordings directory is the shared one.
    private func machine() throws -> OnairBinary {
        let onair = try OnairBinary()
        try FileManager.default.createSymbolicLink(at: onair.home.file("recordings"), withDestinationURL: shared.url)
        return onair
    }

    private func startDaemon(_ onair: OnairBinary, name: String) throws -> RunningProcess {
        let daemon = try onair.start(["daemon", "--json", "--http", "off", "--database", postgres.url, "--name", name])
        daemons.append(daemon)
        XCTAssertTrue(eventually(timeout: 20) { (try? self.cluster(onair))?.daemons.contains { $0["name"] as? String == name } == true },
                      "daemon \(name) did not register: \(daemon.stderrText)")
        return daemon
    }

    private func cluster(_ onair: OnairBinary) throws -> (daemons: [[String: Any]], leases: [[String: Any]]) {
        let status = try onair.run(["status", "--json", "--database", postgres.url])
        let object = try XCTUnwrap(OnairBinary.events(status.stdoutText).first, "\(status)")
        return (object["daemons"] as? [[String: Any]] ?? [], object["leases"] as? [[String: Any]] ?? [])
    }

    private func episodes(_ onair: OnairBinary) throws -> [[String: Any]] {
        OnairBinary.events(try onair.run(["schedule", "episodes", "--json", "--database", postgres.url]).stdoutText)
    }

    /// The recordings index as the shared database holds it, oldest first.
    private func indexed(_ onair: OnairBinary) throws -> [[String: Any]] {
        let result = try onair.run(["recordings", "list", "--json", "--database", postgres.url])
        XCTAssertTrue(result.succeeded, "\(result)")
        return OnairBinary.events(result.stdoutText)
    }

    private func eventually(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return condition()
    }

    /// A one-off rule on the Icecast station starting `delay` seconds from now (a whole second).
    private func addEpisode(_ onair: OnairBinary, in delay: Double, seconds: Int) throws -> Date {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + delay).rounded(.up))
        let add = try onair.run(["schedule", "add", icecast.url(mount: "/cluster.mp3").absoluteString, "--on", OnairBinary.utcText(start),
                                 "--for", "\(seconds)s", "--tz", "UTC", "--database", postgres.url])
        XCTAssertTrue(add.succeeded, "\(add)")
        return start
    }

    private func waitUntilDone(_ onair: OnairBinary, timeout: TimeInterval) throws -> [String: Any] {
        var last: [String: Any] = [:]
        _ = eventually(timeout: timeout) {
            last = (try? episodes(onair))?.first ?? [:]
            return ["done", "failed", "missed"].contains(last["status"] as? String)
        }
        return last
    }

    // MARK: Tests

    /// Two daemons started as the README starts them, without --name, both take the host's name. Each is still its
    /// own lease holder, so the station of a due episode has one connection at any moment (before, both counted
    /// the lease as theirs and recorded the whole episode twice), and the second says it has a namesake.
    func testTwoDaemonsWithoutANameRecordAnEpisodeOverOneConnectionAndTheSecondIsWarned() throws {
        let machines = try [machine(), machine()]
        var started: [RunningProcess] = []
        for (count, onair) in machines.enumerated() {
            let daemon = try onair.start(["daemon", "--json", "--http", "off", "--database", postgres.url])
            daemons.append(daemon)
            started.append(daemon)
            XCTAssertTrue(eventually(timeout: 20) { (try? self.cluster(onair))?.daemons.count == count + 1 },
                          "daemon \(count + 1) did not register: \(daemon.stderrText)")
        }
        let registered = try cluster(machines[0]).daemons
        XCTAssertEqual(Set(registered.compactMap { $0["name"] as? String }).count, 1, "both took the host's name: \(registered)")
        XCTAssertEqual(Set(registered.compactMap { $0["instance"] as? String }).count, 2, "each its own instance: \(registered)")
        XCTAssertTrue(eventually(timeout: 5) { String(decoding: started[1].stdout, as: UTF8.self).contains("daemon-namesake") }, String(decoding: started[1].stdout, as: UTF8.self))

        let start = try addEpisode(machines[0], in: 4, seconds: 20)
        var most = 0
        while Date() < start.addingTimeInterval(20) {
            most = max(most, (try? icecast.mounts().first { $0.mount == "/cluster.mp3" }?.listeners) ?? 0)
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssertEqual(most, 1, "one connection to the station while the episode recorded, never two")
        let episode = try waitUntilDone(machines[0], timeout: 30)
        let logs = started.map { String(decoding: $0.stdout, as: UTF8.self) }.joined(separator: "\n")
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)\n\(logs)")
        XCTAssertEqual((episode["files"] as? [String])?.count, 1, "one recording, not two: \(episode)")
        XCTAssertEqual(try indexed(machines[0]).count, 1, "indexed once")
    }

    func testKillingTheRecordingDaemonLeavesOneEpisodeInTwoPartsTakenOverWithinThirtySeconds() throws {
        // Each with its own home (kept until the test ends: it is removed with its object).
        let machines = try ["a", "b", "c"].map { name in (name, try machine()) }
        var named: [String: RunningProcess] = [:]
        for (name, onair) in machines { named[name] = try startDaemon(onair, name: name) }
        let first = machines[0].1
        let start = try addEpisode(first, in: 5, seconds: 45)
        let end = start.addingTimeInterval(45)

        // Whoever claimed it holds the station's lease.
        var holder: String?
        XCTAssertTrue(eventually(timeout: 20) {
            holder = (try? self.cluster(first))?.leases.first?["daemon"] as? String
            return holder != nil
        }, "nobody claimed the episode: \(named.values.map { String(decoding: $0.stdout, as: UTF8.self) })")
        let victim = try XCTUnwrap(named[holder ?? ""])
        defer { withExtendedLifetime(machines) {} }
        Thread.sleep(until: start.addingTimeInterval(12))
        kill(victim.pid, SIGKILL)
        let killedAt = Date()
        _ = victim.waitForExit(timeout: 5)

        let episode = try waitUntilDone(first, timeout: end.timeIntervalSinceNow + 60)
        let logs = named.values.map { String(decoding: $0.stdout, as: UTF8.self) }.joined(separator: "\n")
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)\n\(logs)")
        let files = episode["files"] as? [String] ?? []
        XCTAssertEqual(files.count, 2, "one episode in two parts, whichever of the two survivors took it: \(episode)\n\(logs)")
        XCTAssertTrue((episode["reason"] as? String)?.contains("gap of") == true, "the gap is told: \(episode)")

        let parts = try indexed(first)
        XCTAssertEqual(parts.compactMap { $0["file"] as? String }, files, "both parts indexed, once each, in order")
        guard parts.count == 2, let firstEnd = OnairBinary.date(parts[0]["endUTC"]), let secondStart = OnairBinary.date(parts[1]["startUTC"]),
              let firstStart = OnairBinary.date(parts[0]["startUTC"]), let secondEnd = OnairBinary.date(parts[1]["endUTC"]) else {
            return XCTFail("parts: \(parts)")
        }
        XCTAssertEqual(firstStart.timeIntervalSince(start), 0, accuracy: 1.5, "the first part starts with the window")
        XCTAssertEqual(firstEnd.timeIntervalSince(killedAt), 0, accuracy: 2, "the first part ends at the kill (finished from its journal)")
        let takeover = secondStart.timeIntervalSince(killedAt)
        XCTAssertGreaterThan(secondStart, firstEnd, "nothing is recorded twice: the parts do not overlap")
        XCTAssertLessThan(takeover, 30, "the survivor takes over within 30 s")
        XCTAssertEqual(secondEnd.timeIntervalSince(end), 0, accuracy: 1.5, "the second part ends with the window")
        // The gap is in the index, at the start of the second part: `recordings show`, the API and the feeds' chapters tell it.
        let gaps = parts[1]["gaps"] as? [[String: Any]] ?? []
        XCTAssertEqual(gaps.first?["at"] as? Double, 0, "the gap opens the second part: \(parts[1])")
        XCTAssertEqual(gaps.first?["seconds"] as? Double ?? 0, secondStart.timeIntervalSince(firstEnd), accuracy: 0.01,
                       "from the dead daemon's last audio to the survivor's first")
        let shown = try first.run(["recordings", "show", "\(parts[1]["id"] as? Int ?? 0)", "--database", postgres.url])
        XCTAssertTrue(shown.stdoutText.contains("gaps:"), "\(shown)")
        print(String(format: "takeover: part 1 %.1f–%.1f s, killed at %.1f s, part 2 %.1f–%.1f s (window 45 s)",
                     firstStart.timeIntervalSince(start), firstEnd.timeIntervalSince(start), killedAt.timeIntervalSince(start),
                     secondStart.timeIntervalSince(start), secondEnd.timeIntervalSince(start)))
        for file in files {
            XCTAssertEqual(try FFprobe.decodeErrors(URL(fileURLWithPath: file)), 0, "\(file) decodes cleanly")
        }
        let durations = try files.map { try FFprobe.decodePCM(URL(fileURLWithPath: $0)).duration }
        XCTAssertEqual(durations.reduce(0, +) + secondStart.timeIntervalSince(firstEnd), 45, accuracy: 3, "the window less the gap, and nothing more")
    }

    func testTheDatabaseRestartingMidEpisodeCostsOneLogLineAndNoAudio() throws {
        let onair = try machine()
        let daemon = try startDaemon(onair, name: "solo")
        let start = try addEpisode(onair, in: 4, seconds: 20)
        Thread.sleep(until: start.addingTimeInterval(6))
        postgres.stop()
        Thread.sleep(forTimeInterval: 3)
        try postgres.start()

        let episode = try waitUntilDone(onair, timeout: start.addingTimeInterval(20).timeIntervalSinceNow + 60)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)\n\(daemon.stderrText)")
        let files = episode["files"] as? [String] ?? []
        XCTAssertEqual(files.count, 1, "the recording went on: \(episode)")
        let log = OnairBinary.events(String(decoding: daemon.stdout, as: UTF8.self))
        XCTAssertEqual(log.filter { $0["event"] as? String == "error" }.count, 1, "one plain error line: \(daemon.stderrText)")
        XCTAssertEqual(log.filter { $0["event"] as? String == "error-cleared" }.count, 1, "and one when it is back")
        if let file = files.first {
            XCTAssertEqual(try FFprobe.decodeErrors(URL(fileURLWithPath: file)), 0)
            XCTAssertEqual(try FFprobe.decodePCM(URL(fileURLWithPath: file)).duration, 20, accuracy: 1.5, "the whole window")
        }
    }

    func testADaemonPausedPastItsLeaseIsFencedWhenItResumes() throws {
        let machines = try ["a", "b"].map { name in (name, try machine()) }
        var named: [String: RunningProcess] = [:]
        for (name, onair) in machines { named[name] = try startDaemon(onair, name: name) }
        let first = machines[0].1
        let start = try addEpisode(first, in: 4, seconds: 40)
        var holder: String?
        XCTAssertTrue(eventually(timeout: 20) {
            holder = (try? self.cluster(first))?.leases.first?["daemon"] as? String
            return holder != nil
        })
        let paused = try XCTUnwrap(named[holder ?? ""])
        Thread.sleep(until: start.addingTimeInterval(6))
        kill(paused.pid, SIGSTOP)
        // The other daemon takes the station over once the lease has run out.
        XCTAssertTrue(eventually(timeout: 30) {
            guard let lease = (try? self.cluster(first))?.leases.first else { return false }
            return lease["daemon"] as? String != holder && lease["epoch"] as? Int == 2
        }, "no takeover while \(holder ?? "") was paused")
        kill(paused.pid, SIGCONT)
        let resumedAt = Date()
        let pausedLog = { OnairBinary.events(String(decoding: paused.stdout, as: UTF8.self)).compactMap { $0["event"] as? String } }
        XCTAssertTrue(eventually(timeout: 10) { pausedLog().contains("episode-fenced") }, "fenced on resuming: \(pausedLog())")
        XCTAssertTrue(pausedLog().contains("lease-lost"))
        print(String(format: "fenced: the resumed daemon stopped within %.1f s", Date().timeIntervalSince(resumedAt)))

        let episode = try waitUntilDone(first, timeout: start.addingTimeInterval(40).timeIntervalSinceNow + 60)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        XCTAssertTrue((episode["reason"] as? String)?.hasPrefix("taken over") == true, "the fenced daemon did not write the outcome: \(episode)")
        let files = episode["files"] as? [String] ?? []
        let parts = try indexed(first)
        let indexed = parts.compactMap { $0["file"] as? String }
        XCTAssertEqual(indexed.count, 2, "the fenced daemon's part is kept in the index: \(indexed)")
        XCTAssertEqual(files, indexed, "the episode lists exactly its parts, the fenced daemon's attached, in order: \(episode)")
        // What RELIABILITY.md reports: where the fenced part ends against the new holder's start.
        print("fenced parts: " + parts.map { part in
            String(format: "%.1f–%.1f s", OnairBinary.date(part["startUTC"])?.timeIntervalSince(start) ?? .nan,
                   OnairBinary.date(part["endUTC"])?.timeIntervalSince(start) ?? .nan)
        }.joined(separator: ", ") + String(format: " (paused at 6 s, resumed at %.1f s)", resumedAt.timeIntervalSince(start)))
        withExtendedLifetime(machines) {}
    }

    func testAPersistedRelayJobIsRunByOneDaemonAndTakenOverWithinThirtySecondsWhenItIsKilled() throws {
        let machines = try ["a", "b"].map { name in (name, try machine()) }
        var named: [String: RunningProcess] = [:]
        for (name, onair) in machines { named[name] = try startDaemon(onair, name: name) }
        defer { withExtendedLifetime(machines) {} }
        let mount = URL(string: "http://127.0.0.1:\(try FreePort.pick())/relay.mp3")!
        let started = try machines[0].1.run(["jobs", "start", "relay", icecast.url(mount: "/cluster.mp3").absoluteString,
                                             "--to", mount.absoluteString, "--persist", "--json"])
        XCTAssertTrue(started.succeeded, "\(started)")
        let id = try XCTUnwrap(OnairBinary.events(started.stdoutText).first?["id"] as? Int, "\(started)")
        let jobs = { (onair: OnairBinary) -> [[String: Any]] in
            (try? onair.run(["jobs", "list", "--json"])).flatMap { OnairBinary.events($0.stdoutText).first?["jobs"] as? [[String: Any]] } ?? []
        }
        // Run by the daemon it was given to, and by it alone.
        XCTAssertTrue(eventually(timeout: 10) { (try? RawHTTP.get(mount, duration: 1))?.body.isEmpty == false }, "the relay plays")
        Thread.sleep(forTimeInterval: 4)
        XCTAssertEqual(jobs(machines[0].1).compactMap { $0["id"] as? Int }, [id])
        XCTAssertEqual(jobs(machines[1].1).count, 0, "one daemon runs each job")

        kill(named["a"]!.pid, SIGKILL)
        let killedAt = Date()
        _ = named["a"]!.waitForExit(timeout: 5)
        XCTAssertTrue(eventually(timeout: 30) { jobs(machines[1].1).contains { $0["id"] as? Int == id } },
                      "b runs the job within 30 s of the kill: \(String(decoding: named["b"]!.stdout, as: UTF8.self))")
        let takeover = Date().timeIntervalSince(killedAt)
        XCTAssertTrue(eventually(timeout: 10) { (try? RawHTTP.get(mount, duration: 1))?.body.isEmpty == false }, "the relay plays again, from b")
        print(String(format: "job takeover: b ran the job %.1f s after the kill", takeover))
    }
}
