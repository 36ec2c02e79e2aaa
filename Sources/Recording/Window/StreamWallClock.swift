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
public final class StreamWallClock: Sendable {
    private let mediaTime: @Sendable () -> Double
    /// The anchor, and whether the stream's own clock set it.
    private struct State {
        var anchor: (date: Date, mediaTime: Double)?
        var fromStream = false
    }
    private let state = Locked(State())

    /// `mediaTime` is the pipeline's seconds of audio delivered so far.
    public init(mediaTime: @escaping @Sendable () -> Double) {
        self.mediaTime = mediaTime
    }

    public func note(_ event: StreamEvent) {
        state.withLock { state in
            switch event {
            case .programDateTime(let mark):
                guard let at = mark.mediaTime else { return }
                state.anchor = (mark.date, at)
                state.fromStream = true
            case .connected, .gap:
                if !state.fromStream { state.anchor = nil }
            default: break
            }
        }
    }

    public var now: Date {
        let media = mediaTime()
        let wall = Date()
        return state.withLock { state in
            if let anchor = state.anchor {
                let extrapolated = anchor.date.addingTimeInterval(media - anchor.mediaTime)
                if state.fromStream || extrapolated <= wall { return extrapolated }
            }
            state.anchor = (wall, media)
            return wall
        }
    }
}
