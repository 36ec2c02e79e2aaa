import Foundation
import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `onair podcasts` against a local feed server: following a feed, a refresh the server answers 304,
/// and an episode played through `onair play` with `--start` on the sample, resuming where it stopped.
final class PodcastTests: XCTestCase {
    func testAFeedIsFollowedRefreshedWith304AndItsEpisodePlaysSeeksAndResumes() throws {
        let onair = try OnairBinary()
        // 440 Hz for 3 s, then 880 Hz for 3 s.
        let fixture = try AudioFixtures.tones([Tone(frequency: 440, seconds: 3), Tone(frequency: 880, seconds: 3)], codec: .mp3)
        let audio = try Data(contentsOf: fixture)
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/ep1.mp3", FixtureHTTPServer.file(audio, contentType: "audio/mpeg"))
        let feed = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
          <channel><title>Tone Talk</title><description>Tones, talked about.</description>
            <item><title>Second: no audio yet</title><guid>ep2</guid><pubDate>Tue, 24 Nov 2026 06:00:00 GMT</pubDate></item>
            <item><title>Two tones</title><guid isPermaLink="false">ep1</guid><pubDate>Mon, 23 Nov 2026 06:00:00 +0000</pubDate>
              <enclosure url="\(server.url("/ep1.mp3").absoluteString)" type="audio/mpeg" length="\(audio.count)"/>
              <itunes:duration>0:06</itunes:duration><podcast:chapters url="https://example.org/ch.json" type="application/json+chapters"/>
            </item>
          </channel>
        </rss>
        """.utf8)
        server.route("/feed.xml") { request, connection in
            if request.headers["If-None-Match"] == "\"feed-1\"" {
                return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified", headers: [("Connection", "close")])
            }
            try FixtureHTTPServer.file(feed, contentType: "application/rss+xml",
                                       headers: [("ETag", "\"feed-1\""), ("Last-Modified", "Mon, 23 Nov 2026 06:00:00 GMT")])(request, connection)
        }
        let url = server.url("/feed.xml").absoluteString

        let add = try onair.run(["podcasts", "add", url])
        XCTAssertTrue(add.succeeded, "\(add)")
        XCTAssertEqual(add.stdoutText, "1  Tone Talk: 1 new episode\n", "the item without audio is left out")
        let refresh = try onair.run(["podcasts", "refresh"])
        XCTAssertEqual(refresh.stdoutText, "1  Tone Talk: not changed\n", "\(refresh)")
        // The server answers 304 to exactly the request that carries the feed's ETag.
        let requests = server.requests("/feed.xml")
        XCTAssertEqual(requests.map { $0.headers["If-None-Match"] }, [nil, "\"feed-1\""], "the second fetch was answered 304")
        XCTAssertEqual(requests.last?.headers["If-Modified-Since"], "Mon, 23 Nov 2026 06:00:00 GMT")

        let episodes = OnairBinary.events(try onair.run(["podcasts", "episodes", "1", "--json"]).stdoutText)
        XCTAssertEqual(episodes.map { $0["title"] as? String }, ["Two tones"])
        XCTAssertEqual(episodes.first?["duration"] as? Double, 6)
        XCTAssertEqual(episodes.first?["chaptersURL"] as? String, "https://example.org/ch.json")
        let episode = "episode:\(try XCTUnwrap(episodes.first?["id"] as? Int))"

        // --start 2: the change to 880 Hz comes 1 s into the output, to the frame.
        let seek = onair.home.file("seek.wav")
        let played = try onair.run(["play", episode, "--start", "2", "--sink", "wav:\(seek.path)", "--json"])
        XCTAssertTrue(played.succeeded, "\(played)")
        let sought = try PCMAudio(wavFile: seek)
        let frame = 1152.0 / 44100
        XCTAssertEqual(sought.duration, try FFprobe.decodePCM(fixture).duration - 2, accuracy: frame)
        XCTAssertEqual(sought.slice(from: 1 - 0.1, to: 1 - frame).dominantFrequency() ?? 0, 440, accuracy: 5)
        XCTAssertEqual(sought.slice(from: 1 + frame, to: 1 + 0.1).dominantFrequency() ?? 0, 880, accuracy: 5)
        // The server sends the whole file to a range request, so the episode is downloaded, not streamed.
        let downloads = { server.requests("/ep1.mp3").filter { $0.headers["Range"] == nil }.count }
        XCTAssertEqual(downloads(), 1)

        // Stopped after about 2 s, it resumes there, and is marked heard once played to its end.
        let first = try onair.start(["play", episode, "--sink", "wav:\(onair.home.file("first.wav").path)", "--json"])
        Thread.sleep(forTimeInterval: 2)
        kill(first.pid, SIGINT)
        XCTAssertTrue(first.waitForExit(timeout: 10))
        let stopped = try XCTUnwrap(OnairBinary.events(first.result().stdoutText).first { $0["event"] as? String == "ended" })
        let position = try XCTUnwrap(stopped["position"] as? Double)
        XCTAssertGreaterThan(position, 1)
        let second = try onair.run(["play", episode, "--sink", "wav:\(onair.home.file("second.wav").path)", "--json"])
        let events = OnairBinary.events(second.stdoutText)
        XCTAssertEqual(events.first?["position"] as? Double ?? -1, position, accuracy: 0.001, "resumed")
        XCTAssertEqual(events.last?["heard"] as? Bool, true)
        XCTAssertEqual(downloads(), 1, "downloaded once")

        // A podcast added to a playlist is added as its episodes.
        XCTAssertTrue(try onair.run(["playlists", "create", "Talks"]).succeeded)
        XCTAssertTrue(try onair.run(["playlists", "add", "1", "podcast:1"]).succeeded)
        let listed = OnairBinary.events(try onair.run(["playlists", "show", "1", "--json"]).stdoutText)
        XCTAssertEqual(listed.compactMap { ($0["item"] as? [String: Any])?["ref"] as? String }.map { "episode:\($0)" }, [episode])
    }

    func testKeepDownloadsTheNewestEpisodesAndDeletesOlderDownloads() throws {
        let onair = try OnairBinary()
        let audio = try Data(contentsOf: try AudioFixtures.sine(frequency: 440, seconds: 1, codec: .mp3))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let items = (1...3).map { day in
            server.route("/ep\(day).mp3", FixtureHTTPServer.file(audio, contentType: "audio/mpeg"))
            return "<item><title>Day \(day)</title><pubDate>\(20 + day) Nov 2026 06:00:00 GMT</pubDate>"
                + "<enclosure url=\"\(server.url("/ep\(day).mp3").absoluteString)\" type=\"audio/mpeg\"/></item>"
        }
        server.route("/feed.xml", FixtureHTTPServer.file(Data("<rss><channel><title>Daily</title>\(items.joined())</channel></rss>".utf8),
                                                         contentType: "application/rss+xml"))
        XCTAssertTrue(try onair.run(["podcasts", "add", server.url("/feed.xml").absoluteString]).succeeded)
        let kept = try onair.run(["podcasts", "refresh", "--keep", "2"])
        XCTAssertTrue(kept.succeeded, "\(kept)")
        XCTAssertEqual((1...3).map { server.requestCount("/ep\($0).mp3") }, [0, 1, 1], "the newest two")
        let files = OnairBinary.events(try onair.run(["podcasts", "episodes", "--json"]).stdoutText).map { $0["file"] as? String }
        XCTAssertEqual(files.map { $0 != nil }, [false, true, true])
        XCTAssertTrue(try onair.run(["podcasts", "refresh", "--keep", "1"]).stdoutText.contains("deleted \(files[1]!)"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: files[1]!))
        XCTAssertTrue(FileManager.default.fileExists(atPath: files[2]!))
    }

    /// podcast:chapters become the player's chapters: the view names them and `.` jumps to the next.
    func testPublishedChaptersAreThePlayersChapters() throws {
        guard ProcessRunner.which("tmux") != nil else { throw XCTSkip("tmux is missing: install it with scripts/setup") }
        let onair = try OnairBinary()
        let audio = try Data(contentsOf: try AudioFixtures.sine(frequency: 440, seconds: 30, codec: .mp3))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/ep.mp3", FixtureHTTPServer.file(audio, contentType: "audio/mpeg"))
        server.route("/chapters.json", FixtureHTTPServer.file(Data("""
        {"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Intro"}, {"startTime": 5, "title": "Ad", "toc": false},
                                          {"startTime": 20, "title": "Second half"}]}
        """.utf8), contentType: "application/json+chapters"))
        server.route("/feed.xml", FixtureHTTPServer.file(Data("""
        <rss xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Chaptered</title>
          <item><title>Long one</title><enclosure url="\(server.url("/ep.mp3").absoluteString)" type="audio/mpeg"/>
            <podcast:chapters url="\(server.url("/chapters.json").absoluteString)" type="application/json+chapters"/></item>
        </channel></rss>
        """.utf8), contentType: "application/rss+xml"))
        XCTAssertTrue(try onair.run(["podcasts", "add", server.url("/feed.xml").absoluteString]).succeeded)

        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        try tmux.type("\(OnairBinary.path) play episode:1 --sink wav:\(onair.home.file("view.wav").path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("chapter: Intro"), tmux.shown)
        try tmux.type(".")
        XCTAssertTrue(tmux.waitFor("chapter: Second half"), "the chapter left out of the list is skipped: \(tmux.shown)")
        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)
        XCTAssertEqual(server.requestCount("/chapters.json"), 1)
    }
}

/// Episodes streamed from a server that takes range requests: a seek near the end fetches only the
/// pieces it lands on, through the same decoder; a failed download exits 1.
final class PodcastStreamingTests: XCTestCase {
    private func follow(_ onair: OnairBinary, enclosure: URL, on server: FixtureHTTPServer) throws -> String {
        let feed = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Long Tones</title>
          <item><title>One long tone</title><guid>long</guid><pubDate>Mon, 23 Nov 2026 06:00:00 +0000</pubDate>
            <enclosure url="\(enclosure.absoluteString)" type="audio/mpeg" length="0"/></item>
        </channel></rss>
        """.utf8)
        server.route("/feed.xml", FixtureHTTPServer.file(feed, contentType: "application/rss+xml"))
        XCTAssertTrue(try onair.run(["podcasts", "add", server.url("/feed.xml").absoluteString]).succeeded)
        let episodes = OnairBinary.events(try onair.run(["podcasts", "episodes", "1", "--json"]).stdoutText)
        return "episode:\(try XCTUnwrap(episodes.first?["id"] as? Int))"
    }

    func testASeekNearTheEndFetchesOnlyTheEndOfTheEpisode() throws {
        let onair = try OnairBinary()
        // 5 minutes at 128 kbit/s: 440 Hz, then 880 Hz for its last 10 s.
        let fixture = try AudioFixtures.tones([Tone(frequency: 440, seconds: 290), Tone(frequency: 880, seconds: 10)], codec: .mp3)
        let audio = try Data(contentsOf: fixture)
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let served = Counter()
        server.route("/long.mp3", FixtureHTTPServer.rangedFile(audio, contentType: "audio/mpeg", served: served))
        let episode = try follow(onair, enclosure: server.url("/long.mp3"), on: server)

        let wav = onair.home.file("end.wav")
        let played = try onair.run(["play", episode, "--start", "4m48s", "--sink", "wav:\(wav.path)"])
        XCTAssertTrue(played.succeeded, "\(played)")
        let output = try PCMAudio(wavFile: wav)
        XCTAssertEqual(output.duration, 12, accuracy: 0.1, "played from 4:48 to the end")
        // The change to 880 Hz at 4:50 comes 2 s in, to the frame: --start lands on the sample as for a file.
        let frame = 1152.0 / 44100
        XCTAssertEqual(output.slice(from: 2 - 0.1, to: 2 - frame).dominantFrequency() ?? 0, 440, accuracy: 5)
        XCTAssertEqual(output.slice(from: 2 + frame, to: 2 + 0.1).dominantFrequency() ?? 0, 880, accuracy: 5)
        XCTAssertLessThan(served.total, audio.count / 4, "\(served.total) of \(audio.count) bytes fetched")
        XCTAssertTrue(server.requests("/long.mp3").allSatisfy { $0.headers["Range"] != nil }, "every request asks for a range")
        XCTAssertFalse(FileManager.default.fileExists(atPath: onair.home.url.appendingPathComponent("data/podcasts/1").path),
                       "nothing was downloaded")
    }

    func testAnEpisodeThatCannotBeFetchedExitsOneAsAStreamThatFailed() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/gone.mp3", FixtureHTTPServer.status(404))
        let episode = try follow(onair, enclosure: server.url("/gone.mp3"), on: server)
        let played = try onair.run(["play", episode, "--sink", "wav:\(onair.home.file("gone.wav").path)"])
        XCTAssertEqual(played.status, 1, "\(played)")
        XCTAssertTrue(played.stderrText.contains("404"), played.stderrText)
        XCTAssertEqual(played.stderrText.split(separator: "\n").count, 1, "one plain line: \(played.stderrText)")
    }
}
