import Foundation
import RadioModel
import StreamInput

/// A recording in its finished file: what the index keeps and `onair recordings` shows.
public struct FinishedRecording: Codable, Equatable, Sendable {
    public var station: StationLabel
    public var programme: ProgrammeLabel?
    public var start: Date
    public var end: Date
    /// The station's time zone (IANA), in which `startLocal`/`endLocal` are shown.
    public var timeZone: String
    public var file: String
    /// The cue sheet beside the file, if the recording had titles.
    public var cueSheet: String?
    public var size: Int64
    public var duration: Double
    public var codec: String
    public var container: String
    public var titles: [TimedTitle]
    public var gaps: [TimedGap]
    /// The known clips heard in it (ClipDetection's library); nil in recordings finalised before onair told them.
    public var clips: [TimedClip]?
    /// The URL recorded, credentials redacted.
    public var source: String
    public var track: TrackMark?
    /// EBU R128 integrated loudness, LUFS, measured when finalised; nil for silence (and recordings
    /// finalised before onair measured it).
    public var loudness: Double?
    /// The schedule's episode it is a part of, from its journal.
    public var episode: Int64?

    /// "2026-11-22T06:00:00+01:00" in the station's time zone.
    public var startLocal: String { Self.local(start, timeZone) }
    public var endLocal: String { Self.local(end, timeZone) }

    static func local(_ date: Date, _ zoneName: String) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// A title and where it began, in seconds of the file.
public struct TimedTitle: Codable, Equatable, Sendable {
    public var title: String
    public var start: Double
    /// Artwork, length, song or station message, where the station sent them.
    public var details: TitleDetails?

    public init(title: String, start: Double, details: TitleDetails? = nil) {
        self.title = title; self.start = start; self.details = details
    }
}

/// Audio that never arrived: where in the file the hole is, and how long it was.
public struct TimedGap: Codable, Equatable, Sendable {
    public var at: Double
    public var seconds: Double

    public init(at: Double, seconds: Double) { self.at = at; self.seconds = seconds }
}

/// A known clip (a song, jingle, ad or station ID of the clip library) heard in the file: where it began, for how long.
public struct TimedClip: Codable, Equatable, Sendable {
    public var clip: String
    /// song, jingle, ad or id.
    public var kind: String
    public var at: Double
    public var seconds: Double
    /// Only part of the clip aired (cut short, or joined late).
    public var partial: Bool

    public init(clip: String, kind: String, at: Double, seconds: Double, partial: Bool) {
        (self.clip, self.kind, self.at, self.seconds, self.partial) = (clip, kind, at, seconds, partial)
    }

    /// The chapter's title: "[ad] Summer sale".
    var label: String { "[\(kind)] \(clip)" }
}
