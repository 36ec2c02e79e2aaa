import Foundation
import Media
import RadioModel
import Recording
import StreamInput

/// One station's upstream connection, shared by every episode the daemon records from it at once:
/// one live source, one pipeline (a decode thread of its own), and the stream's wall clock the
/// episodes are cut by. Episodes attach and detach while it runs; it stops when the last one leaves.
final class StationFeed: @unchecked Sendable {
    let pipeline: LivePipeline
    let clock: StreamWallClock
    private let lock = NSLock()
    // Guarded by `lock`.
    private var windows: [StreamFanOut.Token: EpisodeWindow] = [:]
    private var failure: String?
    private var started = false

    /// `startAt` asks an HLS stream to begin at that instant of its playlist's window (a late start's back-fill).
    init(target: StreamTarget, startAt: Date?, onEvent: @escaping @Sendable (StreamEvent) -> Void) throws {
        var options = LiveStreamOptions()
        options.titleCharset = target.titleCharset
        options.startAt = startAt
        // Built before the pipeline exists; events only flow once it has started.
        let box = FeedBox()
        let handle: @Sendable (StreamEvent) -> Void = { event in
            box.feed?.note(event)
            onEvent(event)
        }
        let source = try target.liveSource(options: options, onEvent: handle)
        pipeline = LivePipeline(source: source, format: StationRecording.pcmFormat, onEvent: handle)
        let pipeline = self.pipeline
        clock = StreamWallClock(mediaTime: { pipeline.mediaTime })
        box.feed = self
    }

    /// Starts the connection; later calls do nothing.
    func startOnce() {
        let first = lock.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        if first { pipeline.start() }
    }

    func stop() { pipeline.stop() }

    /// Attaches an episode's window; its recorder sees the stream's events from now on.
    func attach(_ window: EpisodeWindow) -> StreamFanOut.Token {
        lock.withLock {
            let token = pipeline.fanOut.attach(window)
            windows[token] = window
            return token
        }
    }

    /// Detaches a window; returns how many remain.
    func detach(_ token: StreamFanOut.Token) -> Int {
        pipeline.fanOut.detach(token)
        return lock.withLock {
            windows[token] = nil
            return windows.count
        }
    }

    /// Why the stream ended, if it failed.
    var streamFailure: String? { lock.withLock { failure } }

    /// On the decode thread, in order with the audio: the clock first, so a window cuts by the newest mark.
    private func note(_ event: StreamEvent) {
        clock.note(event)
        if case .failed(let message) = event { lock.withLock { failure = failure ?? message } }
        for window in lock.withLock({ Array(windows.values) }) { window.handle(event) }
    }
}

private final class FeedBox: @unchecked Sendable {
    weak var feed: StationFeed?
}
