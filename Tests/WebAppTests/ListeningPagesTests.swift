import Foundation
import Guide
import Hummingbird
import HummingbirdTesting
import Library
import RadioModel
import Scheduling
import TestSupport
import XCTest

/// The guide, podcast and playlist pages as the server renders them, in-process: what a person sees, and
/// what their forms do through the same library requests as the CLI.
final class ListeningPagesTests: XCTestCase {
    private var harness: WebAppHarness!

    override func setUpWithError() throws {
        harness = try WebAppHarness(stations: [TestStations.station(id: "demo", name: "Demo FM", url: "http://127.0.0.1:9/demo.mp3")])
    }

    override func tearDown() {
        harness?.stop()
    }

    private func test(_ body: @escaping @Sendable (any TestClientProtocol, WebAppHarness) async throws -> Void) async throws {
        let harness = try XCTUnwrap(self.harness)
        try await harness.application().test(.router) { client in try await body(client, harness) }
    }

    private static func post(_ client: any TestClientProtocol, _ uri: String, _ fields: [String: String] = [:]) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: WebForm.headers, body: WebForm.body(fields))
    }

    /// The player's queue as the script saves it, with the pages' CSRF token in its header.
    private static func saveQueue(_ client: any TestClientProtocol, _ json: String) async throws -> TestResponse {
        try await client.execute(uri: "/player/queue", method: .put, headers: [.contentType: "application/json", .init("X-CSRF-Token")!: WebForm.token],
                                 body: ByteBuffer(string: json))
    }

    /// The page a form's answer sends the browser to.
    private static func follow(_ client: any TestClientProtocol, _ response: TestResponse) async throws -> String {
        XCTAssertEqual(response.status, .seeOther, String(buffer: response.body))
        return String(buffer: try await client.execute(uri: try XCTUnwrap(response.headers[.location]), method: .get).body)
    }

    // MARK: Guide

    func testTheGuideShowsADaysProgrammesOfAStationAndRecordsATitleOrASeries() async throws {
        // Tomorrow (UTC, the station's clock): a series at 20:00, and a title with the characters of a pattern in it.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: Date()))!
        let day = ISO8601DateFormatter.string(from: tomorrow, timeZone: calendar.timeZone, formatOptions: [.withFullDate])
        let compact = day.replacingOccurrences(of: "-", with: "")
        try harness.daemon.guide.importGuide(try XMLTVReader.read(Data("""
        <tv><channel id="demo.example"><display-name>Demo</display-name></channel>
          <programme start="\(compact)200000 +0000" stop="\(compact)210000 +0000" channel="demo.example">
            <title>Jazz Hour (live) &lt;b&gt;</title><sub-title>Blue notes</sub-title><desc>Records, requests &amp; rarities.</desc>
            <episode-num system="onscreen">Ep. 5</episode-num><episode-num system="dd_progid">EP0042.0005</episode-num></programme>
          <programme start="\(compact)210000 +0000" stop="\(compact)220000 +0000" channel="demo.example"><title>Late News</title></programme>
        </tv>
        """.utf8)))
        XCTAssertNotNil(try harness.daemon.guide.map(channel: "demo.example", to: "demo"))
        try await test { client, harness in
            let guide = String(buffer: try await client.execute(uri: "/guide?channel=demo.example&date=\(day)", method: .get).body)
            XCTAssertTrue(guide.contains(#"<a href="/guide" aria-current="page">Guide</a>"#), guide)
            XCTAssertTrue(guide.contains("<h2>Demo FM</h2>"), guide)
            XCTAssertTrue(guide.contains(#"<span class="at">20:00–21:00</span> <span class="title">Jazz Hour (live) &lt;b&gt;</span>"#), guide)
            XCTAssertTrue(guide.contains(#"<span class="meta">Ep. 5</span> <span class="meta">Blue notes</span>"#), guide)
            XCTAssertTrue(guide.contains("Records, requests &amp; rarities."), guide)
            XCTAssertTrue(guide.contains(#"<span class="title">Late News</span>"#), guide)
            XCTAssertTrue(guide.contains(#"<input id="date" name="date" type="date" value="\#(day)" required>"#), guide)
            XCTAssertTrue(guide.contains(#"<input type="hidden" name="series" value="EP0042">"#), "a broadcast of a series offers to record it")
            XCTAssertEqual(guide.components(separatedBy: "Record this series").count - 1, 1, "Late News belongs to no series")

            let today = String(buffer: try await client.execute(uri: "/guide", method: .get).body)
            XCTAssertTrue(today.contains("Nothing listed on this day."), today)

            let back = "/guide?channel=demo.example&date=\(day)"
            let byTitle = try await Self.post(client, "/guide/record", ["station": "demo", "title": "Jazz Hour (live) <b>", "back": back])
            let shown = try await Self.follow(client, byTitle)
            XCTAssertTrue(try XCTUnwrap(byTitle.headers[.location]).hasPrefix(back + "&notice="), "back to the same day")
            XCTAssertTrue(shown.contains(#"Added rule 1: demo guide: title ~ /^Jazz Hour \(live\) &lt;b&gt;$/ on demo.example; next "#), shown)
            let rules = try harness.daemon.schedule.rules()
            XCTAssertEqual(rules.map(\.whenText), [#"guide: title ~ /^Jazz Hour \(live\) <b>$/ on demo.example"#])
            let next = try XCTUnwrap(UpcomingEpisodes.next(5, of: rules, after: Date(), guide: harness.daemon.guide).first)
            XCTAssertEqual(next.start, ISO8601DateFormatter().date(from: "\(day)T20:00:00Z"), "the title matched exactly, as written")

            let bySeries = try await Self.post(client, "/guide/record", ["station": "demo", "series": "EP0042", "back": back])
            let afterSeries = try await Self.follow(client, bySeries)
            XCTAssertTrue(afterSeries.contains("Added rule 2: demo guide: series EP0042 on demo.example"))

            let badDay = try await client.execute(uri: "/guide?date=someday", method: .get)
            XCTAssertEqual(badDay.status, .unprocessableContent, String(buffer: badDay.body))
            XCTAssertTrue(String(buffer: badDay.body).contains("someday is not a day: give one as YYYY-MM-DD."))
            let unknownStation = try await Self.post(client, "/guide/record", ["station": "nope", "title": "Late News"])
            XCTAssertEqual(unknownStation.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: unknownStation.body).contains("no station with id &#39;nope&#39;"), String(buffer: unknownStation.body))
            XCTAssertEqual(try harness.daemon.schedule.rules().count, 2, "nothing stored for a station that is not there")
        }
    }

    // MARK: Podcasts

    func testAPodcastIsFollowedRefreshedAndItsEpisodePlaysFromItsEnclosureWhereItWasLeft() async throws {
        let audio = try Data(contentsOf: try AudioFixtures.sine(frequency: 440, seconds: 4))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let enclosure = server.url("/ep1.mp3").absoluteString
        server.route("/ep1.mp3", FixtureHTTPServer.file(audio, contentType: "audio/mpeg"))
        let feed = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Tone Talk &amp; Co</title>
          <description>Tones, talked about.</description>
          <item><title>One tone</title><guid>ep1</guid><pubDate>Mon, 23 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="\(enclosure)" type="audio/mpeg" length="\(audio.count)"/><itunes:duration>4</itunes:duration></item>
          <item><title>Another tone</title><guid>ep2</guid><pubDate>Tue, 24 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="\(server.url("/ep2.mp3").absoluteString)" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8)
        server.route("/feed.xml") { request, connection in
            if request.headers["If-None-Match"] == "\"v1\"" { return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified") }
            try FixtureHTTPServer.file(feed, contentType: "application/rss+xml", headers: [("ETag", "\"v1\"")])(request, connection)
        }
        try await test { client, harness in
            let empty = String(buffer: try await client.execute(uri: "/podcasts", method: .get).body)
            XCTAssertTrue(empty.contains("No podcasts yet"), empty)

            let followed = try await Self.post(client, "/podcasts", ["url": server.url("/feed.xml").absoluteString])
            XCTAssertEqual(followed.headers[.location].flatMap { URLComponents(string: $0)?.path }, "/podcasts/1")
            let podcast = try await Self.follow(client, followed)
            XCTAssertTrue(podcast.contains("Following Tone Talk &amp; Co: 2 new episodes."), podcast)
            XCTAssertTrue(podcast.contains("<h1>Tone Talk &amp; Co</h1>"))
            let newestFirst = ["/episodes/2", "/episodes/1"].map { podcast.range(of: #"href="\#($0)""#)?.lowerBound }
            XCTAssertNotNil(newestFirst[0])
            XCTAssertLessThan(try XCTUnwrap(newestFirst[0]), try XCTUnwrap(newestFirst[1]), "newest first")

            let list = String(buffer: try await client.execute(uri: "/podcasts", method: .get).body)
            XCTAssertTrue(list.contains(#"<a class="title" href="/podcasts/1">Tone Talk &amp; Co</a> <span class="meta">2 episodes</span>"#), list)

            // Where `onair play` left them: one part-way, one heard.
            try harness.libraryStores.positions.savePosition(of: enclosure, seconds: 2.5, heard: false)
            try harness.libraryStores.positions.savePosition(of: server.url("/ep2.mp3").absoluteString, seconds: 3, heard: true)
            let marked = String(buffer: try await client.execute(uri: "/podcasts/1", method: .get).body)
            XCTAssertTrue(marked.contains(#"<span class="progress">Left at 0:02</span>"#), marked)
            XCTAssertTrue(marked.contains(#"<span class="progress">Heard</span>"#), marked)
            let episode = String(buffer: try await client.execute(uri: "/episodes/1", method: .get).body)
            XCTAssertTrue(episode.contains(#"<audio id="player" data-ref="episode:1" controls preload="metadata" src="\#(enclosure)#t=2.50">"#),
                          "it plays from its enclosure, where it was left: \(episode)")
            XCTAssertTrue(episode.contains(#"<a href="/podcasts/1">Tone Talk &amp; Co</a> · Mon 23 Nov 2026, "#), episode)
            XCTAssertTrue(episode.contains(" · 0:04</p>"), "its duration")
            let heard = String(buffer: try await client.execute(uri: "/episodes/2", method: .get).body)
            XCTAssertTrue(heard.contains(#"src="\#(server.url("/ep2.mp3").absoluteString)">"#), "a heard episode starts from the top: \(heard)")

            // Where the browser's player left it (the script saves the queue on pause and at the end).
            let paused = try await Self.saveQueue(client, #"{"items": ["episode:1"], "current": "episode:1", "seconds": 3.25}"#)
            XCTAssertEqual(paused.status, .ok, String(buffer: paused.body))
            let resumed = String(buffer: try await client.execute(uri: "/episodes/1", method: .get).body)
            XCTAssertTrue(resumed.contains(#"src="\#(enclosure)#t=3.25""#), resumed)
            XCTAssertTrue(resumed.contains(#"<p class="progress" id="progress">Left at 0:03</p>"#), resumed)
            _ = try await Self.saveQueue(client, #"{"items": ["episode:1"], "current": "episode:1", "seconds": 4, "heard": true}"#)
            XCTAssertEqual(try harness.libraryStores.positions.position(of: enclosure)?.heard, true, "kept as `onair play` keeps it")
            let nonsense = try await Self.saveQueue(client, #"{"items": ["episode:1"], "current": "episode:1", "seconds": "soon"}"#)
            XCTAssertEqual(nonsense.status, .badRequest)
            // Past the episode's end: kept as its end, and the page still shows (such a position once stopped the daemon showing it).
            let huge = try await Self.saveQueue(client, #"{"items": ["episode:1"], "current": "episode:1", "seconds": 1e300}"#)
            XCTAssertEqual(huge.status, .ok)
            XCTAssertEqual(try harness.libraryStores.positions.position(of: enclosure)?.seconds, 4)
            let still = try await client.execute(uri: "/episodes/1", method: .get)
            XCTAssertEqual(still.status, .ok)

            let refreshed = try await Self.post(client, "/podcasts/1/refresh")
            let afterRefresh = try await Self.follow(client, refreshed)
            XCTAssertTrue(afterRefresh.contains("Tone Talk &amp; Co: not changed."))
            XCTAssertEqual(server.requests("/feed.xml").last?.headers["If-None-Match"], "\"v1\"", "asked conditionally")
            let all = try await Self.post(client, "/podcasts/refresh")
            XCTAssertEqual(all.headers[.location].flatMap { URLComponents(string: $0)?.path }, "/podcasts")

            let broken = try await Self.post(client, "/podcasts", ["url": server.url("/ep1.mp3").absoluteString])
            XCTAssertEqual(broken.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: broken.body).contains(#"<p class="error" role="alert">"#))
            XCTAssertEqual(try harness.libraryStores.podcasts.podcasts().count, 1, "an address that is no feed is not followed")
            let missing = try await client.execute(uri: "/episodes/99", method: .get)
            XCTAssertEqual(missing.status, .notFound)

            // A podcast added to a playlist is added as its episodes, oldest first.
            _ = try await Self.post(client, "/playlists", ["name": "Tones"])
            let added = try await Self.post(client, "/playlists/add", ["item": "podcast:1", "playlist": "1", "back": "/podcasts/1"])
            let afterAdding = try await Self.follow(client, added)
            XCTAssertTrue(afterAdding.contains("Added 2 items to Tones."))
            let playlist = String(buffer: try await client.execute(uri: "/playlists/1", method: .get).body)
            let order = ["One tone", "Another tone"].map { playlist.range(of: ">\($0)</a>")?.lowerBound }
            XCTAssertLessThan(try XCTUnwrap(order[0]), try XCTUnwrap(order[1]), playlist)
        }
    }

    // MARK: Playlists and likes

    func testPlaylistsAreCreatedFilledReorderedAndAHiddenItemLeavesThem() async throws {
        let mp3 = try AudioFixtures.sine(frequency: 440, seconds: 2)
        let first = try harness.indexRecording(copying: mp3, named: "first.mp3", titles: [], duration: 2)
        let second = try harness.indexRecording(copying: mp3, named: "second.mp3", titles: [], duration: 2)
        try await test { client, harness in
            let created = try await Self.post(client, "/playlists", ["name": ""])
            XCTAssertEqual(created.headers[.location].flatMap { URLComponents(string: $0)?.path }, "/playlists/1")
            let page = try await Self.follow(client, created)
            XCTAssertTrue(page.contains("<h1>New playlist</h1>"), page)
            XCTAssertTrue(page.contains("Created playlist 1: New playlist."), page)
            let again = try await Self.post(client, "/playlists", ["name": "  "])
            let secondPlaylist = try await Self.follow(client, again)
            XCTAssertTrue(secondPlaylist.contains("<h1>New playlist (2)</h1>"), "a name taken gets a number")

            // Added from the recordings' pages, in order.
            let recording = String(buffer: try await client.execute(uri: "/recordings/\(first.id!)", method: .get).body)
            XCTAssertTrue(recording.contains(#"<select id="playlist-recording-\#(first.id!)" name="playlist"><option value="1">New playlist</option>"#),
                          recording)
            for entry in [first, second] {
                let added = try await Self.post(client, "/playlists/add", ["item": "recording:\(entry.id!)", "playlist": "1",
                                                                           "back": "/recordings/\(entry.id!)"])
                let recordingPage = try await Self.follow(client, added)
                XCTAssertTrue(recordingPage.contains("Added The Morning Show · "), "back on the recording's page: \(recordingPage)")
            }
            func order() async throws -> [String] {
                let html = String(buffer: try await client.execute(uri: "/playlists/1", method: .get).body)
                return html.components(separatedBy: #"<a class="title" href="/recordings/"#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
            }
            let (one, two) = (String(first.id!), String(second.id!))
            var items = try await order()
            XCTAssertEqual(items, [one, two])
            let moved = try await Self.post(client, "/playlists/1/items/2/move", ["to": "1"])
            let afterMove = try await Self.follow(client, moved)
            XCTAssertTrue(afterMove.contains("Moved item 2 to 1."))
            items = try await order()
            XCTAssertEqual(items, [two, one])

            // Hidden: gone from the playlist. Liked: in "Liked".
            let hidden = try await Self.post(client, "/library/marks", ["item": "recording:\(two)", "mark": "hide", "back": "/playlists/1"])
            let afterHiding = try await Self.follow(client, hidden)
            XCTAssertTrue(afterHiding.contains(": it left every playlist."), afterHiding)
            XCTAssertFalse(afterHiding.contains(#"href="/recordings/\#(two)""#), "the hidden recording is gone from the playlist")
            items = try await order()
            XCTAssertEqual(items, [one])
            let recordings = String(buffer: try await client.execute(uri: "/recordings", method: .get).body)
            XCTAssertFalse(recordings.contains(#"href="/recordings/\#(two)""#), "a hidden recording leaves the list of recordings")
            let playlists = String(buffer: try await client.execute(uri: "/playlists", method: .get).body)
            XCTAssertTrue(playlists.contains(#"<button type="submit" name="mark" value="unhide" aria-pressed="true""#), "listed as hidden, to show again")
            let liked = try await Self.post(client, "/library/marks", ["item": "recording:\(one)", "mark": "like", "back": "/recordings"])
            let afterLike = try await Self.follow(client, liked)
            XCTAssertTrue(afterLike.contains(#"<button type="submit" name="mark" value="unlike" aria-pressed="true""#))
            let lists = String(buffer: try await client.execute(uri: "/playlists", method: .get).body)
            XCTAssertTrue(lists.contains(#"<a class="title" href="/playlists/liked">Liked</a> <span class="meta">1 item</span>"#), lists)
            let likedPage = String(buffer: try await client.execute(uri: "/playlists/liked", method: .get).body)
            XCTAssertTrue(likedPage.contains(#"<a class="title" href="/recordings/\#(one)">The Morning Show · "#), likedPage)
            XCTAssertFalse(likedPage.contains("Delete the playlist"), "the system playlist is not deleted")

            // A form's way back is a page of this site, never another one.
            let elsewhere = try await Self.post(client, "/library/marks", ["item": "recording:\(one)", "mark": "unlike", "back": "//evil.example/"])
            XCTAssertTrue(try XCTUnwrap(elsewhere.headers[.location]).hasPrefix("/playlists?notice="))
            let unknown = try await Self.post(client, "/library/marks", ["item": "recording:999", "mark": "like"])
            XCTAssertEqual(unknown.status, .notFound)
            let aFile = try await Self.post(client, "/library/marks", ["item": "file:\(first.file)", "mark": "like"])
            XCTAssertEqual(aFile.status, .notFound, "a browser names no file on the box")

            let removed = try await Self.post(client, "/playlists/1/items/1/remove")
            let afterRemoval = try await Self.follow(client, removed)
            XCTAssertTrue(afterRemoval.contains("Empty: add recordings and episodes from their pages."))
            let deleted = try await Self.post(client, "/playlists/1/delete")
            let remaining = try await Self.follow(client, deleted)
            XCTAssertTrue(remaining.contains("Deleted playlist New playlist."))
            XCTAssertFalse(remaining.contains(#"href="/playlists/1""#))
            let gone = try await client.execute(uri: "/playlists/1", method: .get)
            XCTAssertEqual(gone.status, .notFound)
        }
    }
}
