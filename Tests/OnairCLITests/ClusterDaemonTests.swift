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
        try onair.cluster(database: postgres.url)
    }

    private func episodes(_ onair: OnairBinary) throws -> [[String: Any]] {
        try onair.episodes(database: postgres.url)
    }

    private func indexed(_ onair: OnairBinary) throws -> [[String: Any]] {
        try onair.indexed(database: postgres.url)
    }

    /// Each look runs `onair`: five a second at most.
    private func eventually(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        TestSupport.eventually(timeout: timeout, every: 0.2, condition)
    }

    /// A one-off rule on the Icecast station starting `delay` seconds from now (a whole second).
    private func addEpisode(_ onair: OnairBinary, in delay: Double, seconds: Int, output: String? = nil) throws -> Date {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + delay).rounded(.up))
        let add = try onair.run(["schedule", "add", icecast.url(mount: "/cluster.mp3").absoluteString, "--on", OnairBinary.utcText(start),
                                 "--for", "\(seconds)s", "--tz", "UTC", "--database", postgres.url] + (output.map { ["--output", $0] } ?? []))
        XCTAssertTrue(add.succeeded, "\(add)")
        return start
    }

    /// Files under `folder` whose name says they are unfinished (a partial file or its journal).
    private func unfinished(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(at: folder.resolvingSymlinksInPath(), includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).map(\.lastPathComponent).filter { $0.contains(".partial") }
    }

    /// The only lease, once a daemon has claimed it.
    private func firstLease(_ onair: OnairBinary) -> [String: Any]? {
        var lease: [String: Any]?
        _ = eventually(timeout: 20) {
            lease = (try? self.cluster(onair))?.leases.first
            return lease != nil
        }
        return lease
    }

    private func waitUntilDone(_ onair: OnairBinary, timeout: TimeInterval) throws -> [String: Any] {
        onair.endedEpisode(database: postgres.url, timeout: timeout)
    }

    // MARK: Tests

    /// Two daemons started as the README starts them, without --name, both take the host's name, each with its own
    /// home, and a rule whose absolute `--output` puts its files in a folder they share. Each daemon is still its own
    /// lease holder, so the station of a due episode has one connection at any moment (before, both counted the lease
    /// as theirs and recorded the whole episode twice), and the second says it has a namesake. `kill -9` of the one
    /// recording leaves, after the takeover, two finished and indexed parts in the rule's folder and no partial file:
    /// the survivor finishes the dead daemon's part from its journal there (before, it looked in its own folder only).
    func testTwoDaemonsWithoutANameRecordOverOneConnectionAndAKillLeavesTwoFinishedPartsInTheRulesFolder() throws {
        let machines = try [OnairBinary(), OnairBinary()]
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
        let instances = registered.compactMap { $0["instance"] as? String }
        XCTAssertEqual(Set(instances).count, 2, "each its own instance: \(registered)")
        XCTAssertTrue(eventually(timeout: 5) { String(decoding: started[1].stdout, as: UTF8.self).contains("daemon-namesake") }, String(decoding: started[1].stdout, as: UTF8.self))

        let seconds = 36.0
        let start = try addEpisode(machines[0], in: 4, seconds: Int(seconds), output: shared.url.path + "/{station}/{date} {time}.{ext}")
        let holder = try XCTUnwrap(firstLease(machines[0])?["instance"] as? String, "nobody claimed the episode")
        // `onair status` lists the daemons in the order they started.
        let victim = try XCTUnwrap(instances.firstIndex(of: holder).map { started[$0] }, "the holder \(holder) is one of \(instances)")
        var most = 0, killedAt: Date?
        while Date() < start.addingTimeInterval(seconds) {
            most = max(most, (try? icecast.mounts().first { $0.mount == "/cluster.mp3" }?.listeners) ?? 0)
            if killedAt == nil, Date() >= start.addingTimeInterval(10) {
                kill(victim.pid, SIGKILL)
                killedAt = Date()
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssertEqual(most, 1, "one connection to the station at any moment, never two")
        let episode = try waitUntilDone(machines[0], timeout: 40)
        let logs = started.map { String(decoding: $0.stdout, as: UTF8.self) }.joined(separator: "\n")
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)\n\(logs)")
        let files = episode["files"] as? [String] ?? []
        XCTAssertEqual(files.count, 2, "the killed daemon's part and the survivor's: \(episode)\n\(logs)")
        XCTAssertTrue(files.allSatisfy { $0.hasPrefix(shared.url.resolvingSymlinksInPath().path + "/") || $0.hasPrefix(shared.url.path + "/") },
                      "both in the rule's folder: \(files)")
        XCTAssertEqual(try indexed(machines[0]).compactMap { $0["file"] as? String }, files, "both indexed, once each, in order")
        XCTAssertEqual(unfinished(under: shared.url), [], "no partial file or journal is left behind")
        let parts = try indexed(machines[0])
        guard parts.count == 2, let firstEnd = OnairBinary.date(parts[0]["endUTC"]), let secondStart = OnairBinary.date(parts[1]["startUTC"]),
              let killedAt else { return XCTFail("parts: \(parts)") }
        XCTAssertEqual(firstEnd.timeIntervalSince(killedAt), 0, accuracy: 2, "the first part ends at the kill (finished from its journal)")
        let durations = try files.map { try FFprobe.decodePCM(URL(fileURLWithPath: $0)).duration }
        XCTAssertEqual(durations.reduce(0, +) + secondStart.timeIntervalSince(firstEnd), seconds, accuracy: 3,
                       "the window less the takeover, and nothing twice")
    }

    /// Each daemon keeps its files in its own folder: the survivor finds the killed daemon's part in that daemon's
    /// folder, as the database registered it, finishes it and attaches it.
    func testKillingTheRecordingDaemonLeavesOneEpisodeInTwoPartsTakenOverWithinThirtySeconds() throws {
        // Each with its own home (kept until the test ends: it is removed with its object).
        let machines = try ["a", "b", "c"].map { name in (name, try OnairBinary()) }
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
        let victimHome = try XCTUnwrap(machines.first { $0.0 == holder }?.1.home.url)
        XCTAssertEqual(unfinished(under: victimHome), [], "the killed daemon's part was finished where it was")
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

    /// The killed daemon's folder is out of the survivor's reach (here: its link is gone, as a folder on another box
    /// would be). The episode taken over says so; the killed daemon, started again, finishes its part and attaches it to
    /// the episode the survivor completed, with the gap between the parts in the index.
    func testAPartOutOfReachIsToldAndAttachedWhenItsDaemonStartsAgain() throws {
        let away = try TemporaryDirectory(prefix: "onair-own-recordings")
        let (a, b) = (try OnairBinary(), try OnairBinary())
        let link = a.home.file("recordings")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: away.url)
        let first = try startDaemon(a, name: "a")
        let start = try addEpisode(a, in: 4, seconds: 30)
        XCTAssertEqual(firstLease(a)?["daemon"] as? String, "a", "a claims it, alone")
        let survivor = try startDaemon(b, name: "b")
        Thread.sleep(until: start.addingTimeInterval(8))
        kill(first.pid, SIGKILL)
        _ = first.waitForExit(timeout: 5)
        let unplugged = a.home.file("recordings-unplugged")
        try FileManager.default.moveItem(at: link, to: unplugged)

        var taken: [String: Any] = [:]
        XCTAssertTrue(eventually(timeout: 30) {
            taken = (try? self.episodes(b))?.first ?? [:]
            return (taken["reason"] as? String)?.hasPrefix("taken over") == true
        }, "b takes the episode over: \(String(decoding: survivor.stdout, as: UTF8.self))")
        XCTAssertTrue((taken["reason"] as? String)?.contains("the part daemon a on ") == true
                      && (taken["reason"] as? String)?.contains("is not reachable here") == true, "the episode says where part 1 is: \(taken)")
        XCTAssertEqual(unfinished(under: away.url).count, 2, "a's partial file and journal wait in its folder")

        try FileManager.default.moveItem(at: unplugged, to: link)
        let restarted = try startDaemon(a, name: "a")
        let episode = try waitUntilDone(a, timeout: start.addingTimeInterval(30).timeIntervalSinceNow + 40)
        let logs = [survivor, restarted].map { String(decoding: $0.stdout, as: UTF8.self) }.joined(separator: "\n")
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)\n\(logs)")
        XCTAssertTrue(eventually(timeout: 20) { ((try? self.episodes(a))?.first?["files"] as? [String])?.count == 2 },
                      "a attaches its part: \((try? self.episodes(a))?.first ?? [:])\n\(logs)")
        let attached = try episodes(a).first ?? [:]
        XCTAssertFalse((attached["reason"] as? String)?.contains("not reachable") ?? true, "the note goes once it is reached: \(attached)")
        XCTAssertEqual(unfinished(under: away.url), [], "no partial file is left behind")
        let files = attached["files"] as? [String] ?? []
        let parts = try indexed(a)
        XCTAssertEqual(parts.compactMap { $0["file"] as? String }, files, "both indexed, in the order they were recorded")
        XCTAssertTrue(files.first?.hasPrefix(away.url.resolvingSymlinksInPath().path) == true || files.first?.hasPrefix(link.path) == true,
                      "part 1 is a's: \(files)")
        XCTAssertTrue(eventually(timeout: 10) {
            (((try? self.indexed(a))?.last?["gaps"] as? [[String: Any]])?.first?["at"] as? Double) == 0
        }, "the gap opens the second part: \((try? self.indexed(a)) ?? [])")
        for file in files { XCTAssertEqual(try FFprobe.decodeErrors(URL(fileURLWithPath: file)), 0, "\(file) decodes cleanly") }
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

        // The station is a's now, job or episode: the same station asked of b is refused with one line naming a, and an
        // episode of it comes to a, over the job's connection.
        let station = icecast.url(mount: "/cluster.mp3").absoluteString
        let refused = try machines[1].1.run(["jobs", "start", "relay", station, "--to", "http://127.0.0.1:\(try FreePort.pick())/other.mp3"])
        XCTAssertFalse(refused.succeeded, "\(refused)")
        XCTAssertTrue(refused.stderrText.contains("is open on daemon a") && refused.stderrText.split(separator: "\n").count == 1,
                      "one line naming the daemon: \(refused)")
        let start = try addEpisode(machines[0].1, in: 3, seconds: 6)
        var most = 0
        while Date() < start.addingTimeInterval(6) {
            most = max(most, (try? icecast.mounts().first { $0.mount == "/cluster.mp3" }?.listeners) ?? 0)
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssertEqual(most, 1, "the episode joins the job's connection on a: one connection to the station")
        let episode = try waitUntilDone(machines[0].1, timeout: 30)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        XCTAssertTrue(String(decoding: named["a"]!.stdout, as: UTF8.self).contains("episode-started"), "a recorded the episode")

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
