import Foundation

// The vocabulary of a live stream's events, shared by the network layer (StreamInput), which sets byte
// offsets and arrival times, and the media layer (Media), which places them in the decoded audio
// (`mediaTime`). It lives here so that neither owns the other's half.

/// What the upstream connection looked like when it was established.
public struct ConnectionInfo: Sendable, Equatable, Codable {
    /// The URL that answered (after redirects), credentials redacted.
    public var url: String
    public var status: Int
    /// Media type without parameters, e.g. "audio/mpeg".
    public var contentType: String?
    /// icy-name / icy-genre / icy-br / icy-metaint as the server sent them.
    public var name: String?
    public var genre: String?
    public var bitrate: Int?
    public var metaint: Int?
    public var server: String?

    public init(url: String, status: Int, contentType: String? = nil, name: String? = nil, genre: String? = nil,
                bitrate: Int? = nil, metaint: Int? = nil, server: String? = nil) {
        self.url = url; self.status = status; self.contentType = contentType; self.name = name; self.genre = genre
        self.bitrate = bitrate; self.metaint = metaint; self.server = server
    }
}

/// What a station's title says beyond its text: some stations pack fields into StreamTitle.
public struct TitleDetails: Sendable, Equatable, Codable {
    /// Cover art the station names for the song.
    public var artworkURL: String?
    /// The song's length in seconds, as the station announces it.
    public var length: Double?
    /// Whether it is a song or a station message (jingle, station name, ad), where the station says so.
    public var kind: Kind?

    public enum Kind: String, Sendable, Codable {
        case song
        case stationMessage = "station-message"
        /// What a station's server sends at the start of every connection (the catalogue's `preRoll`).
        case preRoll = "pre-roll"
    }

    public init(artworkURL: String? = nil, length: Double? = nil, kind: Kind? = nil) {
        self.artworkURL = artworkURL; self.length = length; self.kind = kind
    }

    public var isEmpty: Bool { artworkURL == nil && length == nil && kind == nil }
}

/// A title that went on air.
public struct TitleChange: Sendable, Equatable, Codable {
    public var title: String
    public var url: String?
    /// Audio bytes of this connection before the title took effect (metadata bytes excluded).
    public var audioByteOffset: Int64
    /// Seconds of decoded audio before the title took effect; set by the media pipeline.
    public var mediaTime: Double?
    public var receivedAt: Date
    /// The stream's own wall-clock time where the title took effect (HLS program-date-time), if it has one.
    public var programDateTime: Date?
    /// Artwork, length, song or station message, where the station sent them with the title.
    public var details: TitleDetails?

    public init(title: String, url: String?, audioByteOffset: Int64, receivedAt: Date = Date(), programDateTime: Date? = nil,
                details: TitleDetails? = nil) {
        self.title = title; self.url = url; self.audioByteOffset = audioByteOffset; self.receivedAt = receivedAt
        self.programDateTime = programDateTime; self.details = details
    }
}

/// An HLS segment's EXT-X-PROGRAM-DATE-TIME placed in the audio: the stream's own wall clock,
/// which is how a recording is cut at exact programme boundaries.
public struct ProgramDateTime: Sendable, Equatable, Codable {
    /// The wall-clock time of the segment's first sample.
    public var date: Date
    /// Bytes of the run before the segment.
    public var byteOffset: Int64
    /// The segment's media sequence number.
    public var sequence: Int
    /// Seconds of decoded audio before the segment; set by the media pipeline.
    public var mediaTime: Double?

    public init(date: Date, byteOffset: Int64, sequence: Int, mediaTime: Double? = nil) {
        self.date = date; self.byteOffset = byteOffset; self.sequence = sequence; self.mediaTime = mediaTime
    }
}

/// Time during which no audio came from upstream.
public struct Gap: Sendable, Equatable, Codable {
    /// When the last byte before the gap arrived.
    public var start: Date
    public var seconds: Double
    /// Position in the decoded audio where the gap sits; set by the media pipeline.
    public var mediaTime: Double?
    /// HLS: the media sequence numbers of the segments that are missing.
    public var missingSequences: ClosedRange<Int>?
    /// HLS: the stream's wall-clock time (program-date-time) where the missing audio begins, if known.
    public var programDateTime: Date?

