import Foundation
import Media
import RadioModel
import Recording
import StreamInput

/// One station being recorded: its live source, its pipeline (a decode thread of its own; the
/// network thread is shared by all) and the recorder attached to it.
final class StationRecording: @unchecked Sendable {
    let station: String
    let recorder: RecordingConsumer
    private let pipeline: LivePipeline
    private let failures: FailureNotes

    /// PCM the pipeline decodes to when a recording needs it (re-encoding, track splitting).
    static let pcmFormat = PCMFormat.snapcastDefault

    init(target: StreamTarget, plan: RecordingPlan, duration: Double?, split: SplitOptions?, options: LiveStreamOptions,
         finaliser: Finaliser, reporter: RecordingReporter) throws {
        let station = plan.station.id
        self.station = station
        let failures = FailureNotes()
        let onRecordingEvent: @Sendable (RecordingEvent) -> Void = { event in
            reporter.report(station: station, event)
            if case .failed(let message, _) = event { failures.noteRecording(message) }
        }
        recorder = try Self.makeRecorder(plan: plan, split: split, finaliser: finaliser, onEvent: onRecordingEvent)
        let recorder = self.recorder
        let onEvent: @Sendable (StreamEvent) -> Void = { event in
            recorder.handle(event)
            reporter.report(station: station, event)
            if case .failed(let message) = event { failures.noteStream(message) }
        }
        let source = try target.liveSource(options: options, onEvent: onEvent)
        pipeline = LivePipeline(source: source, format: Self.pcmFormat, stopAfter: duration, endsWhenConsumersFail: true,
                                onEvent: onEvent)
        pipeline.fanOut.attach(recorder)
        self.failures = failures
    }

    /// The recorder a plan asks for: a stream copy, a re-encoding, or one file per title.
    static func makeRecorder(plan: RecordingPlan, split: SplitOptions?, finaliser: Finaliser,
                             onEvent: @escaping @Sendable (RecordingEvent) -> Void) throws -> RecordingConsumer {
        if let split {
            return try TrackSplitter.make(plan: plan, input: pcmFormat, options: split, finaliser: finaliser, onEvent: onEvent)
        }
        if plan.format == .copy { return CopyRecorder(plan: plan, finaliser: finaliser, onEvent: onEvent) }
        return EncodingRecorder(plan: plan, input: pcmFormat, finaliser: finaliser, onEvent: onEvent)
    }

    func start() { pipeline.start() }

    func stop() { pipeline.stop() }

    func waitUntilFinished() { pipeline.waitUntilFinished() }

    /// Why the stream or the recording failed, if it did.
    var streamFailure: String? { failures.stream }
    var recordingFailure: String? { failures.recording }
}

/// The first stream and recording failure of a station, noted from its events.
private final class FailureNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var storedStream: String?
    private var storedRecording: String?

    func noteStream(_ message: String) { lock.withLock { storedStream = storedStream ?? message } }
    func noteRecording(_ message: String) { lock.withLock { storedRecording = storedRecording ?? message } }
    var stream: String? { lock.withLock { storedStream } }
    var recording: String? { lock.withLock { storedRecording } }
}
