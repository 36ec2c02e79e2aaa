import Foundation
import StreamInput

/// The wall-clock time of the audio a station's pipeline is delivering right now.
///
/// With HLS program-date-time it is the stream's own clock: the last mark reported, moved on by
/// the media time delivered since. Without (ICY), it is this machine's clock as the audio arrives.
/// Feed it the pipeline's events (on the decode thread, in order with the audio); read it from consumers.
public final class StreamWallClock: @unchecked Sendable {
    private let mediaTime: @Sendable () -> Double
    private let lock = NSLock()
    private var anchor: (date: Date, mediaTime: Double)?

    /// `mediaTime` is the pipeline's seconds of audio delivered so far.
    public init(mediaTime: @escaping @Sendable () -> Double) {
        self.mediaTime = mediaTime
    }

    public func note(_ event: StreamEvent) {
        guard case .programDateTime(let mark) = event, let at = mark.mediaTime else { return }
        lock.withLock { anchor = (mark.date, at) }
    }

    /// Whether the time comes from the stream (program-date-time) rather than this machine.
    public var isStreamTime: Bool { lock.withLock { anchor != nil } }

    public var now: Date {
        guard let anchor = lock.withLock({ anchor }) else { return Date() }
        return anchor.date.addingTimeInterval(mediaTime() - anchor.mediaTime)
    }
}