    public init(start: Date, seconds: Double, mediaTime: Double? = nil, missingSequences: ClosedRange<Int>? = nil,
                programDateTime: Date? = nil) {
        self.start = start; self.seconds = seconds; self.mediaTime = mediaTime
        self.missingSequences = missingSequences; self.programDateTime = programDateTime
    }
}

/// A station that went quiet or silent: its decoded audio stayed below a level (dead air), or no
/// audio came at all (down), for at least the alert's threshold.
public struct SignalAlert: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case deadAir = "dead-air"
        case down
    }

    public var kind: Kind
    /// When the quiet or the absence began.
    public var since: Date
    /// How long it has lasted: at the alert, the threshold it passed; at the recovery, its whole length.
    public var seconds: Double
    /// Dead air: the level in dBFS the audio stayed below.
    public var level: Double?

    public init(kind: Kind, since: Date, seconds: Double, level: Double? = nil) {
        self.kind = kind; self.since = since; self.seconds = seconds; self.level = level
    }

    /// The alert as a plain line: "dead air: below -50 dBFS for 30 s".
    public var alertLine: String {
        switch kind {
        case .deadAir: return String(format: "dead air: below %.0f dBFS for %.0f s", level ?? 0, seconds)
        case .down: return String(format: "down: no audio for %.0f s", seconds)
        }
    }

    /// The recovery as a plain line: "recovered from dead air after 47.2 s".
    public var recoveryLine: String {
        String(format: "recovered from %@ after %.1f s", kind == .deadAir ? "dead air" : "being down", seconds)
    }
}

/// A known clip (ClipDetection's library) heard on a station: which, when it aired, and how much of it.
public struct ClipSighting: Sendable, Equatable, Codable {
    public var clip: String
    /// song, jingle, ad or id.
    public var kind: String
    public var station: String
    /// When the aired part began and ended, on the stream's wall clock (HLS's program-date-time, else its arrival).
    public var start: Date
    public var end: Date
    /// Where the aired part began in the station's decoded audio, in seconds.
    public var mediaTime: Double
    /// Seconds into the clip where the aired part began: 0 unless it was joined late.
    public var offset: Double
    /// 1 for the same audio; unrelated audio scores about 0.5.
    public var score: Double
    /// Only part of the clip aired (cut short, or joined late).
    public var partial: Bool
    /// Seconds of the station's audio from the aired part's start to where the audio stood when it was told: what a
    /// recording of the station places it by. Not written out.
    public var toldAfter: Double = 0

    private enum CodingKeys: String, CodingKey {
        case clip, kind, station, start, end, mediaTime, offset, score, partial
    }

    /// Times with milliseconds, whatever the encoder's date strategy; seconds to the millisecond.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(clip, forKey: .clip)
        try c.encode(kind, forKey: .kind)
        try c.encode(station, forKey: .station)
        try c.encode(Timestamp.format(start), forKey: .start)
        try c.encode(Timestamp.format(end), forKey: .end)
        try c.encode((mediaTime * 1000).rounded() / 1000, forKey: .mediaTime)
        try c.encode((offset * 1000).rounded() / 1000, forKey: .offset)
        try c.encode((score * 1000).rounded() / 1000, forKey: .score)
        try c.encode(partial, forKey: .partial)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date {
            guard let date = Timestamp.parse(try c.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not an ISO-8601 time")
            }
            return date
        }
        self.init(clip: try c.decode(String.self, forKey: .clip), kind: try c.decode(String.self, forKey: .kind),
                  station: try c.decode(String.self, forKey: .station), start: try date(.start), end: try date(.end),
                  mediaTime: try c.decode(Double.self, forKey: .mediaTime), offset: try c.decode(Double.self, forKey: .offset),
                  score: try c.decode(Double.self, forKey: .score), partial: try c.decode(Bool.self, forKey: .partial))
    }

    public init(clip: String, kind: String, station: String, start: Date, end: Date, mediaTime: Double, offset: Double, score: Double,
                partial: Bool, toldAfter: Double = 0) {
        (self.clip, self.kind, self.station, self.start, self.end) = (clip, kind, station, start, end)
        (self.mediaTime, self.offset, self.score, self.partial, self.toldAfter) = (mediaTime, offset, score, partial, toldAfter)
    }

    /// As a plain line: `clip "Summer sale" (ad) aired at 2026-11-29T12:00:05.120Z for 15.0 s`.
    public var line: String {
        let part = partial ? String(format: " (part of it%@)", offset > 0 ? String(format: ", from %.1f s in", offset) : "") : ""
        return String(format: "clip \"%@\" (%@) aired at %@ for %.1f s%@", clip, kind, Timestamp.format(start), end.timeIntervalSince(start), part)
    }
}

