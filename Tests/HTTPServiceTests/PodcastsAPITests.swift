import Foundation
import Library
import RadioModel
import Recording
import Store
import TestSupport
import XCTest

/// `/api/v1/podcasts` against a real daemon and a feed served by a local web server: followed, refreshed
/// (a 304 at the server, so not read again), listed with its episodes and where the player left them,
/// attached to its programme, and unfollowed.
final class PodcastsAPITests: XCTestCase {
    private var harness: APIHarness!
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        harness = try APIHarness()
        server = try FixtureHTTPServer()
    }

    override func tearDown() {
        server?.stop()
        harness?.stop()
    }

    func testAFeedReadLenientlyIsFollowedWithItsWarnings() throws {
        // No channel title, and the itunes: prefix used without its declaration: read as podcast apps read it.
        server.route("/untitled.xml", FixtureHTTPServer.file(Data("""
            <rss version="2.0"><channel><title> </title>
            <item><title>One</title><guid>1</guid><itunes:duration>1:02</itunes:duration>
            <enclosure url="/1.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8), contentType: "application/rss+xml"))
        let followed = try harness.request("POST", "/api/v1/podcasts", json: ["url": server.url("/untitled.xml").absoluteString])
        XCTAssertEqual(followed.status, 201, followed.text)
        XCTAssertEqual((followed.json["podcast"] as? [String: Any])?["title"] as? String, "127.0.0.1")
        let warnings = followed.json["warnings"] as? [String] ?? []
        XCTAssertEqual(warnings.count, 2, followed.text)
        XCTAssertTrue(warnings.contains { $0.contains("itunes:") }, followed.text)
        XCTAssertTrue(warnings.contains { $0.contains("no title") }, followed.text)
    }

    func testAFeedIsFollowedRefreshedWithA304ListedWithResumePositionsAndUnfollowed() throws {
        let episodeURL = server.url("/ep1.mp3").absoluteString
        let feed = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
          <channel><title>Tone Talk</title><description>Tones, talked about.</description>
            <item><title>Two tones</title><guid>ep1</guid><pubDate>Mon, 23 Nov 2026 06:00:00 +0000</pubDate>
              <enclosure url="\(episodeURL)" type="audio/mpeg" length="48000"/><itunes:duration>0:06</itunes:duration></item>
          </channel>
        </rss>
        """.utf8)
        let feedAnswers = Locked<Bool>(true)
        server.route("/feed.xml") { request, connection in
            guard feedAnswers.current else { return try FixtureHTTPServer.status(500)(request, connection) }
            if request.headers["If-None-Match"] == "\"feed-1\"" {
                return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified", headers: [("Connection", "close")])
            }
            try FixtureHTTPServer.file(feed, contentType: "application/rss+xml", headers: [("ETag", "\"feed-1\"")])(request, connection)
        }
        let url = server.url("/feed.xml").absoluteString

        let followed = try harness.request("POST", "/api/v1/podcasts", json: ["url": url])
        XCTAssertEqual(followed.status, 201, followed.text)
        XCTAssertEqual(followed.json["added"] as? Int, 1)
        let podcast = try XCTUnwrap(followed.json["podcast"] as? [String: Any])
        XCTAssertEqual(podcast["title"] as? String, "Tone Talk")
        let id = try XCTUnwrap(podcast["id"] as? Int)

        let refreshed = try harness.request("POST", "/api/v1/podcasts/\(id)/refresh")
        XCTAssertEqual(refreshed.status, 200, refreshed.text)
        XCTAssertEqual(refreshed.json["notModified"] as? Bool, true)
        let all = try harness.request("POST", "/api/v1/podcasts/refresh")
        XCTAssertEqual((all.json["podcasts"] as? [[String: Any]])?.map { $0["notModified"] as? Bool }, [true], all.text)
        XCTAssertEqual(server.requests("/feed.xml").map { $0.headers["If-None-Match"] }, [nil, "\"feed-1\"", "\"feed-1\""],
                       "each refresh after the first was a 304 at the server")
        XCTAssertEqual(try harness.request("POST", "/api/v1/podcasts", json: ["url": url]).status, 200, "followed already")

        let list = try harness.get("/api/v1/podcasts").json["podcasts"] as? [[String: Any]]
        XCTAssertEqual(list?.map { $0["episodes"] as? Int }, [1])
        XCTAssertEqual(try harness.get("/api/v1/podcasts/\(id)").json["item"] as? String, "podcast:\(id)")

        // Never played: no position. Then the player leaves it 2.5 s in (it streamed the URL), then plays it to its end.
        let path = "/api/v1/podcasts/\(id)/episodes"
        var episode = try XCTUnwrap((try harness.get(path).json["episodes"] as? [[String: Any]])?.first)
        XCTAssertEqual(episode["title"] as? String, "Two tones")
        XCTAssertEqual(episode["duration"] as? Double, 6)
        XCTAssertNil(episode["position"])
        XCTAssertEqual(episode["heard"] as? Bool, false)
        let positions = try PlayerStore(database: try OnairDatabase(directory: harness.paths.data))
        try positions.savePosition(of: episodeURL, seconds: 2.5, heard: false)
        episode = try XCTUnwrap((try harness.get(path).json["episodes"] as? [[String: Any]])?.first)
        XCTAssertEqual(episode["position"] as? Double, 2.5)
        XCTAssertEqual(episode["heard"] as? Bool, false)
        try positions.savePosition(of: episodeURL, seconds: 6, heard: true)
        XCTAssertEqual((try harness.get(path).json["episodes"] as? [[String: Any]])?.first?["heard"] as? Bool, true)

        // Attached to the programme it publishes: a playlist given the programme gets its recording and the
        // podcast's episode, by date (recorded 2026-11-20, published 2026-11-23).
        let recordedEnd = ISO8601DateFormatter().date(from: "2026-11-20T07:00:00Z")!
        let recording = try harness.addRecording("tone-talk.mp3", programme: ProgrammeLabel(id: "tone-talk", name: "Tone Talk"), end: recordedEnd)
        let attached = try harness.request("PUT", "/api/v1/podcasts/\(id)/programme", json: ["programme": "tone-talk"])
        XCTAssertEqual(attached.status, 200, attached.text)
        XCTAssertEqual(attached.json["programme"] as? String, "tone-talk")
        let playlist = try XCTUnwrap(try harness.request("POST", "/api/v1/playlists", json: ["name": "Talk"]).json["id"] as? String)
        let added = try harness.request("POST", "/api/v1/playlists/\(playlist)/items", json: ["items": ["programme:tone-talk"]])
        XCTAssertEqual((added.json["added"] as? [[String: Any]])?.map { "\($0["kind"] as? String ?? ""):\($0["ref"] as? String ?? "")" },
                       ["recording:\(recording)", "episode:\(try XCTUnwrap(episode["id"] as? Int))"], added.text)
        XCTAssertEqual(try harness.request("PUT", "/api/v1/podcasts/\(id)/programme", json: ["programme": "nothing"]).status, 422)
        XCTAssertNil(try harness.request("DELETE", "/api/v1/podcasts/\(id)/programme").json["programme"])
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/podcasts/99/programme").status, 404)

        // The feed's server failing is the server's problem: 502, and the refresh of all says why.
        feedAnswers.withLock { $0 = false }
        XCTAssertEqual(try harness.request("POST", "/api/v1/podcasts/\(id)/refresh").status, 502)
        let failing = try harness.request("POST", "/api/v1/podcasts/refresh")
        XCTAssertEqual(failing.status, 200)
        XCTAssertNotNil((failing.json["podcasts"] as? [[String: Any]])?.first?["error"] as? String, failing.text)

        // Bad input: a 4xx saying why.
        XCTAssertEqual(try harness.request("POST", "/api/v1/podcasts", json: ["url": "ftp://example.org/feed.xml"]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/podcasts", json: ["url": server.url("/missing.xml").absoluteString]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/podcasts", json: ["feed": url]).status, 400)
        XCTAssertEqual(try harness.get("/api/v1/podcasts/99").status, 404)
        XCTAssertEqual(try harness.get("/api/v1/podcasts/01/episodes").status, 404)

        let unfollowed = try harness.request("DELETE", "/api/v1/podcasts/\(id)")
        XCTAssertEqual(unfollowed.status, 200, unfollowed.text)
        XCTAssertEqual(try harness.get("/api/v1/podcasts/\(id)").status, 404)
        XCTAssertEqual((try harness.get("/api/v1/podcasts").json["podcasts"] as? [Any])?.count, 0)
    }
}
