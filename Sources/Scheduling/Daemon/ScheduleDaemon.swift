import Foundation
import Guide
import RadioModel
import Recording

/// Something the daemon did, for its log (`onair daemon --json` prints one per line).
public struct DaemonEvent: Encodable, Sendable {
    /// What happened. Everything that reacts to events (the log, the live event stream, the metrics) switches
    /// on these cases; the raw values are the names the log and `--json` print.
    public enum Kind: String, Encodable, Sendable, CaseIterable {
        case daemonStarted = "daemon-started", daemonStopped = "daemon-stopped", daemonNamesake = "daemon-namesake"
        case httpStarted = "http-started", clockJumped = "clock-jumped", error, errorCleared = "error-cleared"
        case rulesRemoved = "rules-removed"
        case episodeStarted = "episode-started", episodeDone = "episode-done", episodeFailed = "episode-failed"
        case episodeMissed = "episode-missed", episodeInterrupted = "episode-interrupted", episodeMoved = "episode-moved"
        case episodeFenced = "episode-fenced", episodeRecovered = "episode-recovered", leaseLost = "lease-lost"
        case partAttached = "part-attached", recovered
        case recordingDeleted = "recording-deleted", recordingNoRoom = "recording-no-room", recordingRoomAgain = "recording-room-again"
        case streamFailed = "stream-failed", streamReconnecting = "stream-reconnecting", streamGap = "stream-gap"
        case streamDeadAir = "stream-dead-air", streamDown = "stream-down", streamRecovered = "stream-recovered"
        case guideRefreshed = "guide-refreshed", guideUnchanged = "guide-unchanged", guideFailed = "guide-failed"
        case jobLost = "job-lost", jobFailed = "job-failed", alertFailed = "alert-failed"
        case clipMatched = "clip-matched", clipsFailed = "clips-failed", trackLearned = "track-learned"
        /// The MQTT broker away or refusing, a command from it refused (`--mqtt`).
        case mqtt
        /// The scrobbling server away or refusing (`--scrobble-station`).
        case scrobbling

        /// A station's signal alert as the log names it.
        public init(_ alert: SignalAlert.Kind) {
            switch alert {
            case .deadAir: self = .streamDeadAir
            case .down: self = .streamDown
            }
        }
    }

    public var event: Kind
    /// When what it tells began on the station's clock: a gap's start (the stream's program-date-time
    /// where it has one, else when the last audio before the gap arrived).
    public var at: Date?
    public var episode: Int64?
    public var rule: Int64?
    public var station: String?
    public var message: String?
    public var files: [String]?

    public init(_ event: Kind, station: String? = nil, message: String? = nil, files: [String]? = nil) {
        self.event = event
        self.station = station
        self.message = message
        self.files = files
    }

    init(_ event: Kind, episode: Episode?, rule: Int64? = nil, message: String? = nil, files: [String]? = nil) {
        self.event = event
        self.episode = episode?.id
        self.rule = rule ?? episode?.ruleID
        station = episode?.station
        self.message = message
        self.files = files
    }
}

/// What `onair status` shows.
public struct DaemonStatus: Codable, Sendable {
    public var pid: Int32
    public var startedAt: Date
    public var rules: Int
    public var active: [ActiveRecording]
    public var next: [UpcomingEpisode]
    public var recentFailures: [Episode]
    public var retention: RetentionStatus
}

/// The scheduler: turns rules into episodes as they come due and has them recorded, on a thread of
/// its own.
///
/// Each rule's next window is cached, so an idle daemon with hundreds of rules costs one cheap query
/// a second (has another process changed the database?). It wakes at the next window (minus
/// `preroll`, the time a connection gets to settle), on `wake()` (SIGHUP, the control channel), and
/// when the wall clock jumps (NTP step, suspend/resume: compared against the monotonic clock), so a
/// due episode starts at once. On start it finishes partial files a crash left behind, resumes
/// episodes whose window is still open (marked late) and notes those missed while it was not running.
///
/// With `leases` (several daemons on one PostgreSQL database) it records only the episodes it claims,
/// renews its leases every few seconds, takes over the episodes of a daemon whose leases expired
/// (recording the rest as a further part), and stops an episode whose lease it lost without writing
/// its outcome (fencing).
public final class ScheduleDaemon: @unchecked Sendable {  // `stopping`, `reloadRequested`, `running`, `held`, `fenced`, `unfinished` inside `state`; rules, due times and renewal on the loop thread only
    public struct Options: Sendable {
        /// Seconds before a window opens that its station is connected.
        public var preroll: Double = 3
        /// Longest sleep between looks at the database.
        public var tick: Double = 1
        /// A wall-clock jump larger than this (seconds) is reported and acted on.
        public var jumpTolerance: Double = 2
        /// How far back missed episodes are noted on start.
        public var missedLookBack: Double = 7 * 86_400
        /// `--min-free`: below this much free space the oldest finished recordings are deleted.
        public var minFree: ByteSize?
        /// Seconds between retention sweeps. Free space shrinks while recordings run and other programs
        /// write, with no event to wait for, so it is looked at every half minute (and before each
        /// episode starts): often enough that a few minutes of audio cannot fill the gap, rare enough to
        /// cost nothing. The same sweep deletes what aged past a rule's `--keep-days`.
        public var retentionSweep: Double = 30
        public init() {}
    }

