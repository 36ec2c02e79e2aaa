import Foundation
import Media
import RadioModel
import Recording
import Scheduling
import StreamInput

/// How the daemon records episodes: each a recorder behind an `EpisodeWindow` that cuts it at its
/// window's wall-clock boundaries, on the station's one connection (`Stations`), which it shares
/// with every other episode and job on that station.
public final class EpisodeRecordings: EpisodeRecorder, Sendable {
    /// How long past its window's end an episode may wait for the stream's clock to reach it before it
    /// is closed anyway: an HLS stream is followed three target durations behind its live edge (half
    /// a minute and more with 10 s segments), and a dead stream must not hold an episode open for ever.
    static let closingGrace: TimeInterval = 120

    private let stations: Stations
    private let finaliser: Finaliser
    private let paths: AppPaths
    private let lookup: @Sendable (String) throws -> StreamTarget
    private let log: @Sendable (DaemonEvent) -> Void
    private let episodes = Locked<[Int64: RunningEpisode]>([:])
    /// Episodes' completions: detaching, then waiting for the finaliser, off the decode threads.
    private let completions = DispatchQueue(label: "onair.episodes")

    /// `lookup` turns a rule's station (an id or a URL) into what to connect to.
    /// `log` gets a line when a recording finds the disk full, and when it writes again.
    public init(stations: Stations, finaliser: Finaliser, paths: AppPaths, lookup: @escaping @Sendable (String) throws -> StreamTarget,
                log: @escaping @Sendable (DaemonEvent) -> Void) {
        self.stations = stations
        self.finaliser = finaliser
        self.paths = paths
        self.lookup = lookup
        self.log = log
    }

    public func record(_ job: EpisodeJob, finished: @escaping @Sendable (EpisodeOutcome) -> Void) throws(ScheduleError) {
        let episode = job.episode, rule = job.rule, id = job.episode.id!
        do {
            let target = try lookup(rule.station)
            var plan = target.recordingPlan(programme: job.programme, timeZone: TimeZone(identifier: rule.timeZone),
                                            template: try rule.output.map { try FileNameTemplate($0) } ?? (rule.splitTracks ? .tracks : .standard),
                                            base: paths.recordings, format: RecordingFormat(rawValue: rule.format) ?? .copy)
            plan.episode = id
            let running = RunningEpisode(job: job, finished: finished)
            // Registered before it joins: a window may close (and look for it) as soon as it is attached.
            episodes.withLock { $0[id] = running }
            do {
                running.membership = try stations.join(target, startAt: job.late ? job.window.start : nil) { connection in
                    let clock = connection.clock
                    plan.wallClock = { clock.now }
                    let recorder = try Recorders.make(plan: plan, split: rule.splitTracks ? SplitOptions() : nil,
                                                      finaliser: finaliser) { [log] event in
                        running.note(event)
                        switch event {
                        case .noRoom(let message):
                            log(DaemonEvent(.recordingNoRoom, station: URLRedaction.redact(rule.station), message: RecordingEvent.noRoomLine(message)))
                        case .roomAgain(let leftOut):
                            log(DaemonEvent(.recordingRoomAgain, station: URLRedaction.redact(rule.station), message: RecordingEvent.roomAgainLine(leftOut: leftOut)))
                        default: break
                        }
                    }
                    let window = EpisodeWindow.make(recorder: recorder, window: job.window, clock: clock,
                                                    pcm: connection.pipeline.format) { [weak self] _ in self?.close(id) }
                    running.window = window
                    return [window]
                }
            } catch {
                episodes.withLock { _ = $0.removeValue(forKey: id) }
                throw error
            }
            running.membership?.start()
            // Closes the episode should its stream never reach the window's end (it stalled, or died).
            let deadline = max(0, episode.windowEnd.timeIntervalSinceNow) + Self.closingGrace
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + deadline) { [weak self] in self?.stop(episodeID: id) }
        } catch {
            throw ScheduleError("\(error)")
        }
    }

    public func stop(episodeID: Int64) {
        episodes.current[episodeID]?.window?.finish()
    }

    public func activeRecordings() -> [ActiveRecording] {
        episodes.current.values.compactMap { $0.activity }.sorted { $0.episode < $1.episode }
    }

    /// The window closed (on the decode thread, or a timer): leave the station — which stops if no
    /// other job uses it — and report once the files are finalised.
    private func close(_ id: Int64) {
        completions.async { [self] in
            guard let running = episodes.current[id], let membership = running.takeMembership() else { return }
            stations.leave(membership)
            finaliser.waitUntilIdle()
            episodes.withLock { _ = $0.removeValue(forKey: id) }
            running.report(streamFailure: membership.connection.streamFailure)
        }
    }
}

