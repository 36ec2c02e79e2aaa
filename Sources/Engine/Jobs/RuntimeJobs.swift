import Foundation
import Media
import Outputs
import RadioModel
import Recording
import Scheduling
import Sinks
import StreamInput

/// The jobs a daemon runs beside its scheduled episodes, started and stopped at runtime: relays to
/// any sinks, and recordings. Each joins its station's one connection (`Stations`), shared with the
/// episodes and other jobs on it, and leaves it when stopped. Every job has a row in the database
/// (its id); a persisted one is started again when the daemon is. Sharing a database, a persisted
/// job is run by one daemon, which renews its lease: when that daemon dies another claims and runs it.
public final class RuntimeJobs: Sendable {
    private let stations: Stations
    private let store: any JobStorage
    private let finaliser: Finaliser
    private let paths: AppPaths
    private let lookup: @Sendable (String) throws -> StreamTarget
    /// `--max-streams` of a daemon sharing a database: the stations it has open (episodes' and jobs')
    /// that a job may bring the count to; nil, no bound (one daemon on its own).
    private let maxStations: Int?
    /// Sharing a database: the stations' leases the jobs hold, so that a station has one connection in the cluster.
    private let stationLeases: JobStationLeases?
    private let running = Locked<[Int64: RunningJob]>([:])
    /// Persisted jobs let go of because another daemon has their station open, until when they are left
    /// to others: the daemon holding the station claims them, and this one does not claim, fail and log
    /// them again at every renewal.
    private let leaving = Locked<[Int64: Date]>([:])
    /// Held while a job is added and started, and while unheld jobs are claimed: a job just added is
    /// running (and known to be) before this daemon looks for jobs to claim.
    private let starting = Serialized()
    private let finishLater: @Sendable (URL) -> Void

    /// `finishLater` gets the journal of a part that could not be finalised (a full disk), to try again.
    public init(stations: Stations, store: any JobStorage, finaliser: Finaliser, paths: AppPaths, maxStations: Int? = nil,
                stationLeases: JobStationLeases? = nil, finishLater: @escaping @Sendable (URL) -> Void = { _ in },
                lookup: @escaping @Sendable (String) throws -> StreamTarget) {
        self.stations = stations; self.store = store; self.finaliser = finaliser; self.paths = paths; self.lookup = lookup
        self.maxStations = maxStations; self.stationLeases = stationLeases; self.finishLater = finishLater
    }

    /// Starts a job; it runs until `stop`, whoever asked for it.
    public func start(_ asked: JobSpec) throws -> JobStatus {
        let spec = try admitted(asked)
        let target = try lookup(spec.station)
        return try starting.run { () throws -> JobStatus in
            try checkRoom(for: target)
            let id = try store.add(spec)
            do {
                return try run(spec, id: id, target: target)
            } catch {
                try? store.remove(id: id)
                // Asked of the wrong daemon: the request names the one to ask.
                if let open = error as? StationOpenElsewhere { throw EngineError(open.description, kind: .configuration) }
                throw error
            }
        }
    }

    /// Starts the persisted jobs no daemon runs (on start: those this daemon ran before); returns
    /// those that could not start, and why.
    public func restorePersisted() throws -> [(id: Int64, failure: String)] {
        return try starting.run { () throws -> [(id: Int64, failure: String)] in
            var failures: [(Int64, String)] = []
            // Full, a daemon claims no more: the jobs stay for a daemon with room.
            let room = maxStations.map { max(0, $0 - stations.count) }
            let now = Date()
            let left = leaving.withLock { leaving in
                leaving = leaving.filter { $0.value > now }
                return Set(leaving.keys)
            }
            for (id, spec) in try store.claimPersisted(running: Set(running.current.keys), leaving: left, limit: room) {
                do {
                    _ = try admitted(spec)
                    let target = try lookup(spec.station)
                    try checkRoom(for: target)
                    _ = try run(spec, id: id, target: target)
                } catch let error as StationOpenElsewhere {
                    try? store.release(id: id)
                    leaving.withLock { $0[id] = now.addingTimeInterval(Self.leavingFor) }
                    failures.append((id, "\(error); left to it"))
                } catch {
                    failures.append((id, "\(error)"))
                }
            }
            return failures
        }
    }

    public func list() -> [JobStatus] {
        running.current.values.map(\.status).sorted { $0.id < $1.id }
    }

    /// How many jobs of each kind run, and how many listeners each station's HTTP relays have: for the metrics.
    public func tally() -> (kinds: [String: Int], listeners: [String: Int]) {
        var kinds: [String: Int] = [:], listeners: [String: Int] = [:]
        for job in running.current.values {
            kinds[job.spec.kind.rawValue, default: 0] += 1
            let station = job.membership.connection.target.identifier
            listeners[station, default: 0] += job.sinks.compactMap { ($0.consumer as? ListenedSink)?.listeners }.reduce(0, +)
        }
        return (kinds, listeners)
    }