    private let store: any ScheduleStorage
    /// Where guide rules find their broadcasts.
    private let guide: GuideStore?
    private let index: any RecordingsIndexing
    private let leases: (any EpisodeLeases)?
    /// Other work shared through the database (the runtime jobs): renewed and taken over at each renewal of the leases.
    private let alsoOnRenewal: (@Sendable () throws -> Void)?
    private let jobStations: JobStationLeases?
    private let finaliser: Finaliser
    private let recordings: URL
    private let recorder: EpisodeRecorder
    private let options: Options
    private let log: @Sendable (DaemonEvent) -> Void
    private let now: @Sendable () -> Date
    private let retention: RetentionKeeper
    private let wakeUp = DispatchSemaphore(value: 0)
    private struct State {
        var stopping = false
        var reloadRequested = true
        var running: Set<Int64> = []
        /// The lease each running episode was claimed with (with `leases` only).
        var held: [Int64: StationLease] = [:]
        /// Running episodes whose lease was lost: stopped, and their outcome not written.
        var fenced: Set<Int64> = []
        /// Journals of parts that could not be finalised (a full disk), and how often that was tried again.
        var unfinished: [URL: Int] = [:]
    }
    private let state = Locked(State())
    private let startedAt = Date()
    // Loop thread only.
    private var rules: [Int64: ScheduleRule] = [:]
    /// Per rule: when its next window, less the preroll, begins.
    private var nextDue: [Int64: Date] = [:]
    private var lastChangeCounter: Int?
    private var lastRenewal = Date.distantPast
    private var lastRetentionSweep = Date.distantPast
    /// How often (one per retention sweep) a part that could not be finalised is tried again before it is
    /// left to `onair recover` and the next start: a day, at the default half minute.
    static let unfinishedTries = 2_880
    /// Sharing a database: the episodes whose parts this daemon finished (and attached) on start. Taking
    /// one of them over, it does not say that the earlier daemon's part is out of reach.
    private var episodesFinishedOnStart: Set<Int64> = []

    /// `jobStations`: the stations the runtime jobs hold (with `leases`), renewed with the episodes' leases.
    public init(store: any ScheduleStorage, guide: GuideStore? = nil, index: any RecordingsIndexing, leases: (any EpisodeLeases)? = nil,
                jobStations: JobStationLeases? = nil, alsoOnRenewal: (@Sendable () throws -> Void)? = nil, finaliser: Finaliser, recordings: URL,
                recorder: EpisodeRecorder, options: Options = Options(),
                now: @escaping @Sendable () -> Date = { Date() }, log: @escaping @Sendable (DaemonEvent) -> Void) {
        self.store = store; self.guide = guide; self.index = index; self.leases = leases; self.alsoOnRenewal = alsoOnRenewal
        self.jobStations = jobStations
        self.finaliser = finaliser
        self.recordings = recordings; self.recorder = recorder; self.options = options; self.now = now; self.log = log
        retention = RetentionKeeper(store: store, index: index, minFree: options.minFree, recordings: recordings, log: log)
        jobStations?.setEpisodesUse { [weak self] lease in self?.holding.contains(lease) ?? false }
    }

