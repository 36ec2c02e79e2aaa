import Foundation
import XCTest
import TestSupport

/// `onair record --split-tracks` against a stream whose songs are separated by silences, with titles
/// that change early and late relative to the songs, and names a hostile server might send.
final class RecordSplitTracksTests: XCTestCase {
    func testEachCutLandsInTheSilenceAndHostileTitlesGiveSafeNames() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        // Songs of 4 s, 880 and 660 Hz, each followed by 1.5 s of silence: silences at 4–5.5 and 9.5–11 s.
        let audio = try Data(contentsOf: AudioFixtures.tones([
            Tone(frequency: 440, seconds: 4), .silence(seconds: 1.5), Tone(frequency: 880, seconds: 4), .silence(seconds: 1.5),
            Tone(frequency: 660, seconds: 4),
        ], codec: .mp3, bitrate: 128))
        let bytesPerSecond = 16_000
        let long = String(repeating: "Ä long title ", count: 24)
        let titles = ["../../x", "/etc/passwd\u{7}\u{1B}[31m", long]
        // The second title comes 1 s before its song's silence ends (early), the third 0.8 s after (late).
        let writer = ICYStreamWriter(audio: audio, metaint: 8000, schedule: [
            .title(titles[0], atAudioByte: 0),
            .title(titles[1], atAudioByte: Int(4.5 * Double(bytesPerSecond))),
            .title(titles[2], atAudioByte: Int(11.8 * Double(bytesPerSecond))),
        ])
        server.route("/songs.mp3", FixtureHTTPServer.icyStream(writer, contentType: "audio/mpeg"))

        let result = try onair.run(["record", server.url("/songs.mp3").absoluteString, "--split-tracks", "--duration", "14.5", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        // Tracks are finished one after another, in the order of the stream.
        let tracks = RecordedFile.finished(result.stdoutText)
        XCTAssertEqual(tracks.count, 3, result.stdoutText)
        guard tracks.count == 3 else { return }

        let recordings = onair.home.url.appendingPathComponent("recordings").standardizedFileURL.path
        var cut = 0.0
        var cuts: [Double] = []
        for (index, (track, frequency)) in zip(tracks, [440.0, 880, 660]).enumerated() {
            let path = try XCTUnwrap(track["file"] as? String)
            let file = URL(fileURLWithPath: path).standardizedFileURL
            // Inside the recordings directory, one level down (the station), whatever the title said.
            XCTAssertEqual(file.deletingLastPathComponent().deletingLastPathComponent().path, recordings, path)
            XCTAssertLessThanOrEqual(file.lastPathComponent.utf8.count, 255, path)
            XCTAssertFalse(file.lastPathComponent.unicodeScalars.contains { $0.properties.generalCategory == .control }, path)
            XCTAssertFalse(file.lastPathComponent.hasPrefix("."), path)
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, path)
            let pcm = try FFprobe.decodePCM(file)
            XCTAssertEqual(pcm.dominantFrequency() ?? 0, frequency, accuracy: 3, path)
            XCTAssertEqual((track["track"] as? [String: Any])?["completeness"] as? String,
                           index == 0 ? "cut-at-start" : index == 2 ? "cut-at-end" : "whole", path)
            XCTAssertEqual(file.lastPathComponent.contains("(partial)"), index != 1, path)
            cut += pcm.duration
            cuts.append(cut)
        }
        // Where each track ends in the stream: inside the silence that follows its song.
        XCTAssertGreaterThan(cuts[0], 4.0, "first cut at \(cuts[0]) s")
        XCTAssertLessThan(cuts[0], 5.5, "first cut at \(cuts[0]) s")
        XCTAssertGreaterThan(cuts[1], 9.5, "second cut at \(cuts[1]) s")
        XCTAssertLessThan(cuts[1], 11.0, "second cut at \(cuts[1]) s")
        XCTAssertEqual(cuts[2], 14.5, accuracy: 0.3, "the tracks together are the whole recording")
    }

