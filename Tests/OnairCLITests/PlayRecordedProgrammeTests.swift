import Foundation
import XCTest
import TestSupport

/// `onair play PROGRAMME_ID` and `onair play RECORDING_ID` on what `onair record` put in the index.
final class PlayRecordedProgrammeTests: XCTestCase {
    func testAProgrammesEpisodesPlayInOrderAndARecordingPlaysByItsId() throws {
        let onair = try OnairBinary()
        // Two episodes of Tone Hour: the first at 440 Hz, the second at 880 Hz.
        let icecast = try RecordedTones.record([440.0, 880.0], with: onair)
        defer { icecast.stop() }

        let wav = onair.home.file("episodes.wav")
        let played = try onair.run(["play", "tone-hour", "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(played.succeeded, "\(played)")
        let events = OnairBinary.events(played.stdoutText)
        XCTAssertEqual(events.compactMap { $0["event"] as? String }, ["playing", "ended", "playing", "ended"])
        XCTAssertTrue((events[0]["title"] as? String ?? "").hasPrefix("Tone Hour · "), "\(events[0])")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 4, accuracy: 0.3)
        XCTAssertEqual(audio.slice(from: 0.3, to: 1.6).dominantFrequency() ?? 0, 440, accuracy: 3)
        XCTAssertEqual(audio.slice(from: audio.duration - 1.6, to: audio.duration - 0.3).dominantFrequency() ?? 0, 880, accuracy: 3)

        // The second recording by its id, from 1 s in.
        let list = OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText)
        let second = try XCTUnwrap(list.last?["id"] as? Int)
        let single = onair.home.file("single.wav")
        let byId = try onair.run(["play", "\(second)", "--start", "1", "--sink", "wav:\(single.path)"])
        XCTAssertTrue(byId.succeeded, "\(byId)")
        let one = try PCMAudio(wavFile: single)
        XCTAssertEqual(one.duration, 1, accuracy: 0.15)
        XCTAssertEqual(one.dominantFrequency() ?? 0, 880, accuracy: 3)

        let missing = try onair.run(["play", "no-such-programme"])
        XCTAssertEqual(missing.status, 4, "\(missing)")
        XCTAssertTrue(missing.stderrText.contains("no file, recording id, recorded programme or playlist 'no-such-programme'"), missing.stderrText)
    }
}
