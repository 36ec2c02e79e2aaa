import Foundation
import RadioModel

/// A live station or URL, whatever its protocol: an ICY connection first — connecting straight
/// away is the quickest way to the first sound — and an `HLSStream` in its place when the server
/// answers with an HLS playlist or a DASH MPD. The consumer sees one source throughout.
public final class LiveSource: IngestSource, Sendable {
    private let options: LiveStreamOptions
    private let engine: TransferEngine
    private let onEvent: @Sendable (StreamEvent) -> Void
    private struct State {
        /// Set once at the end of init, replaced at most once by the hand-over.
        var current: IngestSource?
        var stopped = false
    }
    private let state = Locked(State())

    public init(candidates: [String], options: LiveStreamOptions = LiveStreamOptions(), engine: TransferEngine = .shared,
                onEvent: @escaping @Sendable (StreamEvent) -> Void) {
        self.options = options; self.engine = engine; self.onEvent = onEvent
        let icy = LiveStream(candidates: candidates, options: options, engine: engine, onEvent: onEvent) { [weak self] resolved in
            self?.handOver(to: resolved)
        }
        state.withLock { $0.current = icy }
    }

    public func start() {
        state.withLock { $0.current }!.start()
    }

    /// The current source's runs; when it ends, the next one's, if it handed over.
    public func nextRun() -> IngestRun? {
        var source = state.withLock { $0.current }!
        while true {
            if let run = source.nextRun() { return run }
            let next = state.withLock { $0.current }!
            guard next !== source else { return nil }
            source = next
        }
    }

    public func stop() {
        state.withLock { (state) -> IngestSource? in
            state.stopped = true
            return state.current
        }?.stop()
    }

    /// Called by the ICY stream before it ends, so `nextRun` finds the HLS stream in its place.
    private func handOver(to resolved: ResolvedStream) {
        let hls = HLSStream(url: resolved.url, format: resolved.kind == .dash ? .dash : .hls,
                            masterVariables: resolved.chosenVariant?.masterVariables ?? [:], options: options,
                            engine: engine, onEvent: onEvent)
        let taken = state.withLock { (state) -> Bool in
            guard !state.stopped else { return false }
            state.current = hls
            return true
        }
        if taken { hls.start() }
    }
}
