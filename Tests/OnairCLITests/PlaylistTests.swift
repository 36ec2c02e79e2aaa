import Foundation
import XCTest
import TestSupport

/// `onair playlists`, `like` and `hide` as a user sees them: names, the parent → children rule,
/// hidden items gone from lists and queues, and `play playlist:ID` playing the items in order.
final class PlaylistTests: XCTestCase {
    func testPlaylistsLikesAndHiddenItemsAsAUserSeesThem() throws {
        let onair = try OnairBinary()
        // Two episodes of Tone Hour: the first at 440 Hz, the second at 880 Hz.
        let icecast = try RecordedTones.record([440.0, 880.0], with: onair)
        defer { icecast.stop() }
        let recordings = OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText).compactMap { $0["id"] as? Int }
        XCTAssertEqual(recordings.count, 2)
        let sunset = onair.home.file("sunset.mp3")
        try FileManager.default.copyItem(at: try AudioFixtures.sine(frequency: 660, seconds: 2, codec: .mp3), to: sunset)

        func created(_ name: String) throws -> (id: String, name: String) {
            let event = try XCTUnwrap(OnairBinary.events(try onair.run(["playlists", "create", name, "--json"]).stdoutText).first)
            return (event["id"] as? String ?? "", event["name"] as? String ?? "")
        }
        XCTAssertEqual(try created("").name, "New playlist")
        let evening = try created("Evening")
        XCTAssertEqual(try created("Evening").name, "Evening (2)")
        XCTAssertEqual(try created("Liked").name, "Liked (2)", "Liked is the system playlist's name")

        // A programme is added as its episodes, oldest first.
        let add = try onair.run(["playlists", "add", evening.id, sunset.path, "tone-hour", "station:tones"])
        XCTAssertTrue(add.succeeded, "\(add)")
        func show(_ playlist: String) throws -> [String] {
            OnairBinary.events(try onair.run(["playlists", "show", playlist, "--json"]).stdoutText).map {
                let item = $0["item"] as? [String: Any] ?? [:]
                return "\(item["kind"] as? String ?? ""):\(item["ref"] as? String ?? "")"
            }
        }
        let (first, second) = ("recording:\(recordings[0])", "recording:\(recordings[1])")
        XCTAssertEqual(try show(evening.id), ["file:\(sunset.standardizedFileURL.path)", first, second, "station:tones"])
        XCTAssertTrue(try onair.run(["playlists", "move", evening.id, "1", "3"]).succeeded)
        XCTAssertEqual(try show(evening.id), [first, second, "file:\(sunset.standardizedFileURL.path)", "station:tones"])

        // Hidden: out of the playlist and out of the programme's queue.
        XCTAssertTrue(try onair.run(["hide", "\(recordings[0])"]).succeeded)
        XCTAssertEqual(try show(evening.id), [second, "file:\(sunset.standardizedFileURL.path)", "station:tones"])
        let programme = try onair.run(["play", "tone-hour", "--sink", "wav:\(onair.home.file("programme.wav").path)", "--json"])
        XCTAssertEqual(OnairBinary.events(programme.stdoutText).filter { $0["event"] as? String == "playing" }.count, 1, "\(programme)")
        XCTAssertEqual(try PCMAudio(wavFile: onair.home.file("programme.wav")).dominantFrequency() ?? 0, 880, accuracy: 3)

        // The playlist plays in its order: the 880 Hz episode, then the file; the live station is passed over.
        let wav = onair.home.file("evening.wav")
        let played = try onair.run(["play", "playlist:\(evening.id)", "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(played.succeeded, "\(played)")
        XCTAssertTrue(played.stderrText.contains("skipping Tones FM: a live station (listen with: onair listen tones)"), played.stderrText)
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 4, accuracy: 0.3)
        XCTAssertEqual(audio.slice(from: 0.3, to: 1.6).dominantFrequency() ?? 0, 880, accuracy: 3)
        XCTAssertEqual(audio.slice(from: audio.duration - 1.6, to: audio.duration - 0.3).dominantFrequency() ?? 0, 660, accuracy: 3)

        // Liked items form "Liked", in the order liked.
        XCTAssertTrue(try onair.run(["like", sunset.path]).succeeded)
        XCTAssertTrue(try onair.run(["like", second]).succeeded)
        XCTAssertEqual(try show("liked"), ["file:\(sunset.standardizedFileURL.path)", second])
        let lists = OnairBinary.events(try onair.run(["playlists", "--json"]).stdoutText)
        XCTAssertEqual(lists.first?["name"] as? String, "Liked")
        XCTAssertEqual(lists.first?["items"] as? Int, 2)
        let likedWAV = onair.home.file("liked.wav")
        XCTAssertTrue(try onair.run(["play", "playlist:liked", "--sink", "wav:\(likedWAV.path)"]).succeeded)
        let liked = try PCMAudio(wavFile: likedWAV)
        XCTAssertEqual(liked.slice(from: 0.3, to: 1.6).dominantFrequency() ?? 0, 660, accuracy: 3)
        XCTAssertEqual(liked.slice(from: liked.duration - 1.6, to: liked.duration - 0.3).dominantFrequency() ?? 0, 880, accuracy: 3)

        // Search finds playlists by name and items by title.
        let search = OnairBinary.events(try onair.run(["playlists", "search", "SUNSET", "--json"]).stdoutText)
        XCTAssertEqual(search.map { $0["position"] as? Int }, [2])
        XCTAssertEqual(search.first?["playlistName"] as? String, "Evening")
        let byName = try onair.run(["playlists", "search", "even"])
        XCTAssertTrue(byName.stdoutText.contains("Evening (2)") && byName.stdoutText.contains("playlist \(evening.id)"), byName.stdoutText)

        XCTAssertTrue(try onair.run(["playlists", "delete", evening.id]).succeeded)
        let gone = try onair.run(["playlists", "show", evening.id])
        XCTAssertEqual(gone.status, 4, "\(gone)")
        XCTAssertEqual(gone.stderrText, "onair: no playlist \(evening.id) (see: onair playlists)\n")
    }
}
