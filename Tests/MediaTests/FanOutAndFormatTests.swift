import Foundation
import XCTest
import Media
import RadioModel
import StreamInput
import TestSupport

/// Consumers come and go on a running decoder; codecs and format changes beyond the ICY basics.
final class FanOutAndFormatTests: XCTestCase {
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        FFmpegLogging.configure(verbose: false)
    }

    override func tearDown() { server.stop() }

    func testConsumersAttachAndDetachWithoutStoppingTheDecoder() throws {
        let mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 10, codec: .mp3, bitrate: 128))
        // Real time, so the test can act while the stream plays.
        server.route("/live", FixtureHTTPServer.icyStream(ICYStreamWriter(audio: mp3, metaint: 16_000), bytesPerSecond: 16_000))
        let log = EventLog()
        let stream = LiveStream(url: server.url("/live").absoluteString, onEvent: log.record)
        let pipeline = LivePipeline(source: stream, format: .snapcastDefault, stopAfter: 7, onEvent: log.record)
        let first = CollectingConsumer()
        let second = CollectingConsumer()
        let failing = FailingConsumer(after: 2)
        let firstToken = pipeline.fanOut.attach(first)
        pipeline.fanOut.attach(failing)
        pipeline.start()
        Thread.sleep(forTimeInterval: 2)
        pipeline.fanOut.attach(second)
        Thread.sleep(forTimeInterval: 1)
        pipeline.fanOut.detach(firstToken)
        XCTAssertTrue(first.finished, "a detached consumer is finished at once")
        pipeline.waitUntilFinished()

        let total = 7 * PCMFormat.snapcastDefault.bytesPerSecond
        XCTAssertGreaterThan(first.data.count, 0)
        XCTAssertGreaterThan(second.data.count, 0)
        XCTAssertLessThan(first.data.count, total, "the first left early")
        XCTAssertLessThan(second.data.count, total, "the second came late")
        XCTAssertGreaterThan(first.data.count + second.data.count, total, "their spans overlap: both were attached at once")
        XCTAssertTrue(second.finished, "the end of the stream finishes the consumers still attached")
        XCTAssertTrue(log.events.contains { if case .consumerFailed(let label, _) = $0 { return label == "failing" } else { return false } })
        XCTAssertNil(log.failure, "a failing consumer does not end the stream for the others")
        let audio = try PCMAudio(raw: second.data, format: .s16le, sampleRate: 48000, channels: 2)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    func testFLACStreamsDecode() throws {
        let flac = try Data(contentsOf: AudioFixtures.sine(frequency: 523.25, seconds: 4, codec: .flac))
        server.route("/flac", FixtureHTTPServer.icyStream(ICYStreamWriter(audio: flac, metaint: 16_000), contentType: "audio/flac"))
        let (log, audio) = PipelineHarness().play(server.url("/flac").absoluteString, seconds: 3)
        XCTAssertTrue(log.events.contains { if case .decoding(let codec, _, _, _) = $0 { return codec == "flac" } else { return false } })
        XCTAssertEqual(audio.duration, 3, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 523.25, accuracy: 2)
    }

    /// HE-AAC's implicit SBR doubles the output rate after the first frames; a station changing
    /// bitrate on the fly does the same. No HE-AAC encoder ships with Debian's ffmpeg, so the test
    /// joins two AAC streams of different rates: the resampler must follow without a stop or a tone shift.
    func testASampleRateChangeMidStreamIsFollowed() throws {
        let first = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 3, codec: .aacADTS, sampleRate: 22050))
        let second = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 3, codec: .aacADTS, sampleRate: 48000))
        server.route("/switch", FixtureHTTPServer.icyStream(ICYStreamWriter(audio: first + second, metaint: 16_000), contentType: "audio/aac"))
        let (_, audio) = PipelineHarness().play(server.url("/switch").absoluteString, seconds: 5.5)
        XCTAssertEqual(audio.duration, 5.5, accuracy: 0.001)
        XCTAssertEqual(audio.slice(from: 0.5, to: 2.5).dominantFrequency() ?? 0, 440, accuracy: 2, "22.05 kHz part")
        XCTAssertEqual(audio.slice(from: 3.5, to: 5.5).dominantFrequency() ?? 0, 440, accuracy: 2, "48 kHz part")
    }

    func testTwentyFourBitOutputKeepsTheTone() throws {
        let mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 3, codec: .mp3))
        server.route("/s24", FixtureHTTPServer.icyStream(ICYStreamWriter(audio: mp3, metaint: 16_000)))
        var harness = PipelineHarness()
        harness.format = PCMFormat(sampleRate: 44100, bitsPerSample: 24, channels: 1)
        let log = EventLog()
        let stream = LiveStream(url: server.url("/s24").absoluteString, options: harness.options, onEvent: log.record)
        let pipeline = LivePipeline(source: stream, format: harness.format, stopAfter: 2, onEvent: log.record)
        let collector = CollectingConsumer()
        pipeline.fanOut.attach(collector)
        pipeline.start()
        pipeline.waitUntilFinished()
        XCTAssertEqual(collector.data.count, 2 * 44100 * 3)
        let audio = try PCMAudio(raw: collector.data, format: .s24le, sampleRate: 44100, channels: 1)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertGreaterThan(audio.rmsDBFS(), -30, "the level survives packing to 24 bits")
    }
}

/// Takes a few buffers, then fails like a full disk.
final class FailingConsumer: PCMConsumer, @unchecked Sendable {
    let label = "failing"
    private let lock = NSLock()
    private var remaining: Int

    init(after buffers: Int) { remaining = buffers }

    func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try lock.withLock {
            remaining -= 1
            if remaining < 0 { throw POSIXError(.ENOSPC) }
        }
    }

    func finish() {}
}
