import Foundation
import RadioModel
@testable import Recording
import SharedStore
import Store
import TestSupport
import XCTest
@testable import Scheduling

/// The daemon's bookkeeping with the clock under the test's control: episodes missed while it was
/// not running, a wall-clock jump starting a due episode at once, rules picked up live, retention.
/// Recording itself is exercised end to end by the CLI tests; here a recorder that notes the jobs it
/// is given stands in, because the clock a real stream carries cannot be made to jump.
///
/// The schedule and index are the SQLite ones, or the PostgreSQL ones with ONAIR_TEST_DATABASE=postgresql
/// (`TestDatabase`).
final class DaemonLoopTests: XCTestCase {
    var directory: URL!
    /// Where the PostgreSQL stores are, when the tests run on them.
    private var postgres: PostgresLocation?
    private var store: (any ScheduleStorage)!
    private var index: (any RecordingsIndexing)!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-sched-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        postgres = try TestDatabase.postgresURL().map { try PostgresLocation(url: $0) }
        (store, index) = try openStores()
    }

    /// The schedule and the index under test.
    private func openStores() throws -> (any ScheduleStorage, any RecordingsIndexing) {
        if let postgres {
            let database = try SharedDatabase(location: postgres)
            return (try PostgresScheduleStore(database: database), try PostgresRecordingsIndex(database: database))
        }
        let database = try OnairDatabase(directory: directory)
        return (try ScheduleStore(database: database), try RecordingsIndex(database: database))
    }

    /// The same schedule through another connection, as `onair schedule` opens it while the daemon runs.
    private func openAnotherConnection() throws -> any ScheduleStorage {
        if let postgres { return try PostgresScheduleStore(database: try SharedDatabase(location: postgres)) }
        return try ScheduleStore(database: try OnairDatabase(directory: directory))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var offset: TimeInterval
        init(_ start: Date) { offset = start.timeIntervalSinceNow }
        var now: Date { lock.withLock { Date().addingTimeInterval(offset) } }
        func jump(by seconds: TimeInterval) { lock.withLock { offset += seconds } }
    }

    private final class NotingRecorder: EpisodeRecorder, @unchecked Sendable {
        private let lock = NSLock()
        private var storedJobs: [EpisodeJob] = []
        var jobs: [EpisodeJob] { lock.withLock { storedJobs } }

        /// The outcome is handed over before the job shows in `jobs`: a test that stops the daemon as soon as
        /// it sees the job must find the episode closed, not stopped mid-window before its outcome arrived.
        func record(_ job: EpisodeJob, finished: @escaping @Sendable (EpisodeOutcome) -> Void) throws(ScheduleError) {
            finished(EpisodeOutcome(files: [], firstSampleAt: nil, failure: "not recorded in this test"))
            lock.withLock { storedJobs.append(job) }
        }
        func stop(episodeID: Int64) {}
        func activeRecordings() -> [ActiveRecording] { [] }
    }

    /// Records each job as one part, indexed from `partStart` to the window's end.
    private final class PartRecorder: EpisodeRecorder, @unchecked Sendable {
        private let index: any RecordingsIndexing
        private let partStart: Date
        init(index: any RecordingsIndexing, partStart: Date) { self.index = index; self.partStart = partStart }

        func record(_ job: EpisodeJob, finished: @escaping @Sendable (EpisodeOutcome) -> Void) throws(ScheduleError) {
            let file = "/recordings/episode-\(job.episode.id!)-from-\(Int(partStart.timeIntervalSince1970)).mp3"
            _ = try? index.add(DaemonLoopTests.part(file, from: partStart, to: job.episode.windowEnd))
            finished(EpisodeOutcome(files: [file], firstSampleAt: partStart, failure: nil))
        }
        func stop(episodeID: Int64) {}
        func activeRecordings() -> [ActiveRecording] { [] }
    }

    static func part(_ file: String, from start: Date, to end: Date) -> FinishedRecording {
        FinishedRecording(station: StationLabel(id: "x", name: "X"), programme: nil, start: start, end: end, timeZone: "UTC", file: file,
                          cueSheet: nil, size: 5, duration: end.timeIntervalSince(start), codec: "mp3", container: "mp3", titles: [],
                          gaps: [], source: "x", track: nil)
    }

    private final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [DaemonEvent] = []
        func add(_ event: DaemonEvent) { lock.withLock { stored.append(event) } }
        var events: [String] { lock.withLock { stored.map(\.event.rawValue) } }
    }

    private func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    private func daily(_ time: String, createdAt: Date, duration: String = "1h") throws -> ScheduleRule {
        try store.add(ScheduleRule(station: "http://127.0.0.1:9/x.mp3",
                                   timing: .weekly([BroadcastSlot(days: Weekday.allCases, start: ClockTime(time)!, duration: TimeSpan(duration)!)]),
                                   timeZone: "UTC", createdAt: createdAt))
    }

    /// Runs a daemon on its own thread until `body` returns.
    private func running(clock: Clock, recorder: any EpisodeRecorder, log: EventLog, _ body: (ScheduleDaemon) throws -> Void) throws {
        let daemon = ScheduleDaemon(store: store, index: index, finaliser: Finaliser(index: index), recordings: directory,
                                    recorder: recorder, now: { clock.now }, log: log.add)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? daemon.run()
            done.signal()
        }
        defer {
            daemon.stop()
            done.wait()
        }
        try body(daemon)
    }

    private func waitFor(_ condition: () throws -> Bool, timeout: TimeInterval = 5) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }

    func testEpisodesMissedWhileNotRunningAreNotedWithTheReason() throws {
        let now = instant("2026-11-22T12:00:00Z")
        let rule = try daily("09:00", createdAt: now.addingTimeInterval(-2.5 * 86_400))
        try running(clock: Clock(now), recorder: NotingRecorder(), log: EventLog()) { _ in
            XCTAssertTrue(try waitFor { try store.episodes(status: .missed).count == 3 })
        }
        let missed = try store.episodes(ruleID: rule.id!)
        // Created on the 20th at 00:00: the 20th's, 21st's and 22nd's; none before it.
        XCTAssertEqual(missed.map(\.programmeStart), [instant("2026-11-22T09:00:00Z"), instant("2026-11-21T09:00:00Z"),
                                                      instant("2026-11-20T09:00:00Z")])
        XCTAssertEqual(Set(missed.map(\.reason)), ["the daemon was not running"])
    }

    func testAWallClockJumpStartsTheDueEpisodeAtOnce() throws {
        let clock = Clock(instant("2026-11-22T11:00:00Z"))
        _ = try daily("12:00", createdAt: clock.now, duration: "30m")
        let recorder = NotingRecorder(), log = EventLog()
        try running(clock: clock, recorder: recorder, log: log) { _ in
            Thread.sleep(forTimeInterval: 1.5)
            XCTAssertTrue(recorder.jobs.isEmpty, "nothing is due an hour ahead")
            // Suspend/resume: an hour and five minutes pass in an instant.
            clock.jump(by: 3900)
            XCTAssertTrue(waitFor { !recorder.jobs.isEmpty }, "the due episode starts within a tick")
        }
        let job = try XCTUnwrap(recorder.jobs.first)
        XCTAssertEqual(job.episode.programmeStart, instant("2026-11-22T12:00:00Z"))
        XCTAssertTrue(job.late, "started five minutes into its window")
        XCTAssertTrue(log.events.contains("clock-jumped"), "\(log.events)")
        let episode = try XCTUnwrap(store.episodes(ruleID: job.rule.id!).first)
        XCTAssertEqual(episode.status, .failed)
        XCTAssertTrue(episode.reason?.hasPrefix("started 30") == true && episode.reason?.contains(" s late") == true, episode.reason ?? "")
    }

    func testARuleAddedWhileRunningIsPickedUpAndAPausedOneIsNot() throws {
        let clock = Clock(instant("2026-11-22T11:59:58Z"))
        let recorder = NotingRecorder()
        try running(clock: clock, recorder: recorder, log: EventLog()) { _ in
            Thread.sleep(forTimeInterval: 0.5)
            // Written by another connection, as `onair schedule add` does.
            let other = try openAnotherConnection()
            let paused = try other.add(ScheduleRule(station: "paused", timing: .weekly([BroadcastSlot(days: Weekday.allCases,
                start: ClockTime("12:00")!, duration: TimeSpan("1h")!)]), timeZone: "UTC", paused: true, createdAt: clock.now))
            let active = try other.add(ScheduleRule(station: "active", timing: .weekly([BroadcastSlot(days: Weekday.allCases,
                start: ClockTime("12:00")!, duration: TimeSpan("1h")!)]), timeZone: "UTC", createdAt: clock.now))
            XCTAssertTrue(waitFor { recorder.jobs.contains { $0.rule.id == active.id } }, "the new rule's episode starts")
            XCTAssertFalse(recorder.jobs.contains { $0.rule.id == paused.id })
        }
    }

    /// Done episodes of `rule` ending after `after`, each with a recording (a real file, indexed) of its window.
    private func recordedEpisodes(of rule: ScheduleRule, endingAfter after: Date, count: Int) throws -> [String] {
        var files: [String] = []
        for occurrence in try RuleExpansion(rule).occurrences(endingAfter: after, limit: count) {
            let file = directory.appendingPathComponent("episode-\(files.count).mp3").path
            try addRecording(file, start: occurrence.start, end: occurrence.end)
            var episode = try store.episode(of: rule, occurrence)
            episode.status = .done
            episode.files = [file]
            try store.update(episode)
            files.append(file)
        }
        return files
    }

    @discardableResult
    private func addRecording(_ file: String, start: Date, end: Date, bytes: Int = 5) throws -> IndexedRecording {
        try Data(repeating: 0x55, count: bytes).write(to: URL(fileURLWithPath: file))
        return try index.add(FinishedRecording(station: StationLabel(id: "x", name: "X"), programme: nil, start: start, end: end,
                                               timeZone: "UTC", file: file, cueSheet: nil, size: Int64(bytes),
                                               duration: end.timeIntervalSince(start), codec: "mp3", container: "mp3", titles: [],
                                               gaps: [], source: "x", track: nil))
    }

    private func exists(_ files: [String]) -> [Bool] { files.map { FileManager.default.fileExists(atPath: $0) } }

    func testRetentionKeepsTheNewestEpisodesAndDeletesOlderFilesAndIndexEntries() throws {
        var rule = try daily("09:00", createdAt: instant("2026-11-01T00:00:00Z"))
        rule.keep = 2
        let files = try recordedEpisodes(of: rule, endingAfter: instant("2026-11-18T00:00:00Z"), count: 4)
        let deleted = try Retention.apply(to: rule, store: store, index: index)
        XCTAssertEqual(Set(deleted.map(\.file)), Set(files.prefix(2)), "the two oldest go")
        XCTAssertTrue(deleted.allSatisfy { $0.reason.hasPrefix("keep 2:") }, "\(deleted)")
        XCTAssertEqual(exists(files), [false, false, true, true])
        XCTAssertEqual(try index.all().map(\.file), Array(files.suffix(2)))
        XCTAssertEqual(try store.episodes(ruleID: rule.id!).flatMap(\.files), Array(files.suffix(2).reversed()))
    }

    /// `--keep-days` counts from when an episode's recording finished: the episode that began more than
    /// two days ago but ended less than two days ago stays; a kept recording stays however old.
    func testKeepDaysDeletesWhatFinishedLongerAgoByFinishTimeAndSparesKeptRecordings() throws {
        var rule = try daily("09:00", createdAt: instant("2026-11-01T00:00:00Z"))
        rule.keepDays = 2
        // Episodes of 10, 11, 12 and 13 November, 09:00–10:00.
        let files = try recordedEpisodes(of: rule, endingAfter: instant("2026-11-10T00:00:00Z"), count: 4)
        let oldest = try XCTUnwrap(index.all().first { $0.file == files[0] })
        XCTAssertEqual(try index.setKept(id: oldest.id!, true)?.kept, true)
        let deleted = try Retention.apply(to: rule, store: store, index: index, now: instant("2026-11-14T09:30:00Z"))
        XCTAssertEqual(deleted.map(\.file), [files[1]], "only the unkept episode that finished more than 2 days ago goes")
        XCTAssertEqual(deleted.first?.reason, "keep-days 2: finished more than 2 days ago")
        XCTAssertEqual(exists(files), [true, false, true, true])
        XCTAssertEqual(try index.all().map(\.file), [files[0], files[2], files[3]])
        XCTAssertEqual(try store.episodes(ruleID: rule.id!).flatMap(\.files), [files[3], files[2], files[0]],
                       "the deleted recording's episode goes with it; the kept one's stays")
        XCTAssertEqual(try Retention.apply(to: rule, store: store, index: index, now: instant("2026-11-14T09:30:00Z")), [],
                       "a second pass finds nothing more")
    }

    /// `--min-free` on real files: free space is what a 10,000-byte disk has left beside them. The oldest
    /// by finish time go first, until enough is free; the kept one and the partial file being written
    /// (not in the index until finalised) stay.
    func testMinimumFreeSpaceDeletesTheOldestFinishedUntilEnoughIsFree() throws {
        let recordings = directory.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        func file(_ name: String) -> String { recordings.appendingPathComponent(name).path }
        let day = "2026-11-20T"
        let kept = try addRecording(file("kept.mp3"), start: instant(day + "01:00:00Z"), end: instant(day + "02:00:00Z"), bytes: 1000)
        _ = try index.setKept(id: kept.id!, true)
        try addRecording(file("first.mp3"), start: instant(day + "03:00:00Z"), end: instant(day + "04:00:00Z"), bytes: 1000)
        // Began before "first" but finished after it.
        try addRecording(file("second.mp3"), start: instant(day + "02:30:00Z"), end: instant(day + "05:00:00Z"), bytes: 1000)
        try addRecording(file("third.mp3"), start: instant(day + "02:45:00Z"), end: instant(day + "08:00:00Z"), bytes: 1000)
        try addRecording(file("newest.mp3"), start: instant(day + "09:00:00Z"), end: instant(day + "10:00:00Z"), bytes: 1000)
        try Data(repeating: 0x55, count: 1000).write(to: URL(fileURLWithPath: file("writing.mp3.partial")))
        let disk: Int64 = 10_000
        let freeBytes: @Sendable () -> Int64? = {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: recordings.path)) ?? []
            let used = names.compactMap { try? FileManager.default.attributesOfItem(atPath: recordings.appendingPathComponent($0).path)[.size] as? NSNumber }
                .reduce(Int64(0)) { $0 + $1.int64Value }
            return disk - used
        }
        XCTAssertEqual(freeBytes(), 4000)
        let minimum = MinimumFreeSpace(minimum: ByteSize(bytes: 5500), freeBytes: freeBytes)
        let deleted = try minimum.reclaim(from: index)
        XCTAssertEqual(deleted.map(\.file), [file("first.mp3"), file("second.mp3")], "oldest finished first, and no more than needed")
        XCTAssertTrue(deleted.allSatisfy { $0.reason.hasPrefix("min-free 5.4 KiB:") }, "\(deleted)")
        XCTAssertEqual(exists(["kept", "first", "second", "third", "newest"].map { file($0 + ".mp3") }), [true, false, false, true, true])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("writing.mp3.partial")))
        XCTAssertEqual(try index.all().map(\.file), ["kept", "third", "newest"].map { file($0 + ".mp3") })

        let everything = MinimumFreeSpace(minimum: ByteSize(bytes: disk * 2), freeBytes: freeBytes)
        XCTAssertEqual(try everything.reclaim(from: index).count, 2, "short of space for good, every finished unkept recording goes")
        XCTAssertEqual(try index.all().map(\.file), [file("kept.mp3")])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("writing.mp3.partial")))
    }

    func testAfterARestartMidEpisodeTheRestIsASecondPartWhoseIndexEntryStartsWithTheGap() throws {
        let rule = try daily("12:00", createdAt: instant("2026-11-22T00:00:00Z"))
        // The daemon stopped at 12:10 while recording: its part is indexed, the episode left recording.
        let first = "/recordings/episode-first.mp3"
        try index.add(Self.part(first, from: instant("2026-11-22T12:00:00Z"), to: instant("2026-11-22T12:10:00Z")))
        var interrupted = try store.episode(of: rule, try XCTUnwrap(RuleExpansion(rule).occurrences(endingAfter: instant("2026-11-22T12:30:00Z"),
                                                                                                     limit: 1).first))
        interrupted.status = .recording
        interrupted.files = [first]
        try store.update(interrupted)

        // Back at 12:25: the rest is recorded from then.
        let resumedAt = instant("2026-11-22T12:25:00Z")
        try running(clock: Clock(resumedAt), recorder: PartRecorder(index: index, partStart: resumedAt), log: EventLog()) { _ in
            XCTAssertTrue(try waitFor { try store.episode(id: interrupted.id!)?.status == .done })
        }
        let episode = try XCTUnwrap(store.episode(id: interrupted.id!))
        XCTAssertEqual(episode.files.count, 2, "one episode in two parts: \(episode.files)")
        XCTAssertEqual(episode.files.first, first, "in the order they were recorded")
        let second = try XCTUnwrap(index.all().first { $0.file == episode.files.last })
        XCTAssertEqual(second.gaps, [TimedGap(at: 0, seconds: 900)], "the 15 minutes between the parts open the second part")
        XCTAssertEqual(try index.all().first { $0.file == first }?.gaps, [], "the first part's own entry is unchanged")
    }
}
