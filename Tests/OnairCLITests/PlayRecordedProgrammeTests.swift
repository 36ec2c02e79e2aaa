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

    func testAnAttachedPodcastsEpisodesJoinTheProgrammesRecordingsByDate() throws {
        let onair = try OnairBinary()
        let icecast = try RecordedTones.record([440.0, 880.0], with: onair)
        defer { icecast.stop() }
        // The programme's podcast: one episode published long before the recordings, at 660 Hz.
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let episode = try Data(contentsOf: AudioFixtures.sine(frequency: 660, seconds: 2, codec: .mp3))
        server.route("/ep.mp3", FixtureHTTPServer.file(episode, contentType: "audio/mpeg"))
        server.route("/feed.xml", FixtureHTTPServer.file(Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Tone Hour podcast</title>
          <item><title>Tone Hour: the pilot</title><guid>pilot</guid><pubDate>Wed, 01 Jan 2020 06:00:00 +0000</pubDate>
            <enclosure url="\(server.url("/ep.mp3").absoluteString)" type="audio/mpeg" length="\(episode.count)"/></item>
        </channel></rss>
        """.utf8), contentType: "application/rss+xml"))
        XCTAssertTrue(try onair.run(["podcasts", "add", server.url("/feed.xml").absoluteString]).succeeded)

        let unknown = try onair.run(["podcasts", "attach", "1", "no-such-programme"])
        XCTAssertEqual(unknown.status, 4, "\(unknown)")
        let attach = try onair.run(["podcasts", "attach", "1", "tone-hour"])
        XCTAssertTrue(attach.succeeded, "\(attach)")
        XCTAssertTrue(try onair.run(["podcasts"]).stdoutText.contains("→ tone-hour"))

        let listed = OnairBinary.events(try onair.run(["recordings", "list", "--programme", "tone-hour", "--json"]).stdoutText)
        XCTAssertEqual(listed.compactMap { ($0["item"] as? [String: Any])?["kind"] as? String }, ["episode", "recording", "recording"],
                       "recorded and published episodes in one list, by date")
        let table = try onair.run(["recordings", "list", "--programme", "tone-hour"]).stdoutText
        XCTAssertTrue(table.contains("episode:1") && table.contains("2020-01-01"), table)

        let wav = onair.home.file("joined.wav")
        let played = try onair.run(["play", "tone-hour", "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(played.succeeded, "\(played)")
        let titles = OnairBinary.events(played.stdoutText).filter { $0["event"] as? String == "playing" }.compactMap { $0["title"] as? String }
        XCTAssertEqual(titles.count, 3, "\(titles)")
        XCTAssertEqual(titles.first, "Tone Hour: the pilot", "the published episode is the oldest")
        XCTAssertTrue(titles.dropFirst().allSatisfy { $0.hasPrefix("Tone Hour · ") }, "\(titles)")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.slice(from: 0.3, to: 1.6).dominantFrequency() ?? 0, 660, accuracy: 3)
        XCTAssertEqual(audio.slice(from: audio.duration - 1.6, to: audio.duration - 0.3).dominantFrequency() ?? 0, 880, accuracy: 3)

        XCTAssertTrue(try onair.run(["podcasts", "detach", "1"]).succeeded)
        let alone = try onair.run(["play", "tone-hour", "--sink", "wav:\(onair.home.file("alone.wav").path)", "--json"])
        XCTAssertEqual(OnairBinary.events(alone.stdoutText).filter { $0["event"] as? String == "playing" }.count, 2, "detached: recordings only")
    }
}
