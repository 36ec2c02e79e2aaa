@testable import Media
import XCTest

/// Which frames of an MP3 copy are decoded for the dead-air level, and what their verdicts stand for.
final class LevelSamplingTests: XCTestCase {
    /// MPEG-1 Layer III at 44.1 kHz: 1152 samples a frame.
    private let frameSeconds = 1152.0 / 44100

    func testEachSecondPrimesAFlushedDecoderThenMeasuresATenthOfASecondAndSkipsTheRest() {
        var sampling = LevelSampling()
        let steps = (0..<80).map { _ in sampling.step(seconds: frameSeconds, mainDataBytes: 381) }
        // 128 kbit/s stereo: two frames of 381 bytes of main data (417 less header and side information) hold
        // the 511 bytes a frame may reach back; four frames make 0.1 s.
        XCTAssertEqual(Array(steps[0..<6]), [.prime(flushFirst: true), .prime(flushFirst: false),
                                             .measure(last: false), .measure(last: false), .measure(last: false), .measure(last: true)])
        let decoded = steps.indices.filter { steps[$0] != .skip }
        XCTAssertEqual(decoded, Array(0..<6) + Array(39..<45) + Array(78..<80), "a window each 39 frames (1.02 s)")
        XCTAssertEqual(steps[39], .prime(flushFirst: true))
    }

    func testALowBitrateStreamIsPrimedWithEnoughFramesToFillTheBitReservoir() {
        var sampling = LevelSampling()
        // 32 kbit/s mono: 104-byte frames with 83 bytes of main data each; seven hold 581 bytes.
        let frame = [UInt8]([0xFF, 0xFB, 0x10, 0xC0]) + [UInt8](repeating: 0, count: 100)
        let mainData = frame.withUnsafeBytes { FrameIntegrity.layerIIIMainDataLength($0) }
        XCTAssertEqual(mainData, 83)
        let steps = (0..<8).map { _ in sampling.step(seconds: frameSeconds, mainDataBytes: mainData) }
        XCTAssertEqual(steps, [.prime(flushFirst: true)] + Array(repeating: .prime(flushFirst: false), count: 6) + [.measure(last: false)])
    }

    func testAWindowIsQuietOrSoundOnlyWhenEveryFrameInItIsAndStandsForTheAudioSinceTheLast() {
        var sampling = LevelSampling()
        func window(_ quiet: [Bool]) -> (StationMeter.Level, Int64) {
            var verdict: (StationMeter.Level, Int64)?
            var measured = 0
            while verdict == nil {
                switch sampling.step(seconds: frameSeconds, mainDataBytes: 381) {
                case .skip, .prime: break
                case .measure(let last):
                    sampling.note(quiet: quiet[measured])
                    measured += 1
                    if last { verdict = sampling.verdict() }
                }
            }
            return verdict!
        }
        let first = window([true, true, true, true])
        XCTAssertEqual(first.0, .quiet)
        XCTAssertEqual(Double(first.1) / 1e6, 6 * frameSeconds, accuracy: 0.001, "the first window stands for the audio up to its end")
        let second = window([false, false, false, false])
        XCTAssertEqual(second.0, .sound)
        XCTAssertEqual(Double(second.1) / 1e6, 39 * frameSeconds, accuracy: 0.001, "later ones for the second since the last")
        XCTAssertEqual(window([true, false, true, true]).0, .mixed, "a click in the silence")
    }
}
