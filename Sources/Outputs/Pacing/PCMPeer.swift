import Foundation

/// Where a `PacedPCMSink` delivers: a FIFO reader, a TCP receiver, an audio device. Every call comes
/// from the sink's writer thread, so a peer's handles never leave that thread.
protocol PCMPeer: AnyObject {
    /// True when writes block until the peer wants more (an audio device plays at its own clock);
    /// false when the peer takes whatever it is given (a pipe, a socket) and the sink must pace it.
    var pacesItself: Bool { get }

    /// Tries to reach the peer. Throws `PeerUnavailable` while it is not there (no reader yet,
    /// connection refused, no sound server); the sink tries again after `retryDelay`.
    /// Returns a description of what was reached, for messages.
    func open() throws -> String

    /// Writes a prefix of `bytes` and returns its length: 0 when the peer cannot take more right now.
    /// A peer that paces itself blocks until it has taken everything. Throws `PeerUnavailable` when
    /// the peer has gone (the reader closed the FIFO, the receiver hung up, the server died).
    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int

    /// Gives up the current connection (the peer failed, or the sink ends); `open` may follow.
    func close()

    /// Seconds to wait before the next `open` after `failures` failed attempts in a row (1, 2, …).
    func retryDelay(afterFailures failures: Int) -> Double

    /// Seconds of audio a clock-paced sink keeps written ahead of the clock, for a reader that takes
    /// silence for whatever is not there yet when it reads (snapserver's pipe source).
    var lead: Double { get }
}

extension PCMPeer {
    var lead: Double { 0 }
}

/// The peer is not there, or has gone; the reason is one plain phrase.
struct PeerUnavailable: Error, CustomStringConvertible {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}

/// What a sink with a peer reports about it as it runs, for the command's event output.
public enum SinkStatus: Sendable, Equatable {
    /// The peer could not be reached; audio due meanwhile is discarded. Reported once per outage.
    case waiting(reason: String)
    /// The peer was reached and audio flows to it.
    case connected(peer: String)
    /// The peer went away; the sink keeps trying to reach it again.
    case disconnected(reason: String)
    /// Audio resumed after the buffer had run dry and this much silence had been written in its place.
    case silenceFilled(seconds: Double)
}

/// Receives a sink's status changes, with the sink's label; called on the sink's writer thread.
public typealias SinkStatusHandler = @Sendable (_ label: String, _ status: SinkStatus) -> Void

/// `{"event":"sink","sink":"fifo:/tmp/snapfifo","state":"connected","peer":…}`: a sink's status as
/// `--json` lines write it.
public struct SinkStatusReport: Encodable, Sendable {
    public let sink: String
    public let status: SinkStatus

    public init(sink: String, status: SinkStatus) {
        self.sink = sink
        self.status = status
    }

    /// The status as one line for people.
    public var line: String {
        switch status {
        case .waiting(let reason): return "\(sink): waiting: \(reason)"
        case .connected(let peer): return "\(sink): playing to \(peer)"
        case .disconnected(let reason): return "\(sink): lost: \(reason)"
        case .silenceFilled(let seconds): return String(format: "%@: audio resumed after %.1f s of silence", sink, seconds)
        }
    }

    private enum Keys: String, CodingKey { case event, sink, state, peer, reason, seconds }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("sink", forKey: .event)
        try c.encode(sink, forKey: .sink)
        switch status {
        case .waiting(let reason):
            try c.encode("waiting", forKey: .state)
            try c.encode(reason, forKey: .reason)
        case .connected(let peer):
            try c.encode("connected", forKey: .state)
            try c.encode(peer, forKey: .peer)
        case .disconnected(let reason):
            try c.encode("disconnected", forKey: .state)
            try c.encode(reason, forKey: .reason)
        case .silenceFilled(let seconds):
            try c.encode("silence-filled", forKey: .state)
            try c.encode(seconds, forKey: .seconds)
        }
    }
}