    func testSkippedTitlesAreNotWritten() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let audio = try Data(contentsOf: AudioFixtures.tones([
            Tone(frequency: 440, seconds: 3), .silence(seconds: 1), Tone(frequency: 880, seconds: 3), .silence(seconds: 1),
            Tone(frequency: 660, seconds: 3),
        ], codec: .mp3, bitrate: 128))
        let writer = ICYStreamWriter(audio: audio, metaint: 8000, schedule: [
            .title("Band - Song", atAudioByte: 0), .title("ADVERT: buy now", atAudioByte: 3 * 16_000 + 8000),
            .title("Band - Next Song", atAudioByte: 7 * 16_000 + 8000),
        ])
        server.route("/ads.mp3", FixtureHTTPServer.icyStream(writer, contentType: "audio/mpeg"))
        let result = try onair.run(["record", server.url("/ads.mp3").absoluteString, "--split-tracks", "--skip", "advert",
                                    "--split-window", "2s", "--duration", "10.5", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let titles = RecordedFile.finished(result.stdoutText).compactMap { ($0["titles"] as? [[String: Any]])?.first?["title"] as? String }
        XCTAssertEqual(titles.sorted(), ["Band - Next Song", "Band - Song"], result.stdoutText)
    }

    /// iHeart packs artwork, length and song/station-message into StreamTitle: the track is named by
    /// artist and title only, and the rest is kept in the finished file's entry, the index and the tags.
    func testAnIHeartTitleNamesTheTrackAndKeepsArtworkLengthAndKindInIndexAndTags() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let audio = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 4)], codec: .mp3, bitrate: 128))
        let artwork = "https://i.iheart.com/v3/catalog/track/345521489?ops=fit(200,200),format(%22jpeg%22)"
        let raw = "Three Days Grace - text=\"Don't Wanna Go Home Tonight\" song_spot=\"M\" MediaBaseId=\"3153138\" "
            + "amgArtworkURL=\"\(artwork)\" length=\"00:03:27\" unsID=\"-1\" spotInstanceId=\"-1\""
        let writer = ICYStreamWriter(audio: audio, metaint: 8000, schedule: [.title(raw, atAudioByte: 0)])
        server.route("/iheart.mp3", FixtureHTTPServer.icyStream(writer, contentType: "audio/mpeg"))
        let result = try onair.run(["record", server.url("/iheart.mp3").absoluteString, "--split-tracks", "--duration", "3", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let track = try XCTUnwrap(RecordedFile.finished(result.stdoutText).first, result.stdoutText)
        let title = try XCTUnwrap((track["titles"] as? [[String: Any]])?.first, result.stdoutText)
        XCTAssertEqual(title["title"] as? String, "Three Days Grace - Don't Wanna Go Home Tonight")
        let details = try XCTUnwrap(title["details"] as? [String: Any], "\(title)")
        XCTAssertEqual(details["artworkURL"] as? String, artwork)
        XCTAssertEqual(details["length"] as? Double, 207)
        XCTAssertEqual(details["kind"] as? String, "song")
        let file = URL(fileURLWithPath: try XCTUnwrap(track["file"] as? String))
        XCTAssertTrue(file.lastPathComponent.contains("Don't Wanna Go Home Tonight"), file.path)
        XCTAssertFalse(file.lastPathComponent.contains("song_spot"), file.path)
        let probe = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_format", "-of", "json", file.path], timeout: 60).check()
        let format = (try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["format"] as? [String: Any]
        let tags = (format?["tags"] as? [String: String] ?? [:]).reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value }
        XCTAssertEqual(tags["title"], "Don't Wanna Go Home Tonight", "\(tags)")
        XCTAssertEqual(tags["artist"], "Three Days Grace", "\(tags)")
        XCTAssertEqual(tags["artwork_url"], artwork, "\(tags)")
        XCTAssertEqual(tags["announced_length"], "0:03:27", "\(tags)")
        XCTAssertEqual(tags["title_kind"], "song", "\(tags)")
        let listed = try onair.run(["recordings", "list", "--json"])
        XCTAssertTrue(listed.stdoutText.contains("345521489"), "the index keeps the artwork URL: \(listed.stdoutText)")
    }
}
