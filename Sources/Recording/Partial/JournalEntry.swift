import Foundation
import RadioModel
import StreamInput

/// One line of a recording's journal: the sidecar from which a partial file is finalised, at the end
/// of a recording or by `onair recover` after a crash. Times in the audio (`mediaTime`) are seconds of
/// the partial file, counted from the packets written to it.
public enum JournalEntry: Equatable, Sendable {
    case start(RecordingStart)
    /// The server that answered: its name (icy-name) and URL, credentials redacted.
    case connected(name: String?, url: String, at: Date)
    /// A title and what the station sent with it (artwork, length, song or station message).
    case title(String, mediaTime: Double, at: Date, details: TitleDetails? = nil)
    case gap(seconds: Double, mediaTime: Double, at: Date)
    /// A known clip heard: where it began in the partial file (`TimedClip.at`) and for how long.
    case clip(TimedClip, at: Date)
    /// Everything up to `bytes` (and `mediaTime`) is on disk.
    case flush(bytes: Int64, mediaTime: Double, at: Date)
    case failed(String, at: Date)
    /// A track's completeness as known at its end (the last track of a recording is cut off by it).
    case track(TrackMark)
    /// The recording ended normally.
    case end(bytes: Int64, mediaTime: Double, at: Date)
    /// The finished file is in place (and indexed): what is left is only clearing up.
    case finalised(FinishedRecording)
}

/// What a recording is, written once at its start.
public struct RecordingStart: Codable, Equatable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var station: StationLabel
    public var programme: ProgrammeLabel?
    /// The URL asked for, credentials redacted.
    public var source: String
    /// Wall-clock time of the first packet.
    public var startedAt: Date
    /// The station's time zone (IANA), for names and station-local times.
    public var timeZone: String
    public var template: String
    /// What a relative template is relative to.
    public var base: String
    /// The partial file's name, in the journal's directory.
    public var partialFile: String
    /// The finished file's container and extension.
    public var container: String
    public var fileExtension: String
    /// "copy" or the encoding.
    public var format: String
    /// A track cut from a stream by `--split-tracks`.
    public var track: TrackMark?
    /// The schedule's episode it is a part of (none for `onair record`, and in journals written before).
    public var episode: Int64?
}

/// A station as a recording names it.
public struct StationLabel: Codable, Equatable, Sendable {
    /// Catalogue id, or the host of a URL.
    public var id: String
    public var name: String

    public init(id: String, name: String) { self.id = id; self.name = name }

    /// The name to show: a URL names no station (its name is its host), so the server's own name
    /// (icy-name), if it gave one, is better.
    public func displayName(serverName: String?) -> String {
        guard name == id, let serverName, !serverName.isEmpty else { return name }
        return serverName
    }
}

public struct ProgrammeLabel: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    /// This broadcast's own title, description and episode number ("S2E5"), where a programme guide gave them.
    public var episodeTitle: String?
    public var description: String?
    public var episodeNumber: String?

    public init(id: String, name: String, episodeTitle: String? = nil, description: String? = nil, episodeNumber: String? = nil) {
        self.id = id; self.name = name
        self.episodeTitle = episodeTitle; self.description = description; self.episodeNumber = episodeNumber
    }
}

/// One file per title: whether this one is whole, or cut off by the start or end of the recording.
public struct TrackMark: Codable, Equatable, Sendable {
    public enum Completeness: String, Codable, Sendable {
        case whole
        /// The recording started during this title.
        case cutAtStart = "cut-at-start"
        /// The recording ended during this title.
        case cutAtEnd = "cut-at-end"
        /// Both: the recording lies within one title.
        case cutAtBothEnds = "cut-at-both-ends"
    }

    public var completeness: Completeness

    public init(_ completeness: Completeness) { self.completeness = completeness }
}

extension JournalEntry: Codable {
    private enum Kind: String, Codable {
        case start, connected, title, gap, clip, flush, failed, track, end, finalised
    }