    /// Runs until `stop()`: recovery first, then the loop. Blocks the calling thread.
    public func run() throws {
        try recoverAfterRestart()
        var lastWall = now()
        var lastMonotonic = DispatchTime.now().uptimeNanoseconds
        // Failing ticks (the database is down) are logged once, and their end once.
        var failing: String?
        while !isStopping {
            let wall = now()
            let monotonic = DispatchTime.now().uptimeNanoseconds
            let drift = wall.timeIntervalSince(lastWall) - Double(monotonic - lastMonotonic) / 1e9
            if abs(drift) > options.jumpTolerance {
                log(DaemonEvent(.clockJumped, message: String(format: "the wall clock jumped %+.1f s", drift)))
                state.withLock { $0.reloadRequested = true }
            }
            (lastWall, lastMonotonic) = (wall, monotonic)
            do {
                try tick(at: wall)
                if failing != nil { log(DaemonEvent(.errorCleared, message: "working again after: \(failing!)")) }
                failing = nil
            } catch {
                if failing == nil { log(DaemonEvent(.error, message: "\(error)")) }
                failing = failing ?? "\(error)"
            }
            let nextWake = nextDue.values.min().map { max(0.01, $0.timeIntervalSince(now())) } ?? options.tick
            _ = wakeUp.wait(timeout: .now() + min(options.tick, nextWake))
        }
        for id in state.withLock({ $0.running }) { recorder.stop(episodeID: id) }
        while !state.withLock({ $0.running.isEmpty }) { Thread.sleep(forTimeInterval: 0.05) }
    }

    public func stop() {
        state.withLock { $0.stopping = true }
        wakeUp.signal()
    }

    /// Re-reads the rules now (SIGHUP, `onair schedule` poking the control channel).
    public func wake() {
        state.withLock { $0.reloadRequested = true }
        wakeUp.signal()
    }

    public func status() -> DaemonStatus {
        let rules = (try? store.rules()) ?? []
        return DaemonStatus(pid: getpid(), startedAt: startedAt, rules: rules.count, active: recorder.activeRecordings(),
                            next: UpcomingEpisodes.next(5, of: rules, after: now(), guide: guide),
                            recentFailures: (try? store.recentFailures(limit: 5)) ?? [], retention: retention.status)
    }

    /// The station leases this daemon holds and renews (0 without a shared database).
    public var leasesHeld: Int { holding.count }

    /// The leases of the episodes running here whose lease was not lost.
    private var holding: Set<StationLease> { state.withLock { state in Set(state.held.filter { !state.fenced.contains($0.key) }.values) } }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: Loop thread

    private func tick(at instant: Date) throws {
        let counter = try store.changeCounter()
        let reload = state.withLock { state -> Bool in
            defer { state.reloadRequested = false }
            return state.reloadRequested
        }
        if reload || counter != lastChangeCounter {
            lastChangeCounter = counter
            try reloadRules(at: instant)
        }
        if let leases, instant.timeIntervalSince(lastRenewal) >= leases.renewInterval {
            try renew(leases)
            lastRenewal = instant
            try takeOverOrphans(leases, at: instant)
            try alsoOnRenewal?()
        }
        if instant.timeIntervalSince(lastRetentionSweep) >= options.retentionSweep || instant < lastRetentionSweep {
            lastRetentionSweep = instant
            retention.sweep(rules: Array(rules.values), now: instant)
            try finishUnfinished()
        }
        var occurrences: [DueOccurrence] = []
        for (id, due) in nextDue where due <= instant {
            guard let rule = rules[id], let expansion = try? RuleExpansion(rule, guide: guide) else {
                nextDue[id] = nil
                continue
            }
            let upcoming = expansion.occurrences(endingAfter: instant, limit: 4)
            for occurrence in upcoming where occurrence.window.start.addingTimeInterval(-options.preroll) <= instant {
                occurrences.append(DueOccurrence(rule, occurrence))
            }
            nextDue[id] = upcoming.first { $0.window.start.addingTimeInterval(-options.preroll) > instant }?
                .window.start.addingTimeInterval(-options.preroll)
                ?? expansion.occurrences(endingAfter: upcoming.last?.window.end ?? instant, limit: 1).first?
                    .window.start.addingTimeInterval(-options.preroll)
        }
        // In one order on every daemon: daemons creating the same episodes at once then wait for each other
        // row by row, and never deadlock (a dictionary's order differs from process to process).
        try store.episodes(of: occurrences.sorted { ($0.rule.id!, $0.occurrence.start) < ($1.rule.id!, $1.occurrence.start) },
                           creatingAs: .scheduled, reason: nil)
        var due: [(episode: Episode, rule: ScheduleRule)] = []
        for episode in try store.episodes(status: .scheduled) where !state.withLock({ $0.running.contains(episode.id!) }) {
            if let rule = rules[episode.ruleID], try isNoLongerListed(episode, of: rule) {
                // The guide moved or dropped this broadcast before it began: its new time is an episode of its own.
                try store.delete(episode)
                log(DaemonEvent(.episodeMoved, episode: episode, message: "the guide no longer lists this broadcast at this time"))
            } else if episode.windowEnd <= instant {
                try mark(episode, .missed, reason: episode.reason ?? "not started before its end")
            } else if episode.windowStart.addingTimeInterval(-options.preroll) <= instant, let rule = rules[episode.ruleID], !rule.paused {
                due.append((episode, rule))
            }
        }
        if let leases, !due.isEmpty {
            // All at once, in one transaction: another daemon has some of them, or their stations; or this one is full.
            let claimed = try leases.claim(due.map(\.episode))
            due = due.filter { claimed[$0.episode.id!] != nil }
            state.withLock { state in for (episode, _) in due { state.held[episode.id!] = claimed[episode.id!] } }
        }
        try start(due, at: instant)
    }

