import Foundation
import Media
import Monitoring
import Outputs
import RadioModel
import Recording
import Sinks
import StreamInput

/// One station's upstream connection: one live source, one pipeline (a decode thread of its own) and
/// the stream's wall clock. Everything that plays, records or relays the station is a consumer of its
/// fan-out, attached and detached while it runs, and hears the stream's events there — the source's
/// (connected, reconnecting, gaps) and the pipeline's (decoding, titles, a consumer's failure) alike.
public final class StationConnection: Sendable {
    public let target: StreamTarget
    public let pipeline: LivePipeline
    /// The wall-clock time of the audio being delivered: what an episode's window is cut by.
    public let clock: StreamWallClock
    /// Raises `dead-air`, `down` and `recovered` into the station's events from its pipeline's meter.
    private let watch: SignalWatch
    private let state = Locked(State())

    private struct State {
        var started = false
        var streamFailure: String?
        var consumerFailure: (label: String, reason: String)?
    }

    /// - Parameters:
    ///   - stopAfter: seconds of audio after which the stream ends (a timed `listen` or `record`).
    ///   - endsWhenConsumersFail: a one-off run ends when the last consumer taking its audio fails; a shared connection
    ///     keeps flowing for the consumers that attach later.
    ///   - alerts: when the station counts as dead air or down.
    ///   - meter: where the decode thread measures the audio; a daemon keeps one per station (its
    ///     metrics), else the connection makes its own, measuring the level `alerts` name.
    ///   - log: the owner's log of the station's events (a daemon's), told before any consumer.
    public init(target: StreamTarget, options: LiveStreamOptions, format: PCMFormat, stopAfter: Double? = nil,
                endsWhenConsumersFail: Bool = false, alerts: AlertRules = .standard, meter: StationMeter? = nil,
                log: @escaping @Sendable (StreamEvent) -> Void = { _ in }) throws {
        self.target = target
        // The source exists before the pipeline it reports into; events flow only once it has started.
        let route = Locked(WeakPipeline())
        let source = try target.liveSource(options: options) { event in route.current.pipeline?.publish(event) }
        let clockBox = Locked<StreamWallClock?>(nil)
        let state = self.state
        let meter = meter ?? StationMeter(quietBelow: alerts.enabled ? alerts.quietLevel : nil)
        pipeline = LivePipeline(source: source, format: format, stopAfter: stopAfter, endsWhenConsumersFail: endsWhenConsumersFail,
                                meter: meter) { event in
            // First, on the thread the event came from: the clock, so a window cuts by the newest mark.
            clockBox.current?.note(event)
            switch event {
            case .failed(let message): state.withLock { $0.streamFailure = $0.streamFailure ?? message }
            case .consumerFailed(let label, let reason):
                state.withLock { $0.consumerFailure = $0.consumerFailure ?? (label, reason) }
            default: break
            }
            log(event)
        }
        let pipeline = self.pipeline
        watch = SignalWatch(meter: meter, rules: alerts) { [weak pipeline] event in pipeline?.publish(event) }
        clock = StreamWallClock(mediaTime: { [weak pipeline] in pipeline?.mediaTime ?? 0 })
        clockBox.withLock { $0 = clock }
        route.withLock { $0.pipeline = pipeline }
    }

    /// Starts the connection; later calls do nothing.
    public func start() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        pipeline.start()
        watch.start { [weak pipeline] in pipeline?.waitUntilFinished(timeout: 0) ?? true }
    }

    public func stop() {
        watch.stop()
        pipeline.stop()
    }

    public func waitUntilFinished() { pipeline.waitUntilFinished() }

    @discardableResult
    public func attach(_ consumer: StreamConsumer) -> StreamFanOut.Token { pipeline.fanOut.attach(consumer) }

    /// Detaches (and finishes) a consumer; returns how many remain.
    public func detach(_ token: StreamFanOut.Token) -> Int {
        pipeline.fanOut.detach(token)
        return pipeline.fanOut.count
    }

    /// Why the stream ended, if it failed.
    public var streamFailure: String? { state.current.streamFailure }

    /// The first consumer that failed, and why.
    public var consumerFailure: (label: String, reason: String)? { state.current.consumerFailure }
}

/// The source's way to its pipeline, which owns the source: weak, or neither would ever go.
private struct WeakPipeline {
    weak var pipeline: LivePipeline?
}

extension StationConnection {
    /// Opens every sink (and a title FIFO) for this station before it starts, so a bad one fails the
    /// job at once; those already opened are closed again. What a sink reports beyond its status — a
    /// relay listener dropped, a title Icecast refused — joins the station's events.
    public func openSinks(_ specs: [SinkSpec], metaFIFO: String? = nil, settings: SinkSettings) throws -> [StreamConsumer] {
        var settings = settings
        settings.onEvent = { [weak pipeline] event in pipeline?.publish(event) }
        var consumers: [StreamConsumer] = []
        do {
            for spec in specs { consumers.append(try SinkFactory.make(spec, format: pipeline.format, settings: settings)) }
            if let metaFIFO { consumers.append(try TitleFIFO(path: metaFIFO)) }
        } catch {
            consumers.forEach { $0.finish() }
            throw EngineError("\(error)", kind: .sink)
        }
        return consumers
    }
}