/// A known clip heard beginning, a few seconds into it, while it is still on: what a recording split into tracks
/// cuts at when the station names no tracks itself. The airing is told whole (`ClipSighting`) once it has ended.
public struct ClipOnset: Sendable, Equatable {
    public var clip: String
    /// song, jingle, ad or id.
    public var kind: String
    public var station: String
    /// When the aired part began, on the stream's wall clock.
    public var start: Date
    /// Where the aired part began in the station's decoded audio, in seconds.
    public var mediaTime: Double
    /// Seconds from the aired part's start to the clip's end, if it airs to its end.
    public var seconds: Double
    /// Seconds of the station's audio from the aired part's start to where the audio stood when it was heard.
    public var toldAfter: Double

    public init(clip: String, kind: String, station: String, start: Date, mediaTime: Double, seconds: Double, toldAfter: Double) {
        (self.clip, self.kind, self.station, self.start, self.mediaTime) = (clip, kind, station, start, mediaTime)
        (self.seconds, self.toldAfter) = (seconds, toldAfter)
    }

    /// The name a track split at it gets: a song by its name ("Artist - Title"), anything else marked as chapters
    /// mark it ("[ad] Summer sale"), so `--skip '^\[ad\]'` leaves ads out.
    public var trackTitle: String { kind == "song" ? clip : "[\(kind)] \(clip)" }
}

/// Everything a listener, recorder or relay may want to show or log, in order of occurrence.
public enum StreamEvent: Sendable, Equatable {
    case connected(ConnectionInfo)
    /// The decoder recognised the audio: codec name, input rate and channels, nominal bit/s.
    case decoding(codec: String, sampleRate: Int, channels: Int, bitrate: Int?)
    case metadata(TitleChange)
    /// Where the stream's wall clock stands in the decoded audio: at the start, and again whenever
    /// it no longer follows from the previous mark (a gap, a discontinuity, a drifting server).
    case programDateTime(ProgramDateTime)
    case disconnected(reason: String)
    case reconnecting(attempt: Int, delay: Double)
    case gap(Gap)
    /// A problem that does not end the stream (a bad metaint, undecodable bytes).
    case warning(String)
    /// A consumer of the stream (a file, a pipe) failed and was detached; the stream goes on.
    case consumerFailed(label: String, reason: String)
    /// The stream ended for good; the message says why.
    case failed(String)
    /// The station has been quiet (`dead-air`) or without audio (`down`) for the alert's threshold.
    case alert(SignalAlert)
    /// Sound came back after an alert; `seconds` is how long the station was quiet or down.
    case recovered(SignalAlert)
    /// A known clip aired (reported once it ended, or stopped airing).
    case clipMatched(ClipSighting)
    /// A known clip began a few seconds ago and is still on.
    case clipBegan(ClipOnset)
}

extension StreamEvent: Encodable {
    private enum Keys: String, CodingKey {
        case event, connection, title, url, audioByteOffset, mediaTime, at, reason, attempt, delay
        case start, seconds, message, sink, codec, sampleRate, channels, bitrate
        case programDateTime, sequence, firstSequence, lastSequence
        case artworkURL, length, titleKind
        case since, level, alert, clip, kind, station
    }