    /// Whether a guide rule's episode, not yet begun, is no longer in the guide at its time.
    private func isNoLongerListed(_ episode: Episode, of rule: ScheduleRule) throws -> Bool {
        guard case .guide = rule.timing, episode.broadcast != nil else { return false }
        let listed = try RuleExpansion(rule, guide: guide).occurrences(endingAfter: episode.windowEnd.addingTimeInterval(-0.001), limit: 1).first
        return listed?.start != episode.programmeStart || listed?.end != episode.programmeEnd
    }

    private func reloadRules(at instant: Date) throws {
        let loaded = try store.rules()
        let removed = Set(rules.keys).subtracting(loaded.compactMap(\.id))
        rules = Dictionary(uniqueKeysWithValues: loaded.map { ($0.id!, $0) })
        nextDue = [:]
        for rule in loaded where !rule.paused {
            // Due now: the tick creates what is near and works out the next one.
            nextDue[rule.id!] = instant
        }
        if !removed.isEmpty {
            log(DaemonEvent(.rulesRemoved, message: removed.sorted().map(String.init).joined(separator: ",")))
        }
        // Episodes of removed rules stop; their rows went with the rule.
        for id in state.withLock({ $0.running }) where (try? store.episode(id: id)) == nil { recorder.stop(episodeID: id) }
    }

    /// Starts recording these episodes (claimed, with a shared database): their new state written in one
    /// transaction, then each handed to the recorder.
    private func start(_ batch: [(episode: Episode, rule: ScheduleRule)], at instant: Date) throws {
        guard !batch.isEmpty else { return }
        // Room for the episodes first: a sweep may be half a minute away.
        retention.makeRoom(now: instant)
        // Episodes resumed after a restart or a takeover have parts: the rest starts where they end.
        let indexed = batch.contains { !$0.episode.files.isEmpty } ? try index.all() : []
        let jobs = batch.map { episode, rule -> EpisodeJob in
            var started = episode
            started.status = .recording
            // A second of slack: the preroll normally starts the connection before the window.
            if instant > episode.windowStart.addingTimeInterval(1) {
                started.late = true
                let lateness = String(format: "started %.0f s late", instant.timeIntervalSince(episode.windowStart))
                started.reason = episode.reason.map { "\($0); \(lateness)" } ?? lateness
            }
            let recorded = indexed.filter { episode.files.contains($0.file) }.map(\.endUTC).max()
            if let recorded, instant.timeIntervalSince(recorded) > 1 {
                // The rest is a part of its own; what is missing between the parts is told, with its times.
                let gap = "gap of \(Int(instant.timeIntervalSince(recorded).rounded())) s from \(recorded.formatted(.iso8601)) to \(instant.formatted(.iso8601))"
                started.reason = started.reason.map { "\($0); \(gap)" } ?? gap
            }
            return EpisodeJob(episode: started, rule: rule, late: started.late, recordFrom: max(episode.windowStart, recorded ?? .distantPast))
        }
        try store.update(jobs.map(\.episode))
        for job in jobs {
            let id = job.episode.id!, rule = job.rule
            // Hundreds of recordings starting at once take a while: the first ones' leases must not lapse
            // (and free room past --max-streams) meanwhile.
            if let leases, now().timeIntervalSince(lastRenewal) >= leases.renewInterval {
                try renew(leases)
                lastRenewal = now()
            }
            state.withLock { _ = $0.running.insert(id) }
            log(DaemonEvent(.episodeStarted, episode: job.episode, message: job.episode.reason))
            do {
                try recorder.record(job) { [self] outcome in
                    finished(id, rule: rule, outcome)
                }
            } catch {
                state.withLock { _ = $0.running.remove(id) }
                try mark(job.episode, .failed, reason: "\(error)")
                releaseLease(of: id)
            }
        }
    }