/// One episode under way: its window, where its files went, what failed.
private final class RunningEpisode: Sendable {
    let job: EpisodeJob
    private let finished: @Sendable (EpisodeOutcome) -> Void
    private let state = Locked(State())

    private struct State {
        var window: EpisodeWindow?
        var membership: Stations.Membership?
        var files: [String] = []
        var failure: String?
        var unfinished: [URL] = []
        /// Seconds left out while the disk was full, and whether it still is.
        var leftOut = 0.0
        var noRoom: String?
    }

    init(job: EpisodeJob, finished: @escaping @Sendable (EpisodeOutcome) -> Void) {
        self.job = job
        self.finished = finished
    }

    var window: EpisodeWindow? {
        get { state.current.window }
        set { state.withLock { $0.window = newValue } }
    }

    var membership: Stations.Membership? {
        get { state.current.membership }
        set { state.withLock { $0.membership = newValue } }
    }

    /// The membership, once: a window closes only once, but a timer may race it.
    func takeMembership() -> Stations.Membership? {
        state.withLock { state in
            defer { state.membership = nil }
            return state.membership
        }
    }

    /// The recorder's events.
    func note(_ event: RecordingEvent) {
        state.withLock { state in
            switch event {
            case .finished(let recording): state.files.append(recording.file)
            case .failed(let message, _): state.failure = state.failure ?? message
            case .notFinalised(let message, let journal):
                state.failure = state.failure ?? message
                state.unfinished.append(journal)
            case .noRoom(let message): state.noRoom = message
            case .roomAgain(let leftOut):
                state.leftOut += leftOut
                state.noRoom = nil
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

    /// Audio that first arrived this long after the window opened is told in the note: the connection, made
    /// before the window, took that long (a server slow to answer); the file is short by about as much.
    static let lateAudioTolerance: TimeInterval = 1

    /// "audio first arrived N s after the window opened", for a recording on time whose audio was not.
    private var lateAudio: String? {
        guard !job.late, let first = window?.firstSampleAt else { return nil }
        let late = first.timeIntervalSince(job.window.start)
        guard late > Self.lateAudioTolerance else { return nil }
        return String(format: "audio first arrived %.1f s after the window opened", late)
    }

    func report(streamFailure: String?) {
        let (recorded, recordingFailure, fullDisk, unfinished) = state.withLock { state in
            // A full disk is not a failure, but the audio it left out is told in the episode's note.
            var fullDisk = state.leftOut > 0 ? String(format: "%.0f s left out while the disk was full", state.leftOut) : nil
            if let noRoom = state.noRoom { fullDisk = [fullDisk, "\(noRoom) until the end"].compactMap { $0 }.joined(separator: "; ") }
            return (state.files, state.failure, fullDisk, state.unfinished)
        }
        let failure = [recordingFailure ?? (recorded.isEmpty ? streamFailure : nil), lateAudio, fullDisk].compactMap { $0 }
            .joined(separator: "; ")
        finished(EpisodeOutcome(files: recorded, firstSampleAt: window?.firstSampleAt, failure: failure.isEmpty ? nil : failure,
                                unfinished: unfinished))
    }
}
