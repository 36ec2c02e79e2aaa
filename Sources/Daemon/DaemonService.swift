import ClipDetection
import Engine
import Foundation
import Guide
import Monitoring
import RadioModel
import Recording
import Scheduling
import Scrobbling
import SharedStore
import Store
import StreamInput

/// What `onair daemon` runs: the schedule's episodes and the runtime jobs, all on one shared
/// connection per station (`Stations`), answering its control channel. The process around it (the
/// one-daemon lock, signals, the log's format) is the caller's.
public final class DaemonService: Sendable {
    public struct Options: Sendable {
        /// Seconds before a window opens that its station is connected.
        public var preroll: Double = 3
        /// How often guides imported from a URL are asked for again (a conditional request).
        public var guideRefresh: TimeInterval = 6 * 3600
        /// When a station counts as dead air or down.
        public var alerts = AlertRules.standard
        /// Where alerts are POSTed as JSON.
        public var alertWebhook: String?
        /// A shell command run for each alert, with the alert in its environment and on its stdin.
        public var alertCommand: String?
        /// Where the schedule and the recordings index are shared with other daemons (PostgreSQL);
        /// nil keeps them in the data directory's SQLite file.
        public var sharedDatabase: PostgresLocation?
        /// This daemon's name among those sharing the database.
        public var name: String = ProcessInfo.processInfo.hostName
        /// How many stations this daemon records at most, sharing a database.
        public var maxStreams: Int = 100
        /// `--min-free`: below this much free space on the recordings' file system, the oldest finished
        /// recordings are deleted (never a kept one, never one being written).
        public var minFree: ByteSize?
        /// Seconds between retention sweeps (`ScheduleDaemon.Options.retentionSweep`).
        public var retentionSweep: Double = 30
        /// `--normalize`: finished recordings get their loudness measured (`Finaliser.measuresLoudness`).
        public var measuresLoudness = false
        /// `--learn-tracks`: the songs stations name are kept as clips (`TrackLearner`), and known by name when they air again.
        public var learnsTracks = false
        /// Stations whose songs are sent to ListenBrainz as listens (`onair scrobble login`), kept connected.
        public var scrobbleStations: [String] = []
        public init() {}
    }

    /// What the daemon's HTTP side reads and changes: the schedule, the recordings index, the guide, the runtime jobs.
    public let schedule: any ScheduleStorage
    public let recordings: any RecordingsIndexing
    public let guide: GuideStore
    public let jobs: RuntimeJobs
    private let scheduler: ScheduleDaemon
    private let jobControl: JobControl
    /// The connected stations, shared by every job, episode and live listener.
    public let stations: Stations
    public let paths: AppPaths
    /// Turns a station id or URL into what to connect to.
    public let lookup: @Sendable (String) throws -> StreamTarget
    /// Titles, gaps, reconnects, episodes and jobs as they happen, for the HTTP API's event stream.
    public let events = DaemonEvents()
    private let finaliser: Finaliser
    private let server: ControlServer
    private let guideRefresher: GuideRefresher
    private let clips: DaemonClips
    private let scrobbling: DaemonScrobbling
    /// The clip library and the airings heard (shared with the other daemons when the database is), or why they cannot be opened.
    public let clipStores: Result<ClipStores, ClipError>
    private let episodes: EpisodeRecordings
    private let metrics: OnairMetrics
    private let recordingsDirectory: URL
    private let log: @Sendable (DaemonEvent) -> Void

