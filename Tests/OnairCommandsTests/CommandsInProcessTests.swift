import ArgumentParser
import ClipDetection
import Foundation
import HTTPService
import Library
@testable import Recording
import OnairCommands
import RadioModel
import SharedStore
import Store
import TestSupport
import XCTest

/// The commands parsed and run inside the test process, as SwiftPM tests its `Commands` library:
/// what they print, the exit status they end with, and what they leave in the database. The
/// binary-level tests (OnairCLITests) keep what only a process shows: signals, the terminal, exit codes.
final class CommandsInProcessTests: XCTestCase {
    private var home: TemporaryDirectory!

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "onair-home")
        let catalogue = home.file("stations.json")
        try Data("""
        {"version": 1, "stations": [{"id": "tones", "name": "Tone Radio", "country": "GB", "language": "en", "timeZone": "Europe/London", "tags": [], "streams": [{"url": "http://127.0.0.1:9/tones", "kind": "icy", "codec": "mp3", "bitrate": 128}]}]}
        """.utf8).write(to: catalogue)
        setenv("ONAIR_HOME", home.url.path, 1)
        setenv("ONAIR_STATIONS", catalogue.path, 1)
        // The schedule and the recordings in PostgreSQL with ONAIR_TEST_DATABASE=postgresql, as a user's ONAIR_DATABASE_URL puts them.
        if let postgres = try TestDatabase.postgresURL() { setenv("ONAIR_DATABASE_URL", postgres, 1) }
    }

    override func tearDown() {
        unsetenv("ONAIR_HOME")
        unsetenv("ONAIR_STATIONS")
        unsetenv("ONAIR_DATABASE_URL")
        home = nil
    }

    private func onair(_ arguments: [String]) throws -> (output: CapturedOutput, status: Int32) {
        try runOnair(arguments)
    }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func testRecordJSONShowsDeadAirAndRecoveredWhenTheStationFallsSilentAndSoundReturns() throws {
        let audio = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 2), .silence(seconds: 5),
                                                               Tone(frequency: 440, seconds: 10)]))
        let station = try FixtureHTTPServer(routes: [
            "/station.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio), bytesPerSecond: 16000),
        ])
        defer { station.stop() }
        let run = try onair(["record", station.url("/station.mp3").absoluteString, "--duration", "10", "--json",
                             "--dead-air-seconds", "2", "-o", home.file("{station}").path])
        XCTAssertEqual(run.status, 0, run.output.standardError)
        let events = try jsonLines(run.output.standardOutput).filter { ["dead-air", "recovered"].contains($0["event"] as? String) }
        XCTAssertEqual(events.map { $0["event"] as? String }, ["dead-air", "recovered"], run.output.standardOutput)
        XCTAssertEqual(events.first?["level"] as? Double, -50)
        XCTAssertEqual(events.first?["station"] as? String, "127.0.0.1")
        XCTAssertEqual(events.last?["alert"] as? String, "dead-air")
        XCTAssertEqual(try XCTUnwrap(events.last?["seconds"] as? Double), 5, accuracy: 1.5, "five seconds of silence")
    }

    func testClipsAreAddedFromAStretchOfAFileListedAndRemovedByName() throws {
        let notes = (0..<40).map { Tone(frequency: 220 * pow(2, Double($0 * 7 % 24) / 12), seconds: 0.5) }
        let file = try AudioFixtures.tones(notes).path
        let added = try onair(["clips", "add", file, "--name", "Summer sale", "--kind", "ad", "--start", "2", "--length", "12"])
        XCTAssertEqual(added.status, 0, added.output.standardError)
        XCTAssertEqual(added.output.standardError, "Added clip 1 \"Summer sale\" (ad, 12.0 s).\n")
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try onair(["clips", "list", "--json"]).output.standardOutput.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed.first?["name"] as? String, "Summer sale")
        XCTAssertEqual(listed.first?["kind"] as? String, "ad")
        XCTAssertEqual(listed.first?["seconds"] as? Double, 12)

        let again = try onair(["clips", "add", file, "--name", "Summer sale"])
        XCTAssertEqual(again.status, 3)
        XCTAssertTrue(again.output.standardError.contains("a clip named \"Summer sale\" is already in the library"), again.output.standardError)
        let tooShort = try onair(["clips", "add", file, "--length", "3"])
        XCTAssertEqual(tooShort.status, 3)
        XCTAssertTrue(tooShort.output.standardError.contains("too short to be found again"), tooShort.output.standardError)

        XCTAssertEqual(try onair(["clips", "remove", "Summer sale"]).status, 0)
        XCTAssertEqual(try onair(["clips", "remove", "Summer sale"]).status, 4)
        XCTAssertEqual(try onair(["clips", "list", "--json"]).output.standardOutput, "[]\n")
    }

    /// A station that sends no titles, recorded split into tracks, is cut where the library's songs begin and end: each
    /// song's track named after it and as long as it (to half a second), also when two air back to back; what aired between
    /// them is a track of its own.
    func testAStationWithoutTitlesIsSplitWhereKnownSongsBeginAndEnd() throws {
        let songs = [("Band - One", ChordMusic(seed: 42).samples(seconds: 20)), ("Band - Two", ChordMusic(seed: 43).samples(seconds: 15))]
        for (name, samples) in songs {
            let file = home.file("\(name).mp3")
            try ChordMusic.encode(samples, to: file, options: ["-c:a", "libmp3lame", "-b:a", "192k"])
            XCTAssertEqual(try onair(["clips", "add", file.path, "--name", name, "--kind", "song"]).status, 0)
        }
        let talk = ChordMusic(seed: 41).samples(seconds: 32)
        let second = ChordMusic(seed: 41).sampleRate
        // Talk 12 s, One, talk 6 s, Two, One again back to back, talk 14 s: 87 s, no title at all.
        let stream = Array(talk[..<(12 * second)]) + songs[0].1 + Array(talk[(12 * second)..<(18 * second)]) + songs[1].1 + songs[0].1
            + Array(talk[(18 * second)...])
        let encoded = home.file("station.mp3")
        try ChordMusic.encode(stream, to: encoded, options: ["-c:a", "libmp3lame", "-b:a", "128k"])
        let station = try FixtureHTTPServer(routes: ["/station.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: try Data(contentsOf: encoded)))])
        defer { station.stop() }

        let run = try onair(["record", station.url("/station.mp3").absoluteString, "--split-tracks", "--duration", "86", "--json",
                             "-o", home.file("tracks/{title}.{ext}").path])
        XCTAssertEqual(run.status, 0, run.output.standardError)
        let tracks = try jsonLines(run.output.standardOutput).filter { $0["event"] as? String == "recording-finished" }
            .compactMap { $0["recording"] as? [String: Any] }
        let titles = tracks.map { ($0["titles"] as? [[String: Any]])?.first?["title"] as? String }
        XCTAssertEqual(titles, [nil, "Band - One", nil, "Band - Two", "Band - One", nil], run.output.standardOutput)
        var lengths: [Double] = []
        for track in tracks {
            let file = URL(fileURLWithPath: try XCTUnwrap(track["file"] as? String))
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, file.path)
            lengths.append(try FFprobe.decodePCM(file).duration)
        }
        guard lengths.count == 6 else { return }
        for (length, expected) in zip(lengths, [12.0, 20, 6, 15, 20, 13]) {
            XCTAssertEqual(length, expected, accuracy: 0.5, "\(lengths)")
        }
    }

    /// A clip cut from a recording of the index (`--from`) and from a podcast episode (`--episode`, downloaded for it), named
    /// after them; exactly one source is taken.
    func testClipsAreCutFromARecordingAndFromAPodcastEpisode() throws {
        let audio = home.file("show.mp3")
        try ChordMusic.encode(ChordMusic(seed: 9).samples(seconds: 30), to: audio, options: ["-c:a", "libmp3lame", "-b:a", "128k"])
        let index: any RecordingsIndexing = try ProcessInfo.processInfo.environment["ONAIR_DATABASE_URL"].map {
            try PostgresRecordingsIndex(database: try SharedDatabase(location: try PostgresLocation(url: $0)))
        } ?? RecordingsIndex(directory: AppPaths(environment: ["ONAIR_HOME": home.url.path]).data)
        let entry = try index.add(FinishedRecording(station: StationLabel(id: "tones", name: "Tone Radio"),
                                                    programme: ProgrammeLabel(id: "morning", name: "Morning Show"), start: Date(), end: Date(),
                                                    timeZone: "UTC", file: audio.path, cueSheet: nil, size: 5, duration: 30, codec: "mp3",
                                                    container: "mp3", titles: [], gaps: [], source: "test", track: nil))
        let fromRecording = try onair(["clips", "add", "--from", String(entry.id!), "--start", "5", "--length", "12", "--kind", "jingle"])
        XCTAssertEqual(fromRecording.output.standardError, "Added clip 1 \"Morning Show\" (jingle, 12.0 s).\n")
        XCTAssertEqual(try onair(["clips", "add", "--from", "999", "--length", "12"]).status, 4)
        XCTAssertEqual(try onair(["clips", "add", audio.path, "--from", String(entry.id!)]).status, 64, "one source")

        let server = try FixtureHTTPServer(routes: ["/1.mp3": FixtureHTTPServer.file(try Data(contentsOf: audio), contentType: "audio/mpeg")])
        defer { server.stop() }
        server.route("/feed.xml", FixtureHTTPServer.file(Data("""
            <rss version="2.0"><channel><title>Tone Talk</title>
            <item><title>The theme</title><guid>1</guid><enclosure url="\(server.url("/1.mp3").absoluteString)" type="audio/mpeg"/></item>
            </channel></rss>
            """.utf8), contentType: "application/rss+xml"))
        XCTAssertEqual(try onair(["podcasts", "add", server.url("/feed.xml").absoluteString]).status, 0)
        let fromEpisode = try onair(["clips", "add", "--episode", "1", "--length", "10", "--kind", "jingle"])
        XCTAssertEqual(fromEpisode.output.standardError, "Added clip 2 \"The theme\" (jingle, 10.0 s).\n")
        XCTAssertEqual(try onair(["clips", "add", "--episode", "9", "--length", "10"]).status, 4)
    }

    /// A 15-s spot spliced in at second 20 of a station's stream (MP3, then AAC at 64 kbit/s and 6 dB quieter) is
    /// told once, where it began and for how long; the same music without it tells nothing. The streams are sent
    /// eight times faster than they play: the media time is the stream's own, however fast it came.
    func testMonitorTellsTheAiringOfAClipOnceWhereItBeganOnMP3AndAACAndNothingWithoutIt() throws {
        let spot = ChordMusic(seed: 77).samples(seconds: 15), music = ChordMusic(seed: 78).samples(seconds: 45)
        let clipFile = home.file("spot.wav")
        try ChordMusic.encode(spot, to: clipFile)
        XCTAssertEqual(try onair(["clips", "add", clipFile.path, "--name", "Summer sale", "--kind", "ad"]).status, 0)
        let splice = 20 * 11025
        let aired = Array(music[..<splice]) + spot + Array(music[splice...])

        let streams: [(name: String, audio: [Int16], options: [String], type: String)] = [
            ("aired.mp3", aired, ["-c:a", "libmp3lame", "-b:a", "128k"], "audio/mpeg"),
            ("aired.aac", aired, ["-c:a", "aac", "-b:a", "64k", "-af", "volume=-6dB", "-f", "adts"], "audio/aac"),
            ("without.mp3", music, ["-c:a", "libmp3lame", "-b:a", "128k"], "audio/mpeg"),
        ]
        for stream in streams {
            let file = home.file(stream.name)
            try ChordMusic.encode(stream.audio, to: file, options: stream.options)
            let bytes = try Data(contentsOf: file)
            let server = try FixtureHTTPServer(routes: [
                "/station": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: bytes), contentType: stream.type,
                                                        bytesPerSecond: Int(Double(bytes.count) / 60 * 8)),
            ])
            defer { server.stop() }
            let run = try onair(["monitor", server.url("/station").absoluteString, "--duration", "58", "--json"])
            XCTAssertEqual(run.status, 0, "\(stream.name): \(run.output.standardError)")
            let matches = try jsonLines(run.output.standardOutput).filter { $0["event"] as? String == "clip-matched" }
            guard stream.name != "without.mp3" else {
                XCTAssertEqual(matches.count, 0, "\(stream.name): \(matches)")
                continue
            }
            XCTAssertEqual(matches.count, 1, "\(stream.name): \(run.output.standardOutput)")
            let match = try XCTUnwrap(matches.first)
            XCTAssertEqual(match["clip"] as? String, "Summer sale")
            XCTAssertEqual(match["kind"] as? String, "ad")
            XCTAssertEqual(match["station"] as? String, server.url("/station").absoluteString)
            XCTAssertEqual(try XCTUnwrap(match["mediaTime"] as? Double), 20, accuracy: 0.5, stream.name)
            XCTAssertEqual(match["offset"] as? Double, 0)
            XCTAssertEqual(match["partial"] as? Bool, false)
            let start = try XCTUnwrap(Timestamp.parse(try XCTUnwrap(match["start"] as? String)))
            let end = try XCTUnwrap(Timestamp.parse(try XCTUnwrap(match["end"] as? String)))
            XCTAssertEqual(end.timeIntervalSince(start), 15, accuracy: 0.1)
        }

        // Kept for `onair aired`: both airings, in UTC and station time; none of another kind.
        let kept = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try onair(["aired", "Summer sale", "--since", "1h", "--json"])
            .output.standardOutput.utf8)) as? [[String: Any]])
        XCTAssertEqual(kept.count, 2, "\(kept)")
        XCTAssertEqual(kept.compactMap { $0["timeZone"] as? String }, ["UTC", "UTC"], "a URL's station has no clock of its own")
        XCTAssertEqual(kept.compactMap { $0["seconds"] as? Double }, [15, 15])
        let csv = try onair(["aired", "--kind", "ad", "--csv"]).output.standardOutput.split(separator: "\n")
        XCTAssertEqual(csv.first, "clip,kind,station,start_utc,end_utc,station_time,time_zone,seconds,offset,partial,score")
        XCTAssertEqual(csv.count, 3)
        XCTAssertTrue(csv.dropFirst().allSatisfy { $0.hasPrefix("Summer sale,ad,http://127.0.0.1:") }, "\(csv)")
        XCTAssertEqual(Set(kept.compactMap { $0["station"] as? String }).count, 2, "two stations, each by its URL")
        XCTAssertEqual(try onair(["aired", "--kind", "song", "--json"]).output.standardOutput, "[]\n")
        XCTAssertEqual(try onair(["aired", "--since", "yesterday-ish"]).status, 64, "neither a span nor a date")
    }

    /// A catalogue station's airings are told on its own clock too (the catalogue's time zone).
    func testAiredTellsACatalogueStationsAiringOnItsClock() throws {
        // Where the commands keep them: in the database daemons share with ONAIR_DATABASE_URL, else in the data directory's.
        let log = try ProcessInfo.processInfo.environment["ONAIR_DATABASE_URL"].map {
            try ClipStores(shared: try SharedDatabase(location: try PostgresLocation(url: $0)))
        } ?? ClipStores(dataDirectory: AppPaths(environment: ["ONAIR_HOME": home.url.path]).data)
        let start = try XCTUnwrap(Timestamp.parse("2026-07-01T11:00:05.000Z"))
        try log.airings.add(ClipSighting(clip: "Jingle, long", kind: "jingle", station: "tones", start: start, end: start.addingTimeInterval(8),
                                 mediaTime: 3605, offset: 2, score: 0.9, partial: true))
        let text = try onair(["aired"]).output.standardOutput
        XCTAssertEqual(text, "tones\t2026-07-01T11:00:05.000Z\t2026-07-01 12:00:05 Europe/London\t8.0 s (part, from 2.0 s)\tJingle, long (jingle)\n")
        let csv = try onair(["aired", "--csv"]).output.standardOutput.split(separator: "\n")
        XCTAssertEqual(csv.last, "\"Jingle, long\",jingle,tones,2026-07-01T11:00:05.000Z,2026-07-01T11:00:13.000Z,2026-07-01 12:00:05,Europe/London,8.0,2.0,true,0.9")
    }

    func testCreatedPlaylistsAreNamedAsTheUserExpectsAndStored() throws {
        let first = try onair(["playlists", "create", "", "--json"])
        let second = try onair(["playlists", "create", "", "--json"])
        XCTAssertEqual(first.status, 0, first.output.standardError)
        XCTAssertEqual(try jsonLines(first.output.standardOutput).first?["name"] as? String, "New playlist")
        XCTAssertEqual(try jsonLines(second.output.standardOutput).first?["name"] as? String, "New playlist (2)")

        let store = try LibraryStore(database: try OnairDatabase(directory: AppPaths(environment: ["ONAIR_HOME": home.url.path]).data))
        XCTAssertEqual(try store.playlists().map(\.playlist.name), ["New playlist", "New playlist (2)"])
    }

    func testARenamedPlaylistFollowsTheNamingRuleAndAStationIsLikedByItsURL() throws {
        _ = try onair(["playlists", "create", "Jazz"])
        _ = try onair(["playlists", "create", "Talk"])
        let taken = try onair(["playlists", "rename", "2", "Jazz"])
        XCTAssertEqual(taken.output.standardOutput, "Renamed playlist 2: Jazz (2)\n", taken.output.standardError)
        XCTAssertEqual(try onair(["playlists", "rename", "1", "Jazz"]).output.standardOutput, "Renamed playlist 1: Jazz\n", "its own name stays")
        XCTAssertEqual(try onair(["playlists", "rename", "9", "x"]).status, 4)

        let url = "http://127.0.0.1:9/other.mp3"
        let liked = try onair(["like", "station:\(url)"])
        XCTAssertEqual(liked.status, 0, liked.output.standardError)
        let store = try LibraryStore(database: try OnairDatabase(directory: AppPaths(environment: ["ONAIR_HOME": home.url.path]).data))
        XCTAssertEqual(try store.liked().map(\.reference), ["station:\(url)"])
    }

    func testAFeedReadLenientlyIsFollowedWithOneWarningLineEach() throws {
        let server = try FixtureHTTPServer(routes: ["/feed.xml": FixtureHTTPServer.file(Data("""
            <rss version="2.0"><channel><title>Tone Talk</title>
            <item><title>One</title><guid>1</guid><itunes:duration>62</itunes:duration>
            <enclosure url="http://127.0.0.1:9/1.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8), contentType: "application/rss+xml")])
        defer { server.stop() }
        let added = try onair(["podcasts", "add", server.url("/feed.xml").absoluteString])
        XCTAssertEqual(added.status, 0, added.output.standardError)
        XCTAssertEqual(added.output.standardOutput, "1  Tone Talk: 1 new episode\n")
        let lines = added.output.standardError.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, added.output.standardError)
        XCTAssertTrue(lines.first?.hasPrefix("onair: warning: http://127.0.0.1:") == true, added.output.standardError)
        XCTAssertTrue(lines.first?.contains("prefix itunes: without declaring it") == true, added.output.standardError)
    }

    func testARemovedPodcastIsNoLongerFollowed() throws {
        let server = try FixtureHTTPServer(routes: ["/feed.xml": FixtureHTTPServer.file(Data("""
            <rss version="2.0"><channel><title>Tone Talk</title>
            <item><title>One</title><guid>1</guid><enclosure url="http://127.0.0.1:9/1.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8), contentType: "application/rss+xml")])
        defer { server.stop() }
        XCTAssertEqual(try onair(["podcasts", "add", server.url("/feed.xml").absoluteString]).status, 0)
        let removed = try onair(["podcasts", "remove", "1"])
        XCTAssertEqual(removed.output.standardOutput, "Stopped following Tone Talk\n", removed.output.standardError)
        XCTAssertEqual(try onair(["podcasts", "list", "--json"]).output.standardOutput, "")
        let again = try onair(["podcasts", "remove", "1"])
        XCTAssertEqual(again.status, 4)
        XCTAssertEqual(again.output.standardError, "onair: no podcast 1 (see: onair podcasts)\n")
    }

    func testAMissingPlaylistIsOnePlainLineAndExitStatusFour() throws {
        let run = try onair(["playlists", "show", "99"])
        XCTAssertEqual(run.status, 4)
        XCTAssertEqual(run.output.standardError, "onair: no playlist 99 (see: onair playlists)\n")
        XCTAssertEqual(run.output.standardOutput, "")
    }

    func testStationsAreListedFromTheCatalogueTheEnvironmentNames() throws {
        let run = try onair(["stations", "tone", "--json"])
        XCTAssertEqual(run.status, 0, run.output.standardError)
        XCTAssertEqual(try jsonLines(run.output.standardOutput).map { $0["id"] as? String }, ["tones"])
    }

    func testAnUnknownStationIsAConfigurationError() throws {
        let run = try onair(["stations", "show", "no-such-station"])
        XCTAssertEqual(run.status, 3)
        XCTAssertTrue(run.output.standardError.hasPrefix("onair: "), run.output.standardError)
        XCTAssertTrue(run.output.standardError.contains("no-such-station"), run.output.standardError)
    }

    func testAMisusedCommandIsAUsageError() throws {
        let run = try onair(["playlists", "move", "1"])
        XCTAssertEqual(run.status, 64)
    }

    func testTheDaemonRefusesToServeHTTPBeyondThisMachineWithoutCredentialsInOnePlainLine() throws {
        let remote = try onair(["daemon", "--http", "0.0.0.0:8080"])
        XCTAssertEqual(remote.status, 3)
        XCTAssertEqual(remote.output.standardError, "onair: --http 0.0.0.0:8080 would let other machines in with no login: set a password with "
                       + "`onair web password` (or a token with `onair web token create NAME`) first, or serve 127.0.0.1\n")
        let garbled = try onair(["daemon", "--http", "localhost"])
        XCTAssertEqual(garbled.status, 3)
        XCTAssertEqual(garbled.output.standardError, "onair: invalid --http 'localhost': use ADDR:PORT (127.0.0.1:8080) or off\n")
    }

    func testARuleKeepsDaysAndARecordingIsKeptAndLetGo() throws {
        let added = try onair(["schedule", "add", "tones", "--at", "fri 22:00", "--for", "1h", "--keep", "4", "--keep-days", "14", "--json"])
        XCTAssertEqual(added.status, 0, added.output.standardError)
        XCTAssertEqual(try jsonLines(added.output.standardOutput).first?["keepDays"] as? Int, 14)
        let listed = try onair(["schedule", "list"])
        XCTAssertTrue(listed.output.standardOutput.contains("4, 14 days"), listed.output.standardOutput)
        XCTAssertEqual(try onair(["schedule", "add", "tones", "--at", "fri 22:00", "--for", "1h", "--keep-days", "0"]).status, 64)

        let file = home.file("recorded.mp3")
        try Data("audio".utf8).write(to: file)
        let index: any RecordingsIndexing = try ProcessInfo.processInfo.environment["ONAIR_DATABASE_URL"].map {
            try PostgresRecordingsIndex(database: try SharedDatabase(location: try PostgresLocation(url: $0)))
        } ?? RecordingsIndex(directory: AppPaths(environment: ["ONAIR_HOME": home.url.path]).data)
        let entry = try index.add(FinishedRecording(station: StationLabel(id: "tones", name: "Tone Radio"), programme: nil, start: Date(),
                                                    end: Date(), timeZone: "UTC", file: file.path, cueSheet: nil, size: 5, duration: 1,
                                                    codec: "mp3", container: "mp3", titles: [], gaps: [], source: "test", track: nil))
        let id = String(entry.id!)
        let kept = try onair(["recordings", "keep", id])
        XCTAssertEqual(kept.status, 0, kept.output.standardError)
        XCTAssertEqual(kept.output.standardError, "Keeping recording \(id): retention will not delete \(file.path)\n")
        XCTAssertEqual(try index.recording(id: entry.id!)?.kept, true)
        XCTAssertTrue(try onair(["recordings", "show", id]).output.standardOutput.contains("kept:      yes"))
        XCTAssertEqual(try onair(["recordings", "unkeep", id]).status, 0)
        XCTAssertEqual(try index.recording(id: entry.id!)?.kept, false)
        XCTAssertEqual(try onair(["recordings", "keep", "999"]).status, 4)
        XCTAssertEqual(try onair(["daemon", "--min-free", "lots"]).status, 64)
    }

    /// Runs `onair ARGUMENTS` with `input` on its stdin.
    private func onair(_ arguments: [String], stdin input: String) throws -> (output: CapturedOutput, status: Int32) {
        let file = home.file("stdin")
        try Data(input.utf8).write(to: file)
        let saved = dup(STDIN_FILENO), replacement = open(file.path, O_RDONLY)
        dup2(replacement, STDIN_FILENO)
        defer {
            dup2(saved, STDIN_FILENO)
            close(saved)
            close(replacement)
        }
        return try onair(arguments)
    }

    func testTheWebPasswordAndTokensAreSetListedAndRevokedAndOnlyTheirHashesKept() throws {
        let empty = try onair(["web", "password", "--password-stdin"], stdin: "\n")
        XCTAssertEqual(empty.status, 3)
        XCTAssertEqual(empty.output.standardError, "onair: the password is empty: nothing was changed\n")
        let set = try onair(["web", "password", "--password-stdin"], stdin: "hunter2 but longer\n")
        XCTAssertEqual(set.status, 0, set.output.standardError)

        let created = try onair(["web", "token", "create", "phone"])
        XCTAssertEqual(created.status, 0, created.output.standardError)
        let token = created.output.standardOutput.trimmingCharacters(in: .newlines)
        XCTAssertTrue(token.range(of: "^onair_[0-9a-f]{64}$", options: .regularExpression) != nil, token)
        let again = try onair(["web", "token", "create", "phone"])
        XCTAssertEqual(again.status, 3)
        XCTAssertEqual(again.output.standardError, "onair: a token named 'phone' exists: revoke it first, or choose another name\n")
        let listed = try onair(["web", "token", "list"])
        XCTAssertTrue(listed.output.standardOutput.hasPrefix("phone  created "), listed.output.standardOutput)
        XCTAssertFalse(listed.output.standardOutput.contains(token))

        let database = try Data(contentsOf: home.file("data/onair.sqlite"))
        XCTAssertNil(database.range(of: Data("hunter2 but longer".utf8)), "the password is not in the database")
        XCTAssertNil(database.range(of: Data(token.utf8)), "the token is not in the database")

        XCTAssertEqual(try onair(["web", "token", "revoke", "phone"]).status, 0)
        let unknown = try onair(["web", "token", "revoke", "phone"])
        XCTAssertEqual(unknown.status, 4)
        XCTAssertEqual(unknown.output.standardError, "onair: no token named 'phone' (see onair web token list)\n")
    }

    func testWebFeedsRotateAndANewPasswordGiveTheFeedsNewAddresses() throws {
        XCTAssertEqual(try onair(["web", "password", "--password-stdin"], stdin: "hunter2 but longer\n").status, 0)
        let feeds = WebAccess(credentials: try WebCredentials(database: OnairDatabase(directory: home.file("data"))))
        let first = feeds.feedAddress("/feeds/all.xml")
        XCTAssertTrue(first.hasPrefix("/feeds/all.xml?token="), first)

        let rotated = try onair(["web", "feeds", "rotate"])
        XCTAssertEqual(rotated.status, 0, rotated.output.standardError)
        XCTAssertEqual(rotated.output.standardError,
                       "The feeds have new secret addresses: give podcast apps the new ones from the recordings page.\n")
        let second = feeds.feedAddress("/feeds/all.xml")
        XCTAssertNotEqual(second, first, "the address podcast apps had is no longer the feed's")

        XCTAssertEqual(try onair(["web", "password", "--password-stdin"], stdin: "another long password\n").status, 0)
        XCTAssertNotEqual(feeds.feedAddress("/feeds/all.xml"), second, "a new password gives the feeds new addresses too")
    }
}
