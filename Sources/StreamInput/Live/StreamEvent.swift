import Foundation

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

    public init(head: ResponseHead) {
        url = URLRedaction.redact(head.url)
        status = head.status
        contentType = head.mediaType
        name = head.headers["icy-name"]
        genre = head.headers["icy-genre"]
        bitrate = head.headers["icy-br"].flatMap { Int($0.split(separator: ",").first ?? "") }
        metaint = head.headers["icy-metaint"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        server = head.headers["server"]
    }
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

    public init(title: String, url: String?, audioByteOffset: Int64, receivedAt: Date = Date()) {
        self.title = title; self.url = url; self.audioByteOffset = audioByteOffset; self.receivedAt = receivedAt
    }
}

/// Time during which no audio came from upstream.
public struct Gap: Sendable, Equatable, Codable {
    /// When the last byte before the gap arrived.
    public var start: Date
    public var seconds: Double
    /// Position in the decoded audio where the gap sits; set by the media pipeline.
    public var mediaTime: Double?
}

/// Everything a listener, recorder or relay may want to show or log, in order of occurrence.
public enum StreamEvent: Sendable, Equatable {
    case connected(ConnectionInfo)
    /// The decoder recognised the audio: codec name, input rate and channels, nominal bit/s.
    case decoding(codec: String, sampleRate: Int, channels: Int, bitrate: Int?)
    case metadata(TitleChange)
    case disconnected(reason: String)
    case reconnecting(attempt: Int, delay: Double)
    case gap(Gap)
    /// A problem that does not end the stream (a bad metaint, undecodable bytes).
    case warning(String)
    /// A consumer of the stream (a file, a pipe) failed and was detached; the stream goes on.
    case consumerFailed(label: String, reason: String)
    /// The stream ended for good; the message says why.
    case failed(String)
}

extension StreamEvent: Encodable {
    private enum Keys: String, CodingKey {
        case event, connection, title, url, audioByteOffset, mediaTime, at, reason, attempt, delay
        case start, seconds, message, sink, codec, sampleRate, channels, bitrate
    }

    /// One flat JSON object per event, `{"event":"metadata","title":…}`, for `--json` output.
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
        }
    }
}
