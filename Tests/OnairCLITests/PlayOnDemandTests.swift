import Foundation
import XCTest
import TestSupport

/// `onair play` on recordings, through `--sink wav:`: speed without a pitch change, seeking, resuming
/// where the last run stopped, and what the database remembers between runs.
final class PlayOnDemandTests: XCTestCase {
    func testSpeedTwoHalvesTheDurationAndKeepsThePitch() throws {
        let onair = try OnairBinary()
        let file = try AudioFixtures.sine(frequency: 440, seconds: 6, codec: .mp3)
        let wav = onair.home.file("fast.wav")
        let result = try onair.run(["play", file.path, "--speed", "2", "--sink", "wav:\(wav.path)"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 3, accuracy: 0.1)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2, "atempo keeps the pitch")
    }

    func testStartLandsWithinOneFrameOfTheAskedTime() throws {
        let onair = try OnairBinary()
        // 440 Hz until 3 s, then 880 Hz: starting at 2 s, the change comes 1 s into the output.
        let file = try Self.recording(onair, tones: [440, 880], seconds: 3)
        let wav = onair.home.file("seek.wav")
        let result = try onair.run(["play", file.path, "--start", "2", "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let audio = try PCMAudio(wavFile: wav)
        let frame = 1152.0 / 44100
        XCTAssertEqual(audio.duration, 4, accuracy: frame)
        XCTAssertEqual(audio.slice(from: 1 - 0.1, to: 1 - frame).dominantFrequency() ?? 0, 440, accuracy: 5)
        XCTAssertEqual(audio.slice(from: 1 + frame, to: 1 + 0.1).dominantFrequency() ?? 0, 880, accuracy: 5)
        let playing = OnairBinary.events(result.stdoutText).first { $0["event"] as? String == "playing" }
        XCTAssertEqual(playing?["position"] as? Double ?? -1, 2, accuracy: 0.001)
    }

    func testPlaybackResumesWhereTheLastRunStoppedAndMarksTheEpisodeHeard() throws {
        let onair = try OnairBinary()
        let file = try AudioFixtures.tones([Tone(frequency: 440, seconds: 3), Tone(frequency: 880, seconds: 3)], codec: .mp3)
        let first = onair.home.file("first.wav")
        let run = try onair.start(["play", file.path, "--sink", "wav:\(first.path)", "--json"])
        Thread.sleep(forTimeInterval: 2)
        kill(run.pid, SIGINT)
        XCTAssertTrue(run.waitForExit(timeout: 10))
        let stopped = try XCTUnwrap(OnairBinary.events(run.result().stdoutText).first { $0["event"] as? String == "ended" })
        XCTAssertEqual(stopped["heard"] as? Bool, false)
        let position = try XCTUnwrap(stopped["position"] as? Double)
        XCTAssertGreaterThan(position, 1)
        XCTAssertLessThan(position, 4)
        // Played on a clock: what reached the sink is what the position says.
        XCTAssertEqual(try PCMAudio(wavFile: first).duration, position, accuracy: 0.05)

        let second = onair.home.file("second.wav")
        let result = try onair.run(["play", file.path, "--sink", "wav:\(second.path)", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let events = OnairBinary.events(result.stdoutText)
        XCTAssertEqual(events.first?["position"] as? Double ?? -1, position, accuracy: 0.001, "resumed")
        XCTAssertEqual(events.last?["heard"] as? Bool, true)
        XCTAssertEqual(try PCMAudio(wavFile: second).duration, 6 - position, accuracy: 0.05)

        let history = try onair.run(["history", "--json"])
        let played = OnairBinary.events(history.stdoutText)
        XCTAssertEqual(played.count, 2, history.stdoutText)
        XCTAssertEqual(played.first?["kind"] as? String, "recording")
    }

    /// An MP3 as the recorder writes one: with its LAME header, which tells decoders the encoder's
    /// delay and padding, so that 3 s of tone decode to exactly 3 s.
    private static func recording(_ onair: OnairBinary, tones: [Int], seconds: Int) throws -> URL {
        let file = onair.home.file("recording.mp3")
        let sources = tones.map { "sine=frequency=\($0):sample_rate=44100:duration=\(seconds)" }
        var arguments = ["-nostdin", "-loglevel", "error"]
        for source in sources { arguments += ["-f", "lavfi", "-i", source] }
        arguments += ["-filter_complex", "concat=n=\(tones.count):v=0:a=1", "-c:a", "libmp3lame", "-b:a", "128k", file.path]
        try ProcessRunner.run("ffmpeg", arguments, timeout: 30).check()
        return file
    }

    func testFavouritesPersistAcrossRuns() throws {
        let onair = try OnairBinary()
        XCTAssertTrue(try onair.run(["favourites", "add", "http://127.0.0.1:9/one.mp3"]).succeeded)
        XCTAssertTrue(try onair.run(["favourites", "add", "http://127.0.0.1:9/two.mp3"]).succeeded)
        let again = try onair.run(["favourites", "add", "http://127.0.0.1:9/one.mp3"])
        XCTAssertTrue(again.stdoutText.contains("a favourite already"), "\(again)")
        let listed = OnairBinary.events(try onair.run(["favourites", "list", "--json"]).stdoutText).compactMap { $0["station"] as? String }
        XCTAssertEqual(listed, ["http://127.0.0.1:9/one.mp3", "http://127.0.0.1:9/two.mp3"], "in the order added")
        XCTAssertTrue(try onair.run(["favourites", "remove", "http://127.0.0.1:9/one.mp3"]).succeeded)
        let missing = try onair.run(["favourites", "remove", "http://127.0.0.1:9/one.mp3"])
        XCTAssertEqual(missing.status, 4, "\(missing)")
        let left = OnairBinary.events(try onair.run(["favourites", "list", "--json"]).stdoutText).compactMap { $0["station"] as? String }
        XCTAssertEqual(left, ["http://127.0.0.1:9/two.mp3"])
    }

    func testAFileThatIsNotAudioIsOneErrorLine() throws {
        let onair = try OnairBinary()
        let junk = onair.home.file("junk.mp3")
        try Data("not audio at all".utf8).write(to: junk)
        let result = try onair.run(["play", junk.path, "--sink", "wav:\(onair.home.file("x.wav").path)"])
        XCTAssertEqual(result.status, 1, "\(result)")
        XCTAssertTrue(result.stderrText.contains("onair: \(junk.path)"), result.stderrText)
    }
}
