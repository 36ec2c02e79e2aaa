import Foundation
import StreamInput

/// The wall-clock time of the audio a station's pipeline is delivering right now.
///
/// With HLS program-date-time it is the stream's own clock: the last mark reported, moved on by
/// the media time delivered since. Without (ICY), a live server sends in real time, so the clock is
/// this machine's at the connection's first audio, moved on by media time the same way: a cut then
/// falls on the audio's own timeline, not on when a busy decode thread got to it. A reconnect or a
/// gap starts it afresh.
/// Feed it the pipeline's events (on the decode thread, in order with the audio); read it from consumers.
public final class StreamWallClock: @unchecked Sendable {
    private let mediaTime: @Sendable () -> Double
    private let lock = NSLock()
    // Guarded by `lock`.
    private var anchor: (date: Date, mediaTime: Double)?
    private var fromStream = false

    /// `mediaTime` is the pipeline's seconds of audio delivered so far.
    public init(mediaTime: @escaping @Sendable () -> Double) {
        self.mediaTime = mediaTime
    }

    public func note(_ event: StreamEvent) {
        lock.withLock {
            switch event {
            case .programDateTime(let mark):
                guard let at = mark.mediaTime else { return }
                anchor = (mark.date, at)
                fromStream = true
            case .connected, .gap:
                if !fromStream { anchor = nil }
            default: break
            }
        }
    }

    /// Whether the time comes from the stream (program-date-time) rather than this machine.
    public var isStreamTime: Bool { lock.withLock { fromStream } }

    public var now: Date {
        let media = mediaTime()
        let current = lock.withLock { () -> (date: Date, mediaTime: Double) in
            if let anchor { return anchor }
            let started = (Date(), media)
            anchor = started
            return started
        }
        return current.date.addingTimeInterval(media - current.mediaTime)
    }
}
