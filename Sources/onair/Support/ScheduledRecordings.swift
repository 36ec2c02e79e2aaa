import Foundation
import Media
import RadioModel
import Recording
import Scheduling
import StreamInput

/// How the daemon records episodes: each station connected once (`StationFeed`), however many of its
/// episodes overlap; each episode a recorder behind an `EpisodeWindow` that cuts it at its window's
/// wall-clock boundaries.
final class ScheduledRecordings: EpisodeRecorder, @unchecked Sendable {
    /// How long past its window's end an episode may wait for the stream's clock to reach it before it
    /// is closed anyway: an HLS stream is followed three target durations behind its live edge (half
    /// a minute and more with 10 s segments), and a dead stream must not hold an episode open for ever.
    static let closingGrace: TimeInterval = 120

    private let finaliser: Finaliser
    private let paths: AppPaths
    private let onStreamEvent: @Sendable (String, StreamEvent) -> Void
    private let lock = NSLock()
    // Guarded by `lock`.
    private var feeds: [String: StationFeed] = [:]
    private var episodes: [Int64: RunningEpisode] = [:]
    /// Episodes' completions: detaching, then waiting for the finaliser, off the decode threads.
    private let completions = DispatchQueue(label: "onair.episodes")

    init(finaliser: Finaliser, paths: AppPaths, onStreamEvent: @escaping @Sendable (String, StreamEvent) -> Void) {
        self.finaliser = finaliser
        self.paths = paths
        self.onStreamEvent = onStreamEvent
    }

    func record(_ job: EpisodeJob, finished: @escaping @Sendable (EpisodeOutcome) -> Void) throws(ScheduleError) {
        let episode = job.episode, rule = job.rule
        do {
            let target = try StreamTarget.parse(rule.station)
            let newFeed = try StationFeed(target: target, startAt: job.late ? job.window.start : nil) { [onStreamEvent, key = rule.station] in
                onStreamEvent(key, $0)
            }
            var plan = RecordingPlan(station: target.label, programme: job.programme, source: target.redactedSource,
                                     timeZone: TimeZone(identifier: rule.timeZone) ?? target.timeZone,
                                     template: try rule.output.map { try FileNameTemplate($0) } ?? (rule.splitTracks ? .tracks : .standard),
                                     base: paths.recordings, format: RecordingFormat(rawValue: rule.format) ?? .copy)
            plan.preRollSeconds = target.preRollSeconds
            // In one step: the station's running feed if it has one (the new one is then never
            // started), and the episode attached to it — a feed whose last episode is leaving is not reused.
            let feed = try lock.withLock { () throws -> StationFeed in
                let feed = feeds[rule.station] ?? newFeed
                feeds[rule.station] = feed
                let clock = feed.clock
                plan.wallClock = { clock.now }
                let running = RunningEpisode(job: job, feed: feed, finished: finished)
                let recorder = try StationRecording.makeRecorder(plan: plan, split: rule.splitTracks ? SplitOptions() : nil,
                                                                 finaliser: finaliser, onEvent: running.note)
                let window = EpisodeWindow.make(recorder: recorder, window: job.window, clock: clock, pcm: feed.pipeline.format) {
                    [weak self] _ in self?.close(episode.id!)
                }
                running.window = window
                episodes[episode.id!] = running
                running.token = feed.attach(window)
                return feed
            }
            if feed === newFeed { watch(newFeed, key: rule.station) }
            feed.startOnce()
            // Closes the episode should its stream never reach the window's end (it stalled, or died).
            let deadline = max(0, episode.windowEnd.timeIntervalSinceNow) + Self.closingGrace
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + deadline) { [weak self] in self?.stop(episodeID: episode.id!) }
        } catch let failure as CommandFailure {
            throw ScheduleError(failure.message)
        } catch {
            throw ScheduleError("\(error)")
        }
    }

    func stop(episodeID: Int64) {
        lock.withLock { episodes[episodeID] }?.window?.finish()
    }

    func activeRecordings() -> [ActiveRecording] {
        lock.withLock { Array(episodes.values) }.compactMap { $0.activity }.sorted { $0.episode < $1.episode }
    }

    /// When a feed's stream ends by itself (it failed for good), the next episode connects afresh.
    private func watch(_ feed: StationFeed, key: String) {
        Thread.detachNewThread { [weak self] in
            feed.pipeline.waitUntilFinished()
            self?.lock.withLock { if self?.feeds[key] === feed { self?.feeds[key] = nil } }
        }
    }

    /// The window closed (on the decode thread, or a timer): detach it, stop the station if nobody
    /// else records from it, and report once the files are finalised.
    private func close(_ id: Int64) {
        completions.async { [self] in
            guard let running = lock.withLock({ episodes[id] }), let token = running.token else { return }
            let last = lock.withLock { () -> Bool in
                guard running.feed.detach(token) == 0 else { return false }
                for (key, feed) in feeds where feed === running.feed { feeds[key] = nil }
                return true
            }
            if last { running.feed.stop() }
            finaliser.waitUntilIdle()
            lock.withLock { _ = episodes.removeValue(forKey: id) }
            running.report()
        }
    }
}

/// One episode under way: its window, where its files went, what failed.
private final class RunningEpisode: @unchecked Sendable {
    let job: EpisodeJob
    let feed: StationFeed
    private let finished: @Sendable (EpisodeOutcome) -> Void
    private let lock = NSLock()
    // Guarded by `lock`.
    private var storedWindow: EpisodeWindow?
    private var storedToken: StreamFanOut.Token?
    private var files: [String] = []
    private var failure: String?

    init(job: EpisodeJob, feed: StationFeed, finished: @escaping @Sendable (EpisodeOutcome) -> Void) {
        self.job = job; self.feed = feed; self.finished = finished
    }

    var window: EpisodeWindow? {
        get { lock.withLock { storedWindow } }
        set { lock.withLock { storedWindow = newValue } }
    }

    var token: StreamFanOut.Token? {
        get { lock.withLock { storedToken } }
        set { lock.withLock { storedToken = newValue } }
    }

    /// The recorder's events.
    func note(_ event: RecordingEvent) {
        lock.withLock {
            switch event {
            case .finished(let recording): files.append(recording.file)
            case .failed(let message, _): failure = failure ?? message
            case .notFinalised(let message, _): failure = failure ?? message
            case .started: break
            }
        }
    }

    var activity: ActiveRecording? {
        guard let window else { return nil }
        let status = window.status
        let episode = job.episode
        return ActiveRecording(episode: episode.id!, rule: episode.ruleID, station: episode.station, programme: job.programme?.name,
                               windowStart: episode.windowStart, windowEnd: episode.windowEnd, late: job.late,
                               state: status.state.rawValue, firstSampleAt: window.firstSampleAt, elapsed: status.mediaTime,
                               bytes: status.bytes, title: status.title, gaps: status.gaps, partial: status.partial?.path)
    }

    func report() {
        let recorded: [String] = lock.withLock { files }
        let recordingFailure: String? = lock.withLock { failure }
        let streamFailure = recorded.isEmpty ? feed.streamFailure : nil
        finished(EpisodeOutcome(files: recorded, firstSampleAt: window?.firstSampleAt, failure: recordingFailure ?? streamFailure))
    }
}
