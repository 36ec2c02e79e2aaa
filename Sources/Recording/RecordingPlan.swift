import Foundation
import Media

/// How a recording stores its audio: as it came (`copy`), or re-encoded.
public enum RecordingFormat: String, Sendable, CaseIterable {
    case copy, mp3, m4a, opus, flac

    /// The encoder for a re-encoding format; nil for `copy`.
    public var encoding: AudioEncoding? {
        switch self {
        case .copy: return nil
        case .mp3: return .mp3(kbps: 192)
        case .m4a: return .aac(kbps: 128)
        case .opus: return .opus(kbps: 96)
        case .flac: return .flac
        }
    }
}

/// Everything a recording needs to know before its first packet.
public struct RecordingPlan: Sendable {
    public var station: StationLabel
    public var programme: ProgrammeLabel?
    /// The URL asked for, credentials redacted.
    public var source: String
    /// The station's time zone: names and station-local times use it.
    public var timeZone: TimeZone
    public var template: FileNameTemplate
    /// What a relative template is relative to.
    public var base: URL
    public var format: RecordingFormat
    /// The stream's wall-clock time at the audio being written (HLS program-date-time); nil uses
    /// this machine's clock. A file's start time is taken from it.
    public var wallClock: (@Sendable () -> Date)?
    /// Seconds of pre-roll the station sends at the start of every connection (the catalogue's
    /// `preRoll`): marked `[pre-roll]` in the chapters and the index from each connection on.
    public var preRollSeconds: Double?
    /// The schedule's episode this recording is a part of: written into its journal, so that whoever
    /// finishes the file after a crash (this daemon, or one taking the episode over) attaches it to that episode.
    public var episode: Int64?

    public init(station: StationLabel, programme: ProgrammeLabel?, source: String, timeZone: TimeZone,
                template: FileNameTemplate, base: URL, format: RecordingFormat) {
        self.station = station; self.programme = programme; self.source = source; self.timeZone = timeZone
        self.template = template; self.base = base; self.format = format
    }

    /// The wall-clock time of the audio at hand.
    var now: Date { wallClock?() ?? Date() }
}

/// The containers of one recording: the partial file's, which plays while it grows, and the finished one's.
struct RecordingContainers: Equatable {
    let partial: AudioContainer
    let final: AudioContainer
    /// The finished file's extension: Opus in Ogg is ".opus", as players expect.
    let fileExtension: String

    /// ADTS is the only stream format that is not also a good file format: AAC is finished as MP4.
    init(partial: AudioContainer, codecName: String) {
        self.partial = partial
        final = partial == .adts ? .mp4 : partial
        fileExtension = final == .ogg && codecName == "opus" ? "opus" : final.fileExtension
    }

    /// For a stream copy of this codec.
    init(copying format: EncodedFormat) {
        self.init(partial: format.naturalContainer(forFile: false), codecName: format.codecName)
    }

    /// For a re-encoding.
    init(encoding: AudioEncoding) {
        let codecName: String
        if case .opus = encoding { codecName = "opus" } else { codecName = "\(encoding)" }
        self.init(partial: encoding.streamContainer, codecName: codecName)
    }
}
