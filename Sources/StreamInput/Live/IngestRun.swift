import Foundation
import RadioModel

/// One unbroken run of audio bytes from upstream. A reconnect starts a new run, and so does an HLS
/// discontinuity or gap, so the demuxer starts afresh on a clean stream start instead of parsing
/// across the seam.
public final class IngestRun: Sendable {
    /// 1 for the first connection, then counting up.
    public let number: Int
    public let connection: ConnectionInfo
    public let queue: ByteQueue
    /// The gap since the previous run ended; nil for the first run.
    public let precedingGap: Gap?
    private struct State {
        var titles: [TitleChange] = []
        var programDateTimes: [ProgramDateTime] = []
    }
    private let state = Locked(State())
    private let rejectHandler: @Sendable (String) -> Void
    private let playingHandler: (@Sendable () -> Void)?

    init(number: Int, connection: ConnectionInfo, queue: ByteQueue, precedingGap: Gap?,
         rejectHandler: @escaping @Sendable (String) -> Void, playingHandler: (@Sendable () -> Void)? = nil) {
        self.number = number; self.connection = connection; self.queue = queue
        self.precedingGap = precedingGap; self.rejectHandler = rejectHandler; self.playingHandler = playingHandler
    }

    /// Seconds of audio decoded from a run after which the connection counts as good.
    public static let playingAfterSeconds = 1.0

    func add(_ title: TitleChange) { state.withLock { $0.titles.append(title) } }

    func add(_ mark: ProgramDateTime) { state.withLock { $0.programDateTimes.append(mark) } }

    /// Removes and returns the titles that take effect at or before `audioByteOffset`.
    public func takeTitles(upTo audioByteOffset: Int64) -> [TitleChange] {
        state.withLock { Self.take(from: &$0.titles, upTo: audioByteOffset, position: \.audioByteOffset) }
    }

    /// Removes and returns the program-date-times of segments that start at or before `audioByteOffset`.
    public func takeProgramDateTimes(upTo audioByteOffset: Int64) -> [ProgramDateTime] {
        state.withLock { Self.take(from: &$0.programDateTimes, upTo: audioByteOffset, position: \.byteOffset) }
    }

    private static func take<Mark>(from marks: inout [Mark], upTo offset: Int64, position: KeyPath<Mark, Int64>) -> [Mark] {
        let due = marks.prefix { $0[keyPath: position] <= offset }
        marks.removeFirst(due.count)
        return Array(due)
    }

    /// Titles not yet taken (at the end of a run they all apply).
    public func takeAllTitles() -> [TitleChange] {
        state.withLock { state in defer { state.titles = [] }; return state.titles }
    }

    /// The consumer cannot use these bytes (not audio it can decode): drop the connection and retry.
    public func reject(reason: String) { rejectHandler(reason) }

    /// The consumer decoded `playingAfterSeconds` of this run: the connection works, so a failure after
    /// it is a new outage, retried from the shortest delay.
    public func confirmPlaying() { playingHandler?() }
}