    /// Opens the database and starts answering the control channel; `run()` then does the work.
    /// `lookup` turns a station id or URL into what to connect to.
    public init(paths: AppPaths, options: Options = Options(), lookup: @escaping @Sendable (String) throws -> StreamTarget,
                log logLine: @escaping @Sendable (DaemonEvent) -> Void) throws {
        let events = self.events
        let log: @Sendable (DaemonEvent) -> Void = { event in
            LiveEvent(event).map(events.publish)
            logLine(event)
        }
        let store: any ScheduleStorage, index: any RecordingsIndexing, jobStore: any JobStorage, guide: GuideStore
        var leases: (any EpisodeLeases)?
        let clipStores: Result<ClipStores, ClipError>
        do {
            let database = try OnairDatabase(directory: paths.data)
            // Guides stay each daemon's own; the schedule, its leases, the index and the runtime jobs are shared.
            guide = try GuideStore(database: database)
            if let location = options.sharedDatabase {
                let shared = try SharedDatabase(location: location)
                store = try PostgresScheduleStore(database: shared)
                index = try PostgresRecordingsIndex(database: shared)
                let cluster = try PostgresEpisodeLeases(database: shared, identity: DaemonIdentity(name: options.name), maxStreams: options.maxStreams,
                                                        recordings: paths.recordings)
                for namesake in cluster.namesakes {
                    log(DaemonEvent(.daemonNamesake, message: "another daemon named '\(options.name)' is running (\(namesake)); "
                                    + "this one is \(cluster.daemon): the two share the work, but --name tells them apart for people"))
                }
                leases = cluster
                jobStore = try PostgresJobStore(database: shared, daemon: cluster.daemon, predecessors: cluster.predecessors)
                clipStores = Result { () throws(ClipError) in try ClipStores(shared: shared) }
            } else {
                store = try ScheduleStore(database: database)
                index = try RecordingsIndex(database: database)
                jobStore = try JobStore(database: database)
                clipStores = Result { () throws(ClipError) in try ClipStores(dataDirectory: paths.data) }
            }
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
        let finaliser = Finaliser(index: index, measuresLoudness: options.measuresLoudness)
        let metrics = OnairMetrics(rules: options.alerts)
        let alerts = AlertSender(webhook: options.alertWebhook, command: options.alertCommand) { station, message in
            log(DaemonEvent(.alertFailed, station: station, message: message))
        }
        // A station is shown (log, alerts, metrics' labels) by its id, or its URL with the password masked.
        let stations = Stations(alerts: options.alerts, meters: { metrics.meter(for: URLRedaction.redact($0)) }) { key, event in
            let station = URLRedaction.redact(key)
            metrics.note(station: station, event)
            alerts.send(station: station, event)
            switch event {
            case .failed(let message): log(DaemonEvent(.streamFailed, station: station, message: message))
            case .reconnecting(let attempt, let delay):
                log(DaemonEvent(.streamReconnecting, station: station, message: "attempt \(attempt) in \(delay) s"))
            case .gap(let gap):
                var told = DaemonEvent(.streamGap, station: station, message: String(format: "%.1f s", gap.seconds))
                told.at = gap.programDateTime ?? gap.start
                log(told)
            case .connected: events.publish(LiveEvent(type: .connected, station: station))
            case .alert(let alert):
                log(DaemonEvent(.init(alert.kind), station: station, message: alert.alertLine))
                events.publish(LiveEvent(type: alert.kind == .deadAir ? .deadAir : .down, station: station, message: alert.alertLine))
            case .recovered(let alert):
                log(DaemonEvent(.streamRecovered, station: station, message: alert.recoveryLine))
                events.publish(LiveEvent(type: .recovered, station: station, message: alert.recoveryLine))
            case .metadata(let change): events.publish(LiveEvent(type: .title, station: station, title: change.title))
            case .clipMatched(let sighting):
                var told = DaemonEvent(.clipMatched, station: station, message: sighting.line)
                told.at = sighting.start
                log(told)
                events.publish(LiveEvent(type: .clipMatched, station: station, message: sighting.line, airing: sighting, at: sighting.start))
            default: break
            }
        }
        // Episodes' outcomes are counted as the scheduler logs them.
        let logAndCount: @Sendable (DaemonEvent) -> Void = { event in
            switch event.event {
            case .episodeDone: metrics.noteEpisode("done")
            case .episodeFailed: metrics.noteEpisode("failed")
            case .episodeMissed: metrics.noteEpisode("missed")
            default: break
            }
            log(event)
        }
        var schedulerOptions = ScheduleDaemon.Options()
        schedulerOptions.preroll = options.preroll
        (schedulerOptions.minFree, schedulerOptions.retentionSweep) = (options.minFree, options.retentionSweep)
        let episodes = EpisodeRecordings(stations: stations, finaliser: finaliser, paths: paths, lookup: lookup, log: log)
        let jobStations = leases.map(JobStationLeases.init)
        // The scheduler, made below, tries again the jobs' parts that could not be finalised, as it does the episodes'.
        let finishingLater = Locked<(@Sendable (URL) -> Void)?>(nil)
        let jobs = RuntimeJobs(stations: stations, store: jobStore, finaliser: finaliser, paths: paths,
                               maxStations: options.sharedDatabase == nil ? nil : options.maxStreams, stationLeases: jobStations,
                               finishLater: { journal in finishingLater.current?(journal) }, lookup: lookup)
        // Sharing a database, the jobs' leases are renewed with the episodes' (a database out of reach is then one log line).
        let shareJobs: @Sendable () throws -> Void = {
            let (lost, failures) = try jobs.shareWork()
            for job in lost {
                log(DaemonEvent(.jobLost, station: job.station, message: "job \(job.id): another daemon runs it now; stopped here"))
            }
            for (id, failure) in failures { log(DaemonEvent(.jobFailed, message: "job \(id): \(failure)")) }
        }
        let scheduler = ScheduleDaemon(store: store, guide: guide, index: index, leases: leases, jobStations: jobStations,
                                       alsoOnRenewal: shareJobs, finaliser: finaliser,
                                       recordings: paths.recordings, recorder: episodes, options: schedulerOptions, log: logAndCount)
        self.scheduler = scheduler
        finishingLater.withLock { $0 = { [weak scheduler] journal in scheduler?.finishLater(journal) } }
        guideRefresher = GuideRefresher(store: guide, every: options.guideRefresh) { url, outcome in
            switch outcome {
            case .success(.notModified): log(DaemonEvent(.guideUnchanged, message: URLRedaction.redact(url)))
            case .success(.imported(let summary)):
                log(DaemonEvent(.guideRefreshed, message: "\(URLRedaction.redact(url)): \(summary.broadcasts) broadcasts"))
                scheduler.wake()
            case .failure(let error): log(DaemonEvent(.guideFailed, message: "\(error)"))
            }
        }
        clips = DaemonClips(stores: clipStores, stations: stations, learnsTracks: options.learnsTracks, log: log)
        scrobbling = try DaemonScrobbling(stations: options.scrobbleStations, on: stations, dataDirectory: paths.data, lookup: lookup, log: log)
        self.clipStores = clipStores
        self.jobs = jobs
        jobControl = JobControl(jobs: jobs, events: events)
        let control = DaemonControl(daemon: scheduler, jobs: jobControl)
        do {
            server = try ControlServer(path: ControlClient(dataDirectory: paths.data).socket, handle: control.answer)
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
        self.finaliser = finaliser
        self.episodes = episodes
        self.metrics = metrics
        recordingsDirectory = paths.recordings
        self.log = logAndCount
        (schedule, recordings, self.guide) = (store, index, guide)
        (self.stations, self.paths, self.lookup) = (stations, paths, lookup)
    }

    /// The daemon's metrics in Prometheus' text format: what `GET /metrics` serves, as
    /// `Content-Type: text/plain; version=0.0.4`. Safe from any thread; each call reads the stations' meters.
    public func metricsText() -> String {
        var figures = OnairMetrics.DaemonFigures()
        let jobs = jobs.tally()
        figures.jobs = jobs.kinds
        figures.jobs["episode"] = episodes.activeRecordings().count
        figures.listeners = Dictionary(jobs.listeners.map { (URLRedaction.redact($0.key), $0.value) }, uniquingKeysWith: +)
        figures.openStations = Set(stations.identifiers.map(URLRedaction.redact))
        figures.leases = scheduler.leasesHeld
        figures.recordings = recordingsDirectory
        return metrics.exposition(figures)
    }

    /// Starts a runtime job and tells the event stream.
    public func startJob(_ spec: JobSpec) throws -> JobStatus { try jobControl.start(spec) }

    /// Stops a runtime job and tells the event stream.
    public func stopJob(id: Int64) throws -> JobStatus { try jobControl.stop(id: id) }

    /// Where clients reach it.
    public var socket: String { server.path }

    /// Starts the persisted jobs, then runs the schedule until `stop()`; every job and episode is
    /// finished and its files finalised before it returns.
    public func run() throws {
        guideRefresher.start()
        // Before the jobs: a station they connect is watched for the clips from its first second.
        clips.start()
        defer {
            clips.stop()
            guideRefresher.stop()
            server.stop()
        }
        for (id, failure) in (try? jobs.restorePersisted()) ?? [] {
            log(DaemonEvent(.jobFailed, message: "job \(id): \(failure)"))
        }
        scrobbling.start()
        defer {
            scrobbling.stop()
            jobs.stopAll()
            finaliser.waitUntilIdle()
        }
        do {
            try scheduler.run()
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
    }

    public func stop() { scheduler.stop() }

    /// What `onair status` shows: the episodes being recorded, the next ones, the recent failures.
    public func status() -> DaemonStatus { scheduler.status() }

    /// A listen a client heard (a Subsonic app's scrobble), for ListenBrainz when an account is set. Blocking.
    public func heard(_ listen: Listen) { scrobbling.heard(listen) }

    /// What a client plays now, for ListenBrainz when an account is set. Blocking.
    public func playingNow(_ listen: Listen) { scrobbling.playingNow(listen) }

    /// Reads the clip library again now (it changed through the API).
    public func clipsChanged() { clips.refresh() }

    /// Re-reads the schedule now (SIGHUP).
    public func wake() { scheduler.wake() }
}
