import Foundation
import XCTest
import TestSupport

/// `onair record --format`: the decoded stream re-encoded, into the container of that format.
final class RecordFormatsTests: XCTestCase {
    func testReEncodedRecordingsAndTracksGetTheirFormatsContainer() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let audio = try Data(contentsOf: AudioFixtures.tones([
            Tone(frequency: 440, seconds: 3), .silence(seconds: 1), Tone(frequency: 880, seconds: 3),
        ], codec: .mp3, bitrate: 128))
        let writer = ICYStreamWriter(audio: audio, metaint: 8000, schedule: [
            .title("One - Song", atAudioByte: 0), .title("Two - Song", atAudioByte: 3 * 16_000 + 8000),
        ])
        server.route("/tones.mp3", FixtureHTTPServer.icyStream(writer, contentType: "audio/mpeg"))
        let url = server.url("/tones.mp3").absoluteString

        for (format, codec, fileExtension) in [("opus", "opus", "opus"), ("m4a", "aac", "m4a"), ("flac", "flac", "flac")] {
            let result = try onair.run(["record", url, "--format", format, "--duration", "6.5", "--json"])
            XCTAssertTrue(result.succeeded, "\(format): \(result)")
            let recording = try XCTUnwrap(RecordedFile.finished(result.stdoutText).first, "\(format): \(result.stdoutText)")
            let file = URL(fileURLWithPath: try XCTUnwrap(recording["file"] as? String))
            XCTAssertEqual(file.pathExtension, fileExtension)
            XCTAssertEqual(recording["codec"] as? String, codec)
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, format)
            XCTAssertEqual(try FFprobe.decodePCM(file).duration, 6.5, accuracy: 0.15, format)
            XCTAssertEqual(try RecordedFile(url: file).chapters().map(\.title), ["One - Song", "Two - Song"], format)
        }

        let split = try onair.run(["record", url, "--format", "mp3", "--split-tracks", "--split-window", "2s", "--duration", "6.9", "--json"])
        XCTAssertTrue(split.succeeded, "\(split)")
        let tracks = RecordedFile.finished(split.stdoutText)
        XCTAssertEqual(tracks.count, 2, split.stdoutText)
        for (track, frequency) in zip(tracks, [440.0, 880]) {
            let file = URL(fileURLWithPath: try XCTUnwrap(track["file"] as? String))
            XCTAssertEqual(file.pathExtension, "mp3")
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
            XCTAssertEqual(try FFprobe.decodePCM(file).dominantFrequency() ?? 0, frequency, accuracy: 3, file.path)
        }
    }
}
