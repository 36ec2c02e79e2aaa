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
        XCTAssertEqual(tag.tags(container: .adts, codec: "aac"), [:])
        XCTAssertNil(LoudnessTag { _ in nil })
    }

    /// MP4 keeps ReplayGain in iTunes freeform atoms, which FFmpeg's muxer does not write: onair adds them
    /// to the finished file, moving the audio behind the index along.
    func testAnMP4GetsItsReplayGainAsFreeformAtomsAndStillPlaysWhole() throws {
        let directory = try TemporaryDirectory(prefix: "onair-mp4-tags")
        let source = try AudioFixtures.sine(frequency: 440, seconds: 6, codec: .aacADTS, bitrate: 128)
        let tag = LoudnessTag(integrated: -27.5, peak: 0.25)
        let tags = tag.tags(container: .mp4, codec: "aac")
        XCTAssertEqual(tags, ["----:com.apple.iTunes:replaygain_track_gain": "9.50 dB", "----:com.apple.iTunes:replaygain_track_peak": "0.250000"])
        let output = directory.url.appendingPathComponent("tagged.m4a")
        let written = try ContainerRemux.remux(input: source.path, output: output.path, container: .mp4,
                                               metadata: tags.merging(["title": "Tone & more"]) { $1 },
                                               chapters: [Chapter(start: 0, end: 3, title: "One"), Chapter(start: 3, end: 6, title: "Two")])

        let probe = try FFprobe.inspect(output)
        XCTAssertEqual(probe.tags["replaygain_track_gain"], "9.50 dB", "\(probe.tags)")
        XCTAssertEqual(probe.tags["replaygain_track_peak"], "0.250000")
        XCTAssertEqual(probe.tags["title"], "Tone & more", "the muxer's own atoms stay")
        XCTAssertEqual(try MediaFile(path: output.path, format: .snapcastDefault).loudness, tag, "onair's player reads it back")
        // As a tagger reads it: the name foobar2000 and Picard use.
        let mutagen = try ProcessRunner.run("python3", ["-c", """
            import mutagen.mp4, sys
            print(bytes(mutagen.mp4.MP4(sys.argv[1]).tags["----:com.apple.iTunes:replaygain_track_gain"][0]).decode())
            """, output.path])
        if mutagen.stderrText.contains("No module named 'mutagen'") {
            print("mutagen is not installed (scripts/setup installs it): the tag is read by FFmpeg only")
        } else {
            XCTAssertEqual(mutagen.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "9.50 dB", mutagen.stderrText)
        }
        // The audio follows the index (faststart): its chunk offsets moved with it.
        XCTAssertEqual(try FFprobe.decodeErrors(output), 0)
        let audio = try FFprobe.decodePCM(output)
        XCTAssertEqual(audio.duration, written.duration, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(audio.dominantFrequency()), 440, accuracy: 5)
        let chapters = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv=p=0", output.path], timeout: 30)
            .check().stdoutText
        XCTAssertTrue(chapters.contains("One") && chapters.contains("Two"), chapters)
    }
}