    /// Tries again the parts that could not be finalised, most often for want of room that there may be now;
    /// what it finishes joins its episode. Silent until it gives up: the episode's note told the failure.
    private func finishUnfinished() throws {
        let journals = state.withLock { Array($0.unfinished.keys) }
        var finished: [FinishedRecording] = []
        for journal in journals {
            switch Result(catching: { () throws(RecordingError) in try finaliser.finalise(journal: journal) }) {
            case .success(let part):
                finished.append(part)
                log(DaemonEvent(.recovered, files: [part.file]))
                state.withLock { $0.unfinished[journal] = nil }
            case .failure(let error):
                let tries = state.withLock { state -> Int in
                    let tries = (state.unfinished[journal] ?? 0) + 1
                    state.unfinished[journal] = tries < Self.unfinishedTries && FileManager.default.fileExists(atPath: journal.path) ? tries : nil
                    return tries
                }
                if tries == Self.unfinishedTries {
                    log(DaemonEvent(.error, message: "cannot finalise \(journal.path), given up after a day: \(error); run 'onair recover' to try again"))
                }
            }
        }
        try attach(finished)
    }

    /// A part that could not be finalised (a full disk), to try again at each retention sweep.
    public func finishLater(_ journal: URL) {
        state.withLock { $0.unfinished[journal] = $0.unfinished[journal] ?? 0 }
    }

    /// From the recorder's thread.
    private func finished(_ id: Int64, rule: ScheduleRule, _ outcome: EpisodeOutcome) {
        outcome.unfinished.forEach(finishLater)
        defer {
            releaseLease(of: id)
            state.withLock { _ = $0.running.remove(id) }
        }
        // Read once, before any transaction (the index may share the schedule's connection).
        let indexed = (try? index.all()) ?? []
        noteGapBefore(outcome.files, of: id, indexed: indexed)
        let starts = Dictionary(indexed.map { ($0.file, $0.startUTC) }, uniquingKeysWith: { first, _ in first })
        if let lease = state.withLock({ $0.held[id] }), let leases {
            // Fencing: another daemon took this station over; what it records is the episode's now. (With
            // the database out of reach the lease cannot be checked, and the outcome cannot be written either.)
            let kept = state.withLock { !$0.fenced.contains(id) } && ((try? leases.holds(lease)) ?? true)
            guard kept else {
                // Its part is the episode's all the same: attached (nothing else of the episode changed),
                // so the episode lists every part the index holds.
                let episode = try? store.updateEpisode(id: id) { $0.files = Self.ordered($0.files + outcome.files, starts: starts) }
                log(DaemonEvent(.episodeFenced, episode: episode,
                                message: "the lease (epoch \(lease.epoch)) was lost; this part is attached to the episode, whose outcome the new holder writes",
                                files: outcome.files))
                return
            }
        }
        let interrupted = isStopping, instant = now()
        let updated: Episode?
        do {
            updated = try store.updateEpisode(id: id) { episode in
                episode.files = Self.ordered(episode.files + outcome.files, starts: starts)
                episode.firstSampleAt = episode.firstSampleAt ?? outcome.firstSampleAt
                // Stopped mid-window: left as recording, so the next start records the rest.
                guard !interrupted || episode.windowEnd <= instant else { return }
                if let failure = outcome.failure { episode.reason = episode.reason.map { "\($0); \(failure)" } ?? failure }
                episode.status = episode.files.isEmpty ? .failed : .done
                if episode.files.isEmpty, outcome.failure == nil { episode.reason = "no audio was recorded in the window" }
            }
        } catch {
            return log(DaemonEvent(.error, message: "episode \(id): \(error)"))
        }
        // The outcome is written: the station is free for other daemons before anyone hears the episode ended.
        releaseLease(of: id)
        guard let episode = updated else { return }
        guard episode.status != .recording else {
            return log(DaemonEvent(.episodeInterrupted, episode: episode, files: outcome.files))
        }
        log(DaemonEvent(episode.status == .done ? .episodeDone : .episodeFailed, episode: episode, message: episode.reason,
                        files: episode.files))
        do {
            if let current = try store.rule(id: rule.id!) { retention.apply(to: [current], now: now()) }
        } catch {
            log(DaemonEvent(.error, episode: episode, message: "\(error)"))
        }
    }

