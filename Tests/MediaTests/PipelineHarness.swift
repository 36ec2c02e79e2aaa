import Foundation
import Media
import RadioModel
import StreamInput
import TestSupport

/// Keeps every PCM byte a pipeline delivers.
final class CollectingConsumer: PCMConsumer, @unchecked Sendable {
    let label = "collector"
    private let lock = NSLock()
    private var bytes = Data()
    private(set) var finished = false

    func consume(_ pcm: UnsafeRawBufferPointer) throws { lock.withLock { bytes.append(contentsOf: pcm) } }
    func finish() { lock.withLock { finished = true } }

    var data: Data { lock.withLock { bytes } }
}

/// Keeps every event, thread-safely.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [StreamEvent] = []

    func record(_ event: StreamEvent) { lock.withLock { stored.append(event) } }
    var events: [StreamEvent] { lock.withLock { stored } }

    var titles: [TitleChange] {
        events.compactMap { if case .metadata(let change) = $0 { return change } else { return nil } }
    }
    var gaps: [Gap] { events.compactMap { if case .gap(let gap) = $0 { return gap } else { return nil } } }
    var connections: Int { events.filter { if case .connected = $0 { return true } else { return false } }.count }
    var failure: String? { events.lazy.compactMap { if case .failed(let message) = $0 { return message } else { return nil } }.first }
    var warnings: [String] { events.compactMap { if case .warning(let message) = $0 { return message } else { return nil } } }
    var programDateTimes: [ProgramDateTime] {
        events.compactMap { if case .programDateTime(let mark) = $0 { return mark } else { return nil } }
    }
    var decodings: [(codec: String, sampleRate: Int)] {
        events.compactMap { if case .decoding(let codec, let rate, _, _) = $0 { return (codec, rate) } else { return nil } }
    }
}

/// Plays a URL through LiveStream → LivePipeline into memory, the way `onair listen` does.
struct PipelineHarness {
    var format = PCMFormat.snapcastDefault
    var options = LiveStreamOptions()

    init() {
        // Tests should not wait long for retries.
        options.reconnect = ReconnectPolicy(initialDelay: 0.05, maxDelay: 0.2, jitter: 0, initialAttempts: 2,
                                            maxConsecutiveFailures: 3)
        options.connectTimeout = 2
        options.stallTimeout = 3
        FFmpegLogging.configure(verbose: false)
    }

    /// Runs until `seconds` of audio were delivered, the source gave up, or `timeout` passed.
    func play(_ url: String, seconds: Double, timeout: Double = 30) -> (events: EventLog, audio: PCMAudio) {
        play(seconds: seconds, timeout: timeout) { [options] in LiveStream(url: url, options: options, onEvent: $0) }
    }

    /// Runs the source `makeSource` builds until `seconds` of audio were delivered (with nil, until
    /// the source ends), the source gave up, or `timeout` passed.
    func play(seconds: Double?, timeout: Double,
              _ makeSource: (@escaping @Sendable (StreamEvent) -> Void) -> IngestSource) -> (events: EventLog, audio: PCMAudio) {
        let log = EventLog()
        let stream = makeSource(log.record)
        let pipeline = LivePipeline(source: stream, format: format, stopAfter: seconds, onEvent: log.record)
        let collector = CollectingConsumer()
        pipeline.fanOut.attach(collector)
        pipeline.start()
        let watchdog = DispatchWorkItem { pipeline.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        pipeline.waitUntilFinished()
        watchdog.cancel()
        let audio = try! PCMAudio(raw: collector.data, format: .s16le, sampleRate: format.sampleRate, channels: format.channels)
        return (log, audio)
    }
}
