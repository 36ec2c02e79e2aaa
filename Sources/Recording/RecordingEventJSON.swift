import Foundation

/// `{"event":"recording-started","partial":…}`, `recording-finished` with the recording,
/// `recording-failed`, `recording-no-room`, `recording-room-again` (with the seconds left out),
/// `recording-not-finalised`: a recording's events as `--json` lines write them.
extension RecordingEvent: Encodable {
    private enum Keys: String, CodingKey { case event, partial, recording, message, journal, leftOut }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .started(let partial):
            try c.encode("recording-started", forKey: .event)
            try c.encode(partial.path, forKey: .partial)
        case .finished(let recording):
            try c.encode("recording-finished", forKey: .event)
            try c.encode(recording, forKey: .recording)
        case .failed(let message, let partial):
            try c.encode("recording-failed", forKey: .event)
            try c.encode(message, forKey: .message)
            try c.encodeIfPresent(partial?.path, forKey: .partial)
        case .noRoom(let message):
            try c.encode("recording-no-room", forKey: .event)
            try c.encode(message, forKey: .message)
        case .roomAgain(let leftOut):
            try c.encode("recording-room-again", forKey: .event)
            try c.encode(leftOut, forKey: .leftOut)
        case .notFinalised(let message, let journal):
            try c.encode("recording-not-finalised", forKey: .event)
            try c.encode(message, forKey: .message)
            try c.encode(journal.path, forKey: .journal)
        }
    }
}

/// `{"event":"recording-progress","mediaTime":…,"bytes":…,"title":…,"gaps":…,"state":…}`
public struct RecordingProgress: Encodable, Sendable {
    public let status: RecordingStatus

    public init(_ status: RecordingStatus) { self.status = status }

    private enum Keys: String, CodingKey { case event, mediaTime, bytes, title, gaps, state, partial }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("recording-progress", forKey: .event)
        try c.encode(status.state.rawValue, forKey: .state)
        try c.encode(status.mediaTime, forKey: .mediaTime)
        try c.encode(status.bytes, forKey: .bytes)
        try c.encodeIfPresent(status.title, forKey: .title)
        try c.encode(status.gaps, forKey: .gaps)
        try c.encodeIfPresent(status.partial?.path, forKey: .partial)
    }
}