    /// An episode's parts in the order they were recorded (as the index has them), each once.
    private static func ordered(_ files: [String], starts: [String: Date]) -> [String] {
        var seen: Set<String> = []
        return files.filter { seen.insert($0).inserted }.enumerated()
            .sorted { (starts[$0.element] ?? .distantFuture, $0.offset) < (starts[$1.element] ?? .distantFuture, $1.offset) }
            .map(\.element)
    }

    /// The time between the episode's earlier parts (another daemon's, or this one's before a restart)
    /// and the first of `files`, noted as a gap at the start of that part in the recordings index, so
    /// that `onair recordings show`, the API and the feeds' chapters show it.
    private func noteGapBefore(_ files: [String], of id: Int64, indexed: [IndexedRecording]) {
        guard let first = files.first, let earlier = try? store.episode(id: id)?.files, !earlier.isEmpty else { return }
        do {
            guard let start = indexed.first(where: { $0.file == first })?.startUTC,
                  let recorded = indexed.filter({ earlier.contains($0.file) && $0.file != first && $0.endUTC <= start }).map(\.endUTC).max()
            else { return }
            let gap = start.timeIntervalSince(recorded)
            // Under a second is the parts' own rounding, not audio lost.
            guard gap >= 1 else { return }
            try index.addGap(TimedGap(at: 0, seconds: gap), toRecordingOf: first)
        } catch {
            log(DaemonEvent(.error, message: "cannot note the gap before \(first): \(error)"))
        }
    }

    /// Gives the episode's station lease up once no other episode here records that station.
    private func releaseLease(of id: Int64) {
        guard let leases else { return }
        let lease = state.withLock { state -> StationLease? in
            let lease = state.held.removeValue(forKey: id), wasFenced = state.fenced.remove(id) != nil
            guard let lease, !wasFenced, !state.held.values.contains(lease) else { return nil }
            return lease
        }
        // A runtime job here still has the station open.
        if let lease, jobStations?.holds(lease) == true { return }
        guard let lease else { return }
        do {
            try leases.release(lease)
        } catch {
            // It expires by itself.
            log(DaemonEvent(.error, message: "cannot release the lease of \(lease.station): \(error)"))
        }
    }

    private func mark(_ episode: Episode, _ status: EpisodeStatus, reason: String) throws {
        var changed = episode
        changed.status = status
        changed.reason = reason
        try store.update(changed)
        log(DaemonEvent(status == .missed ? .episodeMissed : .episodeFailed, episode: changed, message: reason))
    }

    // MARK: Leases

    /// Renews what this daemon holds; an episode whose lease was lost stops at once.
    private func renew(_ leases: any EpisodeLeases) throws {
        let lost = try leases.renew(holding.union(jobStations?.current ?? []))
        guard !lost.isEmpty else { return }
        jobStations?.forget(lost)
        let stopped = state.withLock { state -> [Int64] in
            let ids = state.held.filter { lost.contains($0.value) }.map(\.key)
            state.fenced.formUnion(ids)
            return ids
        }
        for id in stopped {
            log(DaemonEvent(.leaseLost, episode: try? store.episode(id: id), message: "another daemon has this station now; stopping"))
            recorder.stop(episodeID: id)
        }
    }

