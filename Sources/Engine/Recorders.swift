import Foundation
import Media
import Monitoring
import RadioModel
import Recording
import StreamInput

/// The recorder a plan asks for: a stream copy, a re-encoding, or one file per title.
public enum Recorders {
    /// PCM the pipeline decodes to when a recording needs it (re-encoding, track splitting).
    public static let pcmFormat = PCMFormat.snapcastDefault

    public static func make(plan: RecordingPlan, split: SplitOptions?, finaliser: Finaliser,
                            onEvent: @escaping @Sendable (RecordingEvent) -> Void) throws -> RecordingConsumer {
        do {
            if let split {
                return try TrackSplitter.make(plan: plan, input: pcmFormat, options: split, finaliser: finaliser, onEvent: onEvent)
            }
        } catch {
            throw EngineError(error.description, kind: .configuration)
        }
        if plan.format == .copy { return CopyRecorder(plan: plan, finaliser: finaliser, onEvent: onEvent) }
        return EncodingRecorder(plan: plan, input: pcmFormat, finaliser: finaliser, onEvent: onEvent)
    }
}

/// One station recorded on a connection of its own until it ends, is stopped, or `duration` is
/// reached: `onair record`'s job for each station it names.
public final class StationRecording: Sendable {
    public let station: String
    public let recorder: RecordingConsumer
    public let connection: StationConnection
    private let failure = Locked<String?>(nil)

    /// `observers` are attached before the recorder (a reporter hears the stream's events first).
    public init(target: StreamTarget, plan: RecordingPlan, duration: Double?, split: SplitOptions?, options: LiveStreamOptions,
                alerts: AlertRules = .standard, finaliser: Finaliser, observers: [StreamConsumer] = [],
                onRecordingEvent: @escaping @Sendable (RecordingEvent) -> Void) throws {
        station = plan.station.id
        let failure = self.failure
        recorder = try Recorders.make(plan: plan, split: split, finaliser: finaliser) { event in
            if case .failed(let message, _) = event { failure.withLock { $0 = $0 ?? message } }
            onRecordingEvent(event)
        }
        connection = try StationConnection(target: target, options: options, format: Recorders.pcmFormat, stopAfter: duration,
                                           endsWhenConsumersFail: true, alerts: alerts)
        observers.forEach { connection.attach($0) }
        connection.attach(recorder)
    }

    public func start() { connection.start() }

    public func stop() { connection.stop() }

    public func waitUntilFinished() { connection.waitUntilFinished() }

    /// Why the stream or the recording failed, if it did.
    public var streamFailure: String? { connection.streamFailure }
    public var recordingFailure: String? { failure.current }
}
