import Foundation
import Recording

/// What the daemon needs from whoever can record streams: the CLI, which wires stations, their one
/// shared connection each, pipelines and recorders. Keeps streams and C out of the scheduling logic.
public protocol EpisodeRecorder: AnyObject, Sendable {
    /// Starts recording `job` (at once; its window cuts the audio). `finished` is called once, from
    /// any thread, when the window has closed and the files are finalised.
    func record(_ job: EpisodeJob, finished: @escaping @Sendable (EpisodeOutcome) -> Void) throws(ScheduleError)
    /// Ends an episode early (its rule was removed, the daemon is stopping); `finished` still follows.
    func stop(episodeID: Int64)
    /// The recordings under way.
    func activeRecordings() -> [ActiveRecording]
}

/// An episode to record now.
public struct EpisodeJob: Sendable {
    public var episode: Episode
    public var rule: ScheduleRule
    /// The window opened before the recording could start: an HLS stream back-fills from its
    /// playlist's window (program-date-time), anything else records the rest.
    public var late: Bool
    /// Where recording begins: the window's start, or after a restart the end of what the parts
    /// already recorded hold, so a back-fill does not record it twice.
    public var recordFrom: Date

    /// How the recording names its programme (a guide's broadcast, or the rule's catalogue programme).
    public var programme: ProgrammeLabel? { episode.programme(of: rule) }

    /// The part of the window still to record.
    public var window: DateInterval { DateInterval(start: min(recordFrom, episode.windowEnd), end: episode.windowEnd) }
}

/// How an episode's recording ended.
public struct EpisodeOutcome: Sendable {
    public var files: [String]
    public var firstSampleAt: Date?
    /// Why it failed, or what went wrong along the way.
    public var failure: String?
    /// The journals of parts that could not be finalised (a disk still full when the window ended): the
    /// daemon tries them again, and attaches what it finishes.
    public var unfinished: [URL]

    public init(files: [String], firstSampleAt: Date?, failure: String?, unfinished: [URL] = []) {
        self.files = files; self.firstSampleAt = firstSampleAt; self.failure = failure; self.unfinished = unfinished
    }
}

/// A recording under way, as `onair status` shows it.
public struct ActiveRecording: Codable, Sendable, Equatable {
    public var episode: Int64
    public var rule: Int64
    public var station: String
    public var programme: String?
    public var windowStart: Date
    public var windowEnd: Date
    public var late: Bool
    /// "waiting" (connected, before the window), "recording", "finished", "failed".
    public var state: String
    /// The stream's wall-clock time of the first sample recorded.
    public var firstSampleAt: Date?
    /// Seconds of audio recorded.
    public var elapsed: Double
    public var bytes: Int64
    public var title: String?
    public var gaps: Int
    public var partial: String?

    public init(episode: Int64, rule: Int64, station: String, programme: String?, windowStart: Date, windowEnd: Date, late: Bool,
                state: String, firstSampleAt: Date?, elapsed: Double, bytes: Int64, title: String?, gaps: Int, partial: String?) {
        self.episode = episode; self.rule = rule; self.station = station; self.programme = programme
        self.windowStart = windowStart; self.windowEnd = windowEnd; self.late = late; self.state = state
        self.firstSampleAt = firstSampleAt; self.elapsed = elapsed; self.bytes = bytes; self.title = title; self.gaps = gaps
        self.partial = partial
    }
}
