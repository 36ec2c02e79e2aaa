import Foundation
import Guide
import RadioModel
import Recording
import Scheduling
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
        public init() {}
    }

    /// What the daemon's HTTP side reads and changes: the schedule, the recordings index, the guide, the runtime jobs.
    public let schedule: ScheduleStore
    public let recordings: RecordingsIndex
    public let guide: GuideStore
    public let jobs: RuntimeJobs
    private let scheduler: ScheduleDaemon
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
        let store: ScheduleStore, index: RecordingsIndex, jobStore: JobStore, guide: GuideStore
        do {
            let database = try OnairDatabase(directory: paths.data)
            store = try ScheduleStore(database: database)
            index = try RecordingsIndex(database: database)
            jobStore = try JobStore(database: database)
            guide = try GuideStore(database: database)
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
            case .metadata(let change): events.publish(LiveEvent(type: "title", station: station, title: change.title))
            default: break
            }
        }
        var schedulerOptions = ScheduleDaemon.Options()
        schedulerOptions.preroll = options.preroll
        let scheduler = ScheduleDaemon(store: store, guide: guide, index: index, finaliser: finaliser, recordings: paths.recordings,
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
        (schedule, recordings, self.guide) = (store, index, guide)
        (self.stations, self.paths, self.lookup) = (stations, paths, lookup)
    }

    /// Starts a runtime job and tells the event stream.
    public func startJob(_ spec: JobSpec) throws -> JobStatus {
        let status = try jobs.start(spec)
        events.publish(LiveEvent(type: "job-start", station: status.station, job: status.id))
        return status
    }

    /// Stops a runtime job and tells the event stream.
    public func stopJob(id: Int64) throws -> JobStatus {
        let status = try jobs.stop(id: id)
        events.publish(LiveEvent(type: "job-stop", station: status.station, job: status.id))
        return status
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

    /// What `onair status` shows: the episodes being recorded, the next ones, the recent failures.
    public func status() -> DaemonStatus { scheduler.status() }

    /// Re-reads the schedule now (SIGHUP).
    public func wake() { scheduler.wake() }
}