    private enum Keys: String, CodingKey {
        case type, recording, name, url, at, title, mediaTime, seconds, bytes, message, track, finished, details, clip
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(Kind.self, forKey: .type) {
        case .start: self = .start(try c.decode(RecordingStart.self, forKey: .recording))
        case .connected:
            self = .connected(name: try c.decodeIfPresent(String.self, forKey: .name), url: try c.decode(String.self, forKey: .url),
                              at: try c.decode(Date.self, forKey: .at))
        case .title:
            self = .title(try c.decode(String.self, forKey: .title), mediaTime: try c.decode(Double.self, forKey: .mediaTime),
                          at: try c.decode(Date.self, forKey: .at), details: try c.decodeIfPresent(TitleDetails.self, forKey: .details))
        case .gap:
            self = .gap(seconds: try c.decode(Double.self, forKey: .seconds), mediaTime: try c.decode(Double.self, forKey: .mediaTime),
                        at: try c.decode(Date.self, forKey: .at))
        case .clip: self = .clip(try c.decode(TimedClip.self, forKey: .clip), at: try c.decode(Date.self, forKey: .at))
        case .flush:
            self = .flush(bytes: try c.decode(Int64.self, forKey: .bytes), mediaTime: try c.decode(Double.self, forKey: .mediaTime),
                          at: try c.decode(Date.self, forKey: .at))
        case .failed: self = .failed(try c.decode(String.self, forKey: .message), at: try c.decode(Date.self, forKey: .at))
        case .track: self = .track(try c.decode(TrackMark.self, forKey: .track))
        case .end:
            self = .end(bytes: try c.decode(Int64.self, forKey: .bytes), mediaTime: try c.decode(Double.self, forKey: .mediaTime),
                        at: try c.decode(Date.self, forKey: .at))
        case .finalised: self = .finalised(try c.decode(FinishedRecording.self, forKey: .finished))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .start(let start):
            try c.encode(Kind.start, forKey: .type)
            try c.encode(start, forKey: .recording)
        case .connected(let name, let url, let at):
            try c.encode(Kind.connected, forKey: .type)
            try c.encodeIfPresent(name, forKey: .name)
            try c.encode(url, forKey: .url)
            try c.encode(at, forKey: .at)
        case .title(let title, let mediaTime, let at, let details):
            try c.encode(Kind.title, forKey: .type)
            try c.encode(title, forKey: .title)
            try c.encode(mediaTime, forKey: .mediaTime)
            try c.encode(at, forKey: .at)
            try c.encodeIfPresent(details, forKey: .details)
        case .gap(let seconds, let mediaTime, let at):
            try c.encode(Kind.gap, forKey: .type)
            try c.encode(seconds, forKey: .seconds)
            try c.encode(mediaTime, forKey: .mediaTime)
            try c.encode(at, forKey: .at)
        case .clip(let clip, let at):
            try c.encode(Kind.clip, forKey: .type)
            try c.encode(clip, forKey: .clip)
            try c.encode(at, forKey: .at)
        case .flush(let bytes, let mediaTime, let at):
            try c.encode(Kind.flush, forKey: .type)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(mediaTime, forKey: .mediaTime)
            try c.encode(at, forKey: .at)
        case .failed(let message, let at):
            try c.encode(Kind.failed, forKey: .type)
            try c.encode(message, forKey: .message)
            try c.encode(at, forKey: .at)
        case .track(let mark):
            try c.encode(Kind.track, forKey: .type)
            try c.encode(mark, forKey: .track)
        case .end(let bytes, let mediaTime, let at):
            try c.encode(Kind.end, forKey: .type)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(mediaTime, forKey: .mediaTime)
            try c.encode(at, forKey: .at)
        case .finalised(let finished):
            try c.encode(Kind.finalised, forKey: .type)
            try c.encode(finished, forKey: .finished)
        }
    }
}
