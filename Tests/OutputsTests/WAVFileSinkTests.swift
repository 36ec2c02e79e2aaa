import XCTest
import RadioModel
import TestSupport
@testable import Outputs

final class WAVFileSinkTests: XCTestCase {
    private func write(seconds: Double, format: PCMFormat, finish: Bool) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onair-wav-\(UUID().uuidString).wav")
        let sink = try WAVFileSink(path: url.path, format: format)
        let frames = Int(seconds * Double(format.sampleRate))
        // A 1 kHz square-ish tone: sign flips every half period.
        var pcm = [UInt8]()
        let bytesPerSample = format.bitsPerSample / 8
        for frame in 0..<frames {
            let positive = (frame * 1000 * 2 / format.sampleRate) % 2 == 0
            let value: Int32 = positive ? 8_000 << (format.bitsPerSample - 16) : -8_000 << (format.bitsPerSample - 16)
            for _ in 0..<format.channels {
                withUnsafeBytes(of: value.littleEndian) { pcm += $0.prefix(bytesPerSample) }
            }
        }
        try pcm.withUnsafeBytes { try sink.consume($0) }
        if finish { sink.finish() }
        return url
    }

    func testFinishedFileHasExactDurationAndDecodes() throws {
        for format in [PCMFormat.snapcastDefault, PCMFormat(sampleRate: 44100, bitsPerSample: 24, channels: 1)] {
            let url = try write(seconds: 3, format: format, finish: true)
            defer { try? FileManager.default.removeItem(at: url) }
            let file = try Data(contentsOf: url)
            XCTAssertEqual(file.count, 44 + 3 * format.bytesPerSecond, "header plus every PCM byte, none overwritten")
            XCTAssertEqual(Array(file[44..<44 + format.bitsPerSample / 8]), Array(withUnsafeBytes(of: (Int32(8_000) << (format.bitsPerSample - 16)).littleEndian) { Array($0.prefix(format.bitsPerSample / 8)) }),
                           "the first sample follows the header")
            let probe = try FFprobe.inspect(url)
            XCTAssertEqual(probe.duration ?? 0, 3, accuracy: 0.001, "\(format)")
            XCTAssertEqual(probe.audio?.sampleRate, format.sampleRate)
            XCTAssertEqual(try FFprobe.decodeErrors(url), 0)
        }
    }

    func testUnfinishedFileStillOpensUpToTheLastHeaderUpdate() throws {
        // The header is rewritten every 2 s of audio: after 5 s unfinished, at least 4 s are declared.
        let url = try write(seconds: 5, format: .snapcastDefault, finish: false)
        defer { try? FileManager.default.removeItem(at: url) }
        let probe = try FFprobe.inspect(url)
        XCTAssertGreaterThanOrEqual(probe.duration ?? 0, 4)
    }

    func testFullDiskIsAnErrorNamingTheReason() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
        XCTAssertThrowsError(try WAVFileSink(path: "/dev/full", format: .snapcastDefault)) { error in
            XCTAssertEqual("\(error)", "wav:/dev/full: No space left on device")
        }
    }
}
