import Foundation
import XCTest
import Media
import RadioModel
import TestSupport

/// onair's loudness meter against the ffmpeg CLI's ebur128, and the tags it writes and reads.
final class LoudnessTests: XCTestCase {
    func testTheMeterAgreesWithFFmpegOnTwoLevelsTenLUApart() throws {
        var readings: [Double] = []
        for gain in [0.0, -10.0] {
            let file = try AudioFixtures.sine(frequency: 440, seconds: 6, codec: .mp3, gain: gain)
            let measured = try LoudnessMeter.measure(file: file.path)
            let integrated = try XCTUnwrap(measured.integrated)
            XCTAssertEqual(integrated, try LoudnessReading.integrated(of: file), accuracy: 0.3, "gain \(gain) dB")
            // ffmpeg's sine peaks at 1/8 full scale, less 3 dB for the stereo upmix.
            XCTAssertEqual(measured.peak, 0.125 / 2.0.squareRoot() * pow(10, gain / 20), accuracy: 0.01)
            readings.append(integrated)
        }
        XCTAssertEqual(readings[0] - readings[1], 10, accuracy: 0.3)
    }

    func testSilenceHasNoLoudness() throws {
        let file = try AudioFixtures.tones([.silence(seconds: 2)], codec: .mp3)
        XCTAssertNil(try LoudnessMeter.measure(file: file.path).integrated)
    }

    func testReplayGainAndOpusTagsGiveTheLoudnessBack() throws {
        let tag = LoudnessTag(integrated: -27.5, peak: 0.25)
        let mp3 = tag.tags(container: .mp3, codec: "mp3")
        XCTAssertEqual(mp3["REPLAYGAIN_TRACK_GAIN"], "9.50 dB")
        XCTAssertEqual(mp3["REPLAYGAIN_TRACK_PEAK"], "0.250000")
        XCTAssertEqual(LoudnessTag { name in mp3[name] }, tag)
        let opus = tag.tags(container: .ogg, codec: "opus")
        XCTAssertEqual(opus, ["R128_TRACK_GAIN": "1152"])  // 4.5 dB in Q7.8
        XCTAssertEqual(LoudnessTag { name in opus[name] }?.integrated ?? 0, -27.5, accuracy: 0.01)
        XCTAssertEqual(tag.tags(container: .mp4, codec: "aac"), [:])
        XCTAssertNil(LoudnessTag { _ in nil })
    }
}
