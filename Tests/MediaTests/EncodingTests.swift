import Foundation
import XCTest
import Media
import RadioModel
import StreamInput
import TestSupport

/// Re-encoding PCM and copying packets into containers, checked by decoding the result with ffmpeg.
final class EncodingTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "onair-encoding")
        FFmpegLogging.configure(verbose: false)
    }

    /// `seconds` of a sine at `frequency` as 48000:16:2 PCM.
    private func tone(_ frequency: Double, seconds: Double, format: PCMFormat = .snapcastDefault) -> [UInt8] {
        let frames = Int(seconds * Double(format.sampleRate))
        var pcm = [UInt8]()
        pcm.reserveCapacity(frames * format.bytesPerFrame)
        for index in 0..<frames {
            let sample = Int16(8000 * sin(2 * Double.pi * frequency * Double(index) / Double(format.sampleRate)))
            for _ in 0..<format.channels { withUnsafeBytes(of: sample.littleEndian) { pcm += $0 } }
        }
        return pcm
    }

    /// Feeds PCM in uneven slices, as the decoder does.
    private func feed(_ pcm: [UInt8], to consumer: PCMConsumer) throws {
        var offset = 0
        var slice = 4 * 1000
        while offset < pcm.count {
            let end = min(pcm.count, offset + slice)
            try pcm[offset..<end].withUnsafeBytes { try consumer.consume($0) }
            offset = end
            slice = slice == 4000 ? 4 * 1771 : 4000
        }
    }

    func testEveryEncodingDecodesBackToTheTone() throws {
        let pcm = tone(1000, seconds: 3)
        let cases: [(String, AudioContainer?, String)] = [
            ("mp3:128", nil, "mp3"), ("aac:128", nil, "aac"), ("aac:96", .mp4, "aac"), ("opus:64", nil, "opus"),
            ("vorbis:128", nil, "vorbis"), ("flac", nil, "flac"), ("wav", nil, "pcm_s16le"),
        ]
        for (text, container, codec) in cases {
            let encoding = try XCTUnwrap(AudioEncoding(text))
            let chosen = container ?? encoding.streamContainer
            let file = directory.file("tone-\(text.replacingOccurrences(of: ":", with: "-")).\(chosen.fileExtension)")
            let encoder = try PCMEncoder(label: text, input: .snapcastDefault, encoding: encoding, container: container,
                                         metadata: ["title": "Tone \(text)"], output: .file(path: file.path))
            try feed(pcm, to: encoder)
            try encoder.close()
            let probe = try FFprobe.inspect(file)
            XCTAssertEqual(probe.audio?.codecName, codec, text)
            XCTAssertEqual(probe.duration ?? 0, 3, accuracy: 0.1, text)
            if chosen != .adts { // raw ADTS has nowhere to keep tags
                XCTAssertEqual(probe.tags["title"] ?? probe.audio?.tags["title"], "Tone \(text)", text)
            }
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, text)
            XCTAssertEqual(try FFprobe.decodePCM(file).dominantFrequency() ?? 0, 1000, accuracy: 2, text)
        }
    }

    func testAStreamOutputIsPlayableAsItArrives() throws {
        // Fragmented MP4 and Ogg, written to a callback that cannot seek back.
        for (encoding, container) in [(AudioEncoding.aac(kbps: 128), AudioContainer.mp4), (.opus(kbps: 96), .ogg), (.mp3(kbps: 128), .mp3)] {
            let bytes = ByteCollector()
            let encoder = try PCMEncoder(label: "stream", input: .snapcastDefault, encoding: encoding, container: container,
                                         output: .stream { bytes.append($0) })
            try feed(tone(440, seconds: 2), to: encoder)
            try encoder.close()
            let file = directory.file("stream-\(encoding).\(container.fileExtension)")
            try bytes.data.write(to: file)
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, "\(encoding)")
            XCTAssertEqual(try FFprobe.decodePCM(file).duration, 2, accuracy: 0.1, "\(encoding)")
        }
    }

    func testAFailingOutputSurfacesAsAnErrorFromConsume() throws {
        let encoder = try PCMEncoder(label: "full", input: .snapcastDefault, encoding: .wav,
                                     output: .stream { _ in throw POSIXError(.ENOSPC) })
        XCTAssertThrowsError(try feed(tone(440, seconds: 1), to: encoder))
    }

    func testEncodingStringsParse() {
        XCTAssertEqual(AudioEncoding("mp3"), .mp3(kbps: 192))
        XCTAssertEqual(AudioEncoding("OPUS:64"), .opus(kbps: 64))
        XCTAssertEqual(AudioEncoding("flac"), .flac)
        for bad in ["", "mp3:", "mp3:abc", "mp3:5000", "flac:128", "wma"] { XCTAssertNil(AudioEncoding(bad), bad) }
    }

    /// Stream copy through the live pipeline, across a reconnect, without decoding at all.
    func testStreamCopyContinuesAcrossAReconnect() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        for codec in [AudioCodec.mp3, .aacADTS] {
            let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 6, codec: codec, bitrate: 128))
            let attempts = Counter()
            let writer = ICYStreamWriter(audio: audio, metaint: 16_000)
            let half = writer.interleaved().prefix(writer.interleaved().count / 2)
            server.route("/copy-\(codec.rawValue)") { request, connection in
                if attempts.increment() == 1 {
                    try connection.sendStatus(line: "ICY 200 OK", headers: [("Content-Type", codec.contentType), ("icy-metaint", "16000")])
                    try connection.send(half)
                    connection.close()
                } else {
                    try FixtureHTTPServer.icyStream(writer, contentType: codec.contentType)(request, connection)
                    // Held open, as a live station is: the network side runs ahead of the demuxer, so a
                    // close here would bring a third connection whenever the pipeline is slow to reach
                    // its 8 s (seen under AddressSanitizer).
                    while connection.isClientConnected { try connection.sleep(0.05) }
                }
            }
            let log = EventLog()
            var options = PipelineHarness().options
            options.reconnect.initialDelay = 0.05
            let stream = LiveStream(url: server.url("/copy-\(codec.rawValue)").absoluteString, options: options, onEvent: log.record)
            let pipeline = LivePipeline(source: stream, format: .snapcastDefault, stopAfter: 8, onEvent: log.record)
            let file = directory.file("copy-\(codec.rawValue)")
            let chosen = ContainerBox()
            let copy = StreamCopyWriter(label: "copy", output: .file(path: file.path)) { chosen.set($0) }
            pipeline.fanOut.attach(copy)
            pipeline.start()
            pipeline.waitUntilFinished()

            XCTAssertEqual(log.connections, 2, "\(codec): \(log.events)")
            XCTAssertFalse(log.events.contains { if case .decoding = $0 { return true } else { return false } },
                           "\(codec): nothing was decoded, as nobody took PCM")
            XCTAssertEqual(chosen.value, codec == .mp3 ? .mp3 : .mp4)
            let probe = try FFprobe.inspect(file)
            XCTAssertEqual(probe.audio?.codecName, codec == .mp3 ? "mp3" : "aac")
            // 3 s before the drop, then the 6 s of the second connection (the pipeline stops at 8 s).
            XCTAssertEqual(try FFprobe.decodePCM(file).duration, 8, accuracy: 0.2, "\(codec)")
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, "\(codec)")
        }
    }
}

/// Bytes gathered from a stream output.
final class ByteCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    func append(_ chunk: UnsafeRawBufferPointer) { lock.withLock { bytes.append(contentsOf: chunk) } }
    var data: Data { lock.withLock { bytes } }
}

final class ContainerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: AudioContainer?
    func set(_ value: AudioContainer) { lock.withLock { stored = value } }
    var value: AudioContainer? { lock.withLock { stored } }
}