    /// One flat JSON object per event, `{"event":"metadata","title":…}`, for `--json` output.
    /// Program-date-times are written with milliseconds, whatever the encoder's date strategy: they are for cutting audio.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .connected(let info):
            try c.encode("connected", forKey: .event)
            try c.encode(info, forKey: .connection)
        case .decoding(let codec, let sampleRate, let channels, let bitrate):
            try c.encode("decoding", forKey: .event)
            try c.encode(codec, forKey: .codec)
            try c.encode(sampleRate, forKey: .sampleRate)
            try c.encode(channels, forKey: .channels)
            try c.encodeIfPresent(bitrate, forKey: .bitrate)
        case .metadata(let change):
            try c.encode("metadata", forKey: .event)
            try c.encode(change.title, forKey: .title)
            try c.encodeIfPresent(change.url, forKey: .url)
            try c.encode(change.audioByteOffset, forKey: .audioByteOffset)
            try c.encodeIfPresent(change.mediaTime, forKey: .mediaTime)
            try c.encode(change.receivedAt, forKey: .at)
            try c.encodeIfPresent(change.programDateTime.map(Timestamp.format), forKey: .programDateTime)
            try c.encodeIfPresent(change.details?.artworkURL, forKey: .artworkURL)
            try c.encodeIfPresent(change.details?.length, forKey: .length)
            try c.encodeIfPresent(change.details?.kind, forKey: .titleKind)
        case .programDateTime(let mark):
            try c.encode("program-date-time", forKey: .event)
            try c.encode(Timestamp.format(mark.date), forKey: .programDateTime)
            try c.encode(mark.sequence, forKey: .sequence)
            try c.encodeIfPresent(mark.mediaTime, forKey: .mediaTime)
        case .disconnected(let reason):
            try c.encode("disconnected", forKey: .event)
            try c.encode(reason, forKey: .reason)
        case .reconnecting(let attempt, let delay):
            try c.encode("reconnecting", forKey: .event)
            try c.encode(attempt, forKey: .attempt)
            try c.encode(delay, forKey: .delay)
        case .gap(let gap):
            try c.encode("gap", forKey: .event)
            try c.encode(gap.start, forKey: .start)
            try c.encode(gap.seconds, forKey: .seconds)
            try c.encodeIfPresent(gap.mediaTime, forKey: .mediaTime)
            try c.encodeIfPresent(gap.missingSequences?.lowerBound, forKey: .firstSequence)
            try c.encodeIfPresent(gap.missingSequences?.upperBound, forKey: .lastSequence)
            try c.encodeIfPresent(gap.programDateTime.map(Timestamp.format), forKey: .programDateTime)
        case .warning(let message):
            try c.encode("warning", forKey: .event)
            try c.encode(message, forKey: .message)
        case .consumerFailed(let label, let reason):
            try c.encode("sink-error", forKey: .event)
            try c.encode(label, forKey: .sink)
            try c.encode(reason, forKey: .message)
        case .failed(let message):
            try c.encode("error", forKey: .event)
            try c.encode(message, forKey: .message)
        case .alert(let alert):
            try c.encode(alert.kind.rawValue, forKey: .event)
            try c.encode(alert.since, forKey: .since)
            try c.encode(alert.seconds, forKey: .seconds)
            try c.encodeIfPresent(alert.level, forKey: .level)
        case .recovered(let alert):
            try c.encode("recovered", forKey: .event)
            try c.encode(alert.kind.rawValue, forKey: .alert)
            try c.encode(alert.since, forKey: .since)
            try c.encode(alert.seconds, forKey: .seconds)
        case .clipMatched(let sighting):
            try c.encode("clip-matched", forKey: .event)
            try sighting.encode(to: encoder)
        case .clipBegan(let onset):
            try c.encode("clip-began", forKey: .event)
            try c.encode(onset.clip, forKey: .clip)
            try c.encode(onset.kind, forKey: .kind)
            try c.encode(onset.station, forKey: .station)
            try c.encode(Timestamp.format(onset.start), forKey: .start)
            try c.encode((onset.mediaTime * 1000).rounded() / 1000, forKey: .mediaTime)
        }
    }
}
