import Foundation
import RadioModel
import StreamInput

/// The wall-clock time of the audio a station's pipeline is delivering right now.
///
/// With HLS program-date-time it is the stream's own clock: the last mark reported, moved on by
/// the media time delivered since. Without (ICY) it is the audio's arrival: this machine's clock at
/// an anchor, moved on by media time the same way, so a cut falls on the audio's own timeline and
/// not on when a busy decode thread got to it. Audio cannot arrive before it is sent, so whenever the
/// extrapolation runs ahead of this machine's clock (a server's burst of recent audio on connecting)
/// the anchor moves to now; a reconnect or a gap starts it afresh.
/// Feed it the pipeline's events (on the decode thread, in order with the audio); read it from consumers.
public final class StreamWallClock: @unchecked Sendable {  // the anchor inside `lock`
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

    public var now: Date {
        let media = mediaTime()
        let wall = Date()
        return lock.withLock {
            if let anchor {
                let extrapolated = anchor.date.addingTimeInterval(media - anchor.mediaTime)
                if fromStream || extrapolated <= wall { return extrapolated }
            }
            anchor = (wall, media)
            return wall
        }
    }
}