    /// Stops a job and forgets it, persisted or not; its recording is finalised before this returns.
    public func stop(id: Int64) throws -> JobStatus {
        guard let job = running.withLock({ $0.removeValue(forKey: id) }) else {
            throw EngineError("no job \(id) (see onair jobs list)", kind: .notFound)
        }
        try? store.remove(id: id)
        return finish(job)
    }

    /// The daemon is stopping: every job ends, the persisted ones stay in the database (given up,
    /// sharing one, for another daemon to run at once).
    public func stopAll() {
        let all = running.withLock { jobs -> [RunningJob] in
            defer { jobs = [:] }
            return Array(jobs.values)
        }
        for job in all {
            if job.spec.persist { try? store.release(id: job.id) } else { try? store.remove(id: job.id) }
            _ = finish(job)
        }
    }

    /// Sharing a database: renews this daemon's leases on its jobs and stops those another daemon
    /// took over (fencing: it lost the lease while cut off), then claims and starts the persisted
    /// jobs no daemon runs. Returns the jobs stopped, and those claimed that could not start, and why.
    public func shareWork() throws -> (lost: [JobStatus], failures: [(id: Int64, failure: String)]) {
        let lost = try store.renew(Set(running.current.keys))
        let stopped = running.withLock { jobs in lost.compactMap { jobs.removeValue(forKey: $0) } }.map(finish)
        return (stopped, try restorePersisted())
    }

    /// The job as it may run: one asked for over the network (`fromNetwork`) relays only to sinks declared
    /// on the box now, its names resolved (a persisted one is admitted again at each start: a sink may have
    /// been removed since), and records inside the recordings folder.
    private func admitted(_ spec: JobSpec) throws -> JobSpec {
        guard spec.fromNetwork == true else { return spec }
        return try spec.admittedFromNetwork(declared: DeclaredSinks.load(paths))
    }

    /// A job on a station not open here needs room under `maxStations`. Episodes open stations at
    /// the same time, so the bound can be passed by the one station a claim and a job opened at once.
    private func checkRoom(for target: StreamTarget) throws {
        guard let maxStations, !stations.identifiers.contains(target.identifier), stations.count >= maxStations else { return }
        throw EngineError("no room for \(URLRedaction.redact(target.identifier)): the stations this daemon may have open "
                          + "(--max-streams \(maxStations)) are all in use", kind: .configuration)
    }

    private func finish(_ job: RunningJob) -> JobStatus {
        let status = job.status
        stations.leave(job.membership)
        stationLeases?.release(job.spec.station)
        if job.spec.kind == .record { finaliser.waitUntilIdle() }
        return status
    }

    /// Sharing a database, the station's lease first: another daemon holding it has the station open.
    private func run(_ spec: JobSpec, id: Int64, target: StreamTarget) throws -> JobStatus {
        if let holder = try stationLeases?.hold(spec.station) { throw StationOpenElsewhere(station: spec.station, holder: holder) }
        do {
            return try runHeld(spec, id: id, target: target)
        } catch {
            stationLeases?.release(spec.station)
            throw error
        }
    }

    private func runHeld(_ spec: JobSpec, id: Int64, target: StreamTarget) throws -> JobStatus {
        let tally = JobTally()
        var recorder: RecordingConsumer?
        var sinks: [(spec: SinkSpec, consumer: StreamConsumer)] = []
        let membership = try stations.join(target) { connection in
            switch spec.kind {
            case .relay:
                let specs = try spec.sinks.map { text in
                    do { return try SinkSpec(parsing: text) } catch { throw EngineError("\(error)", kind: .configuration) }
                }
                var settings = SinkSettings()
                settings.streamName = target.displayName
                if let buffer = spec.buffer { settings.pacing.bufferSeconds = buffer }
                settings.onStatus = { label, status in tally.note(sink: label, status) }
                let opened = try connection.openSinks(specs, settings: settings)
                sinks = Array(zip(specs, opened))
                return [tally] + opened
            case .record:
                let plan = target.recordingPlan(programme: nil, template: try Self.template(spec), base: paths.recordings,
                                                format: RecordingFormat(rawValue: spec.format ?? "copy") ?? .copy)
                let made = try Recorders.make(plan: plan, split: spec.splitTracks ? SplitOptions() : nil, finaliser: finaliser) {
                    [finishLater] event in
                    tally.note(event)
                    if case .notFinalised(_, let journal) = event { finishLater(journal) }
                }
                recorder = made
                return [tally, made]
            case .watch:
                guard spec.sinks.isEmpty, spec.format == nil, spec.output == nil, !spec.splitTracks else {
                    throw EngineError("a watch records and relays nothing: it takes no sinks, format, output or split tracks", kind: .configuration)
                }
                return [tally]
            }
        }
        let job = RunningJob(id: id, spec: spec, membership: membership, tally: tally, sinks: sinks, recorder: recorder)
        running.withLock { $0[id] = job }
        membership.start()
        return job.status
    }