    /// Episodes whose daemon stopped renewing its lease (or stopped), claimed first, so that one
    /// daemon alone changes each. The part its daemon was writing is finished from its journal wherever
    /// this daemon reaches it (this daemon's folder, the rule's own, the other daemon's on this host) and
    /// attached; where it cannot be reached, the episode says so, and the daemon that wrote it attaches it
    /// when it starts again. The rest of the window is recorded as a part of its own.
    private func takeOverOrphans(_ leases: any EpisodeLeases, at instant: Date) throws {
        let candidates = try leases.orphaned().filter { orphan in
            rules[orphan.episode.ruleID] != nil && !state.withLock { $0.running.contains(orphan.episode.id!) }
        }
        guard !candidates.isEmpty else { return }
        // Claimed all at once, as due episodes are.
        let claimedLeases = try leases.claim(candidates.map(\.episode))
        let claimed = candidates.filter { claimedLeases[$0.episode.id!] != nil }
        guard !claimed.isEmpty else { return }
        state.withLock { state in for orphan in claimed { state.held[orphan.episode.id!] = claimedLeases[orphan.episode.id!] } }
        let ids = Set(claimed.map { $0.episode.id! })
        let holderFolders = claimed.compactMap { $0.holder?.recordings }.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let parts = finishLeftoverJournals(in: journalFolders(of: claimed.compactMap { rules[$0.episode.ruleID] }) + holderFolders,
                                           episodes: ids)
        // Every part that names its episode joins it, as on start: the recordings folder may also hold a
        // leftover of an episode not taken over here.
        try attach(parts.filter { $0.episode != nil })
        let withParts = episodesFinishedOnStart.union(parts.compactMap(\.episode))
        var resumed: [(episode: Episode, rule: ScheduleRule)] = []
        for orphan in claimed {
            let id = orphan.episode.id!, rule = rules[orphan.episode.ruleID]!
            var reason = orphan.wasOwn ? "resumed after a restart" : "taken over: its daemon stopped renewing its lease"
            if let holder = orphan.holder, !orphan.wasOwn, !withParts.contains(id) {
                reason += "; \(Self.unreachablePartNote(holder)), if it wrote one: it finishes and attaches it when it starts again"
            }
            let episode = try resume(orphan.episode, at: instant, reason: reason)
            if episode.status == .scheduled, !rule.paused {
                resumed.append((episode, rule))
            } else {
                releaseLease(of: id)
            }
        }
        try start(resumed, at: instant)
    }

    /// How an episode taken over says that its earlier daemon's part was out of this daemon's reach;
    /// `attach` takes the note out once the part is attached.
    private static func unreachablePartNote(_ holder: DaemonPlace) -> String {
        "\(unreachablePartNotePrefix)\(holder.name) on \(holder.host) was writing is not reachable here"
    }

    private static let unreachablePartNotePrefix = "the part daemon "

    // MARK: Restart

    /// Finishes partial files left by a crash, resumes or closes the episodes that were recording,
    /// and notes the episodes missed while the daemon was not running.
    private func recoverAfterRestart() throws {
        let instant = now()
        let rules = try store.rules()
        // Parts that name their episode are attached to it at once, wherever it stands now (another
        // daemon may have recorded the rest meanwhile). Sharing a database, the first tick takes over what
        // no daemon holds a lease on (this one's own episodes among them), claiming each first.
        let recovered = finishLeftoverJournals(in: journalFolders(of: rules), episodes: nil)
        try attach(recovered.filter { $0.episode != nil })
        if leases == nil {
            for episode in try store.episodes(status: .recording) {
                try resume(episode, at: instant, reason: "resumed after a restart")
            }
        } else {
            episodesFinishedOnStart = Set(recovered.compactMap(\.episode))
        }
        var missed: [DueOccurrence] = []
        for rule in rules where !rule.paused {
            let since = max(rule.createdAt, instant.addingTimeInterval(-options.missedLookBack))
            for occurrence in try RuleExpansion(rule, guide: guide).occurrences(endingAfter: since, limit: 50)
                where occurrence.window.end <= instant && occurrence.window.start >= since {
                missed.append(DueOccurrence(rule, occurrence))
            }
        }
        for episode in try store.episodes(of: missed, creatingAs: .missed, reason: "the daemon was not running") where episode.status == .scheduled {
            try mark(episode, .missed, reason: "the daemon was not running")
        }
    }

    /// An episode that was recording when its daemon stopped, as the database holds it now (with the
    /// parts `attach` gave it): scheduled again for the rest of its window, or closed if the window is over.
    @discardableResult
    private func resume(_ interrupted: Episode, at instant: Date, reason: String) throws -> Episode {
        var episode = try store.episode(id: interrupted.id!) ?? interrupted
        if episode.windowEnd > instant {
            episode.status = .scheduled
            episode.reason = reason
        } else {
            episode.status = episode.files.isEmpty ? .failed : .done
            episode.reason = "the daemon stopped during the recording" + (try missingEnd(of: episode).map { "; its last \($0) s were not recorded" } ?? "")
        }
        try store.update(episode)
        log(DaemonEvent(.episodeRecovered, episode: episode, message: episode.reason, files: episode.files))
        return episode
    }

