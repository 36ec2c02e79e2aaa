import Foundation
import Guide
import RadioModel
import Recording
import Scheduling
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
        /// Where the schedule and the recordings index are shared with other daemons (PostgreSQL);
        /// nil keeps them in the data directory's SQLite file.
        public var sharedDatabase: PostgresLocation?
        /// This daemon's name among those sharing the database.
        public var name: String = ProcessInfo.processInfo.hostName
        /// How many stations this daemon records at most, sharing a database.
        public var maxStreams: Int = 100
        public init() {}
    }

    private let scheduler: ScheduleDaemon
    private let jobs: RuntimeJobs
    private let finaliser: Finaliser
    private let server: ControlServer
    private let guideRefresher: GuideRefresher
    private let log: @Sendable (DaemonEvent) -> Void

    /// Opens the database and starts answering the control channel; `run()` then does the work.
    /// `lookup` turns a station id or URL into what to connect to.
    public init(paths: AppPaths, options: Options = Options(), lookup: @escaping @Sendable (String) throws -> StreamTarget,
                log: @escaping @Sendable (DaemonEvent) -> Void) throws {
        let store: any ScheduleStorage, index: any RecordingsIndexing, jobStore: JobStore, guide: GuideStore
        var leases: (any EpisodeLeases)?
        do {
            let database = try OnairDatabase(directory: paths.data)
            // Guides and runtime jobs stay each daemon's own; the schedule, its leases and the index are shared.
            jobStore = try JobStore(database: database)
            guide = try GuideStore(database: database)
            if let location = options.sharedDatabase {
                let shared = try SharedDatabase(location: location)
                store = try PostgresScheduleStore(database: shared)
                index = try PostgresRecordingsIndex(database: shared)
                leases = try PostgresEpisodeLeases(database: shared, daemon: options.name, maxStreams: options.maxStreams)
            } else {
                store = try ScheduleStore(database: database)
                index = try RecordingsIndex(database: database)
            }
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
        let finaliser = Finaliser(index: index)
        let stations = Stations { station, event in
            switch event {
            case .failed(let message): log(DaemonEvent(event: "stream-failed", station: station, message: message))
            case .reconnecting(let attempt, let delay):
                log(DaemonEvent(event: "stream-reconnecting", station: station, message: "attempt \(attempt) in \(delay) s"))
            case .gap(let gap): log(DaemonEvent(event: "stream-gap", station: station, message: String(format: "%.1f s", gap.seconds)))
            default: break
            }
        }
        var schedulerOptions = ScheduleDaemon.Options()
        schedulerOptions.preroll = options.preroll
        let scheduler = ScheduleDaemon(store: store, guide: guide, index: index, leases: leases, finaliser: finaliser, recordings: paths.recordings,
                                   recorder: EpisodeRecordings(stations: stations, finaliser: finaliser, paths: paths, lookup: lookup),
                                   options: schedulerOptions, log: log)
        self.scheduler = scheduler
        guideRefresher = GuideRefresher(store: guide, every: options.guideRefresh) { url, outcome in
            switch outcome {
            case .success(.notModified): log(DaemonEvent(event: "guide-unchanged", message: URLRedaction.redact(url)))
            case .success(.imported(let summary)):
                log(DaemonEvent(event: "guide-refreshed", message: "\(URLRedaction.redact(url)): \(summary.broadcasts) broadcasts"))
                scheduler.wake()
            case .failure(let error): log(DaemonEvent(event: "guide-failed", message: "\(error)"))
            }
        }
        jobs = RuntimeJobs(stations: stations, store: jobStore, finaliser: finaliser, paths: paths, lookup: lookup)
        let control = DaemonControl(daemon: scheduler, jobs: jobs)
        do {
            server = try ControlServer(path: ControlClient(dataDirectory: paths.data).socket, handle: control.answer)
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
        self.finaliser = finaliser
        self.log = log
    }

    /// Where clients reach it.
    public var socket: String { server.path }

    /// Starts the persisted jobs, then runs the schedule until `stop()`; every job and episode is
    /// finished and its files finalised before it returns.
    public func run() throws {
        guideRefresher.start()
        defer {
            guideRefresher.stop()
            server.stop()
        }
        for (id, failure) in (try? jobs.restorePersisted()) ?? [] {
            log(DaemonEvent(event: "job-failed", message: "job \(id): \(failure)"))
        }
        do {
            try scheduler.run()
        } catch {
            jobs.stopAll()
            throw EngineError("\(error)", kind: .configuration)
        }
        jobs.stopAll()
        finaliser.waitUntilIdle()
    }

    public func stop() { scheduler.stop() }

    /// Re-reads the schedule now (SIGHUP).
    public func wake() { scheduler.wake() }
}