    /// How long a job let go of is left to other daemons: a lease's length, in which the holder claims it.
    private static let leavingFor: TimeInterval = 15

    private static func template(_ spec: JobSpec) throws -> FileNameTemplate {
        guard let output = spec.output else { return spec.splitTracks ? .tracks : .standard }
        do { return try FileNameTemplate(output) } catch { throw EngineError("\(error)", kind: .configuration) }
    }
}

/// One job under way.
private final class RunningJob: Sendable {
    let id: Int64
    let spec: JobSpec
    let membership: Stations.Membership
    let tally: JobTally
    let sinks: [(spec: SinkSpec, consumer: StreamConsumer)]
    let recorder: RecordingConsumer?
    let startedAt = Date()

    init(id: Int64, spec: JobSpec, membership: Stations.Membership, tally: JobTally,
         sinks: [(spec: SinkSpec, consumer: StreamConsumer)], recorder: RecordingConsumer?) {
        self.id = id; self.spec = spec; self.membership = membership; self.tally = tally; self.sinks = sinks; self.recorder = recorder
    }

    var status: JobStatus {
        let tallied = tally.current
        let recording = recorder?.status
        let sinkStates = sinks.map { sink -> JobStatus.Sink in
            guard case .httpServe = sink.spec else { return JobStatus.Sink(sink: sink.consumer.label, listeners: nil) }
            return JobStatus.Sink(sink: sink.consumer.label, listeners: (sink.consumer as? ListenedSink)?.listeners ?? 0)
        }
        let ended = membership.connection.pipeline.waitUntilFinished(timeout: 0)
        return JobStatus(id: id, kind: spec.kind, station: URLRedaction.redact(spec.station), persist: spec.persist,
                         state: ended ? "failed" : tallied.state, startedAt: startedAt, uptime: Date().timeIntervalSince(startedAt),
                         sinks: sinkStates, bytes: recording?.bytes ?? tallied.bytes, title: recording?.title ?? tallied.title,
                         gaps: tallied.gaps, gapSeconds: tallied.gapSeconds, reconnects: tallied.reconnects,
                         files: recorder == nil ? nil : tallied.files, partial: recording?.partial?.path,
                         lastError: ended ? membership.connection.streamFailure ?? tallied.lastError : tallied.lastError)
    }
}

/// What a job has seen of its station: attached first, it hears every event and counts the
/// station's bytes; a recording's events and its sinks' states join it. A job that joins a station
/// already playing hears no `connected`: its first packets say it plays, the fan-out tells it the title.
private final class JobTally: EventConsumer, PacketConsumer, TitleConsumer, Sendable {
    struct Counts: Sendable {
        var state = "connecting"
        var bytes: Int64 = 0
        var title: String?
        var gaps = 0
        var gapSeconds = 0.0
        var reconnects = 0
        var files: [String] = []
        var lastError: String?
    }

    private let counts = Locked(Counts())

    var label: String { "job" }

    var current: Counts { counts.current }

    func handle(_ event: StreamEvent) {
        counts.withLock { counts in
            switch event {
            case .connected: counts.state = "playing"
            case .gap(let gap):
                counts.gaps += 1
                counts.gapSeconds += gap.seconds
            case .reconnecting:
                counts.state = "reconnecting"
                counts.reconnects += 1
            case .disconnected(let reason): counts.lastError = reason
            case .warning(let message): counts.lastError = message
            case .consumerFailed(let label, let reason): counts.lastError = "\(label) failed: \(reason)"
            case .failed(let message):
                counts.state = "failed"
                counts.lastError = message
            case .metadata, .decoding, .programDateTime, .alert, .recovered, .clipMatched, .clipBegan: break
            }
        }
    }

    func begin(_ format: EncodedFormat) {
        counts.withLock { if $0.state == "connecting" { $0.state = "playing" } }
    }

    func titleChanged(_ change: TitleChange) {
        counts.withLock { $0.title = change.title }
    }

    func consume(_ packet: EncodedPacket) {
        counts.withLock { $0.bytes += Int64(packet.size) }
    }

    func note(sink label: String, _ status: SinkStatus) {
        guard case .disconnected(let reason) = status else { return }
        counts.withLock { $0.lastError = "\(label): \(reason)" }
    }

    func note(_ event: RecordingEvent) {
        counts.withLock { counts in
            switch event {
            case .finished(let recording): counts.files.append(recording.file)
            case .failed(let message, _), .notFinalised(let message, _), .noRoom(let message): counts.lastError = message
            case .started, .roomAgain: break
            }
        }
    }

    func finish() {}
}

/// A job's station is open on another daemon of the cluster, which is to run it.
private struct StationOpenElsewhere: Error, CustomStringConvertible {
    let station: String
    let holder: DaemonPlace

    var description: String {
        let host = holder.host.isEmpty ? "" : " on \(holder.host)"
        return "\(URLRedaction.redact(station)) is open on daemon \(holder.name)\(host): start the job there, so that the station keeps one connection"
    }
}