    /// Whole seconds between the end of what an episode's parts hold and the end of its window, when its
    /// window ended while no daemon recorded it (nil when that is under a second): audio lost that no gap
    /// inside a file can tell.
    private func missingEnd(of episode: Episode) throws -> Int? {
        let files = Set(episode.files)
        guard !files.isEmpty, let recordedUntil = try index.all().filter({ files.contains($0.file) }).map(\.endUTC).max() else { return nil }
        let missing = episode.windowEnd.timeIntervalSince(recordedUntil).rounded()
        return missing >= 1 ? Int(missing) : nil
    }

    /// Attaches finished parts to the episodes their journals name, in the order they were recorded,
    /// whatever the episode's state: the part of a daemon that was cut off, finished when it starts
    /// again, joins the parts the daemon that took over recorded, and the gap before the next part is noted.
    /// A part belongs to the episode its journal names: a runtime job's part, or another episode's on the
    /// same station and time, never joins it. (Journals from before they named their episode give parts
    /// that are indexed, and attached to none.)
    private func attach(_ parts: [FinishedRecording]) throws {
        guard !parts.isEmpty else { return }
        let indexed = try index.all()
        let starts = Dictionary(indexed.map { ($0.file, $0.startUTC) }, uniquingKeysWith: { first, _ in first })
        for part in parts {
            guard let id = part.episode else { continue }
            let updated = try store.updateEpisode(id: id) { episode in
                episode.files = Self.ordered(episode.files + [part.file], starts: starts)
                // It is reached, or finished, now: the note that it was not goes; an episode with audio is done.
                episode.reason = episode.reason.map {
                    $0.components(separatedBy: "; ").filter { !$0.hasPrefix(Self.unreachablePartNotePrefix) && !$0.hasPrefix(Finaliser.failurePrefix) }
                        .joined(separator: "; ")
                }
                if episode.status == .failed { episode.status = .done }
            }
            guard let updated else { continue }
            log(DaemonEvent(.partAttached, episode: updated, files: [part.file]))
            let next = updated.files.filter { (starts[$0] ?? .distantPast) > part.start }.min { starts[$0]! < starts[$1]! }
            if let next { noteGapBefore([next], of: id, indexed: indexed) }
        }
    }

    /// Where partial files of the schedule's episodes may be: the recordings folder, and the folder of
    /// every rule whose template is absolute (a folder outside it, perhaps shared by several daemons).
    private func journalFolders(of rules: some Sequence<ScheduleRule>) -> [URL] {
        [recordings] + rules.compactMap(\.output).filter { $0.hasPrefix("/") }.compactMap {
            try? FileNameTemplate($0).fixedDirectory(base: recordings)
        }
    }

    /// Finishes the partial files whose recording is no longer running (their journal is not locked):
    /// in the recordings folder, every one; elsewhere (a rule's folder, another daemon's), only those
    /// whose journal names an episode, of `episodes` if given: files there may be other programs' own.
    private func finishLeftoverJournals(in folders: [URL], episodes: Set<Int64>?) -> [FinishedRecording] {
        let ownFolder = recordings.resolvingSymlinksInPath().path + "/"
        var seen: Set<String> = [], journals: [URL] = []
        for folder in folders where folder.standardizedFileURL.path != "/" {
            for journal in LeftoverRecordings.journals(under: folder) where seen.insert(journal.standardizedFileURL.path).inserted {
                journals.append(journal)
            }
        }
        var recovered: [FinishedRecording] = []
        for journal in journals {
            let episode = LeftoverRecordings.episode(ofJournal: journal)
            let isOwn = journal.standardizedFileURL.path.hasPrefix(ownFolder)
            if let episodes, let episode, !episodes.contains(episode), !isOwn { continue }
            guard isOwn || episode != nil else { continue }
            let result = Result { () throws(RecordingError) in try finaliser.finalise(journal: journal) }
            switch result {
            case .success(let finished):
                recovered.append(finished)
                log(DaemonEvent(.recovered, files: [finished.file]))
            case .failure(let error):
                // One in use belongs to a recording still running elsewhere.
                if !error.isInUse { log(DaemonEvent(.error, message: "cannot recover \(journal.path): \(error)")) }
            }
        }
        return recovered
    }
}
