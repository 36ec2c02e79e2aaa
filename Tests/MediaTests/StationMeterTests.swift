import CFFmpeg
@testable import Media
import XCTest

/// The level that decides dead air, measured on frames as decoders hand them over: planar float
/// (MP3, AAC, Vorbis) and interleaved 16-bit (FLAC).
final class StationMeterTests: XCTestCase {
    /// A stereo frame of 1152 samples whose every sample is `value` (full scale 1.0), in `format`.
    private func frame(_ format: AVSampleFormat, value: Double) throws -> UnsafeMutablePointer<AVFrame> {
        var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        let made = try XCTUnwrap(frame)
        made.pointee.nb_samples = 1152
        made.pointee.sample_rate = 48000
        made.pointee.format = format.rawValue
        av_channel_layout_default(&made.pointee.ch_layout, 2)
        XCTAssertEqual(av_frame_get_buffer(made, 0), 0)
        let planar = av_sample_fmt_is_planar(format) != 0
        for plane in 0..<(planar ? 2 : 1) {
            let count = planar ? 1152 : 2304
            let raw = UnsafeMutableRawPointer(made.pointee.extended_data[plane]!)
            switch format {
            case AV_SAMPLE_FMT_FLTP: raw.assumingMemoryBound(to: Float.self).update(repeating: Float(value), count: count)
            case AV_SAMPLE_FMT_S16: raw.assumingMemoryBound(to: Int16.self).update(repeating: Int16(value * 32767), count: count)
            default: XCTFail("format not set up")
            }
        }
        addTeardownBlock { av_frame_free(&frame) }
        return made
    }

    func testAudioBelowTheLevelCountsAsQuietAndAboveAsSoundWhateverTheSampleFormat() throws {
        for format in [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16] {
            let meter = StationMeter(quietBelow: -50)
            // −60 dBFS for 10 frames (0.24 s): quiet.
            let quiet = try frame(format, value: 0.001)
            for _ in 0..<10 { meter.measure(quiet) }
            XCTAssertEqual(meter.quietSeconds, 0.24, accuracy: 0.001, "\(format)")
            XCTAssertEqual(meter.soundSeconds, 0)
            // −40 dBFS: sound, and the quiet stretch is over.
            meter.measure(try frame(format, value: 0.01))
            XCTAssertEqual(meter.quietSeconds, 0)
            XCTAssertEqual(meter.soundSeconds, 0.024, accuracy: 0.001)
            XCTAssertEqual(meter.decodedSeconds, 0.264, accuracy: 0.001, "every frame counts as decoded")
        }
    }

    func testWithoutALevelNothingIsJudgedButDecodedAudioCounts() throws {
        let meter = StationMeter()
        XCTAssertFalse(meter.measuresLevel)
        meter.measure(try frame(AV_SAMPLE_FMT_FLTP, value: 0))
        XCTAssertEqual(meter.quietSeconds, 0)
        XCTAssertEqual(meter.decodedSeconds, 0.024, accuracy: 0.001)
    }
}
