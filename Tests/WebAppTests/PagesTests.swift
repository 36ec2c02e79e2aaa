import ClipDetection
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import RadioModel
import Recording
import Scheduling
import SharedStore
import Store
import TestSupport
import XCTest

/// Each page as the server renders it, in-process: what it lists, what its forms do (through the same
/// library requests as the CLI), and that every value is escaped.
final class PagesTests: XCTestCase {
    /// Markup, and a quote and a bracket each followed by a combining mark (one Swift Character each, two code points).
    private static let hostile = "<script>alert('owned')</script> & Friends \"\u{301} onmouseover=alert(1) <\u{301}b>"
    private var harness: WebAppHarness!
    private var directory: FixtureHTTPServer!

    override func setUpWithError() throws {
        let answer = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../StreamInputTests/Fixtures/radio-browser-search-jazz.json"))
        directory = try FixtureHTTPServer(routes: ["/json/stations/search": FixtureHTTPServer.file(answer, contentType: "application/json")])
        let morning = Programme(id: "morning", name: "The Morning Show",
                                slots: [BroadcastSlot(days: Weekday.allCases, start: ClockTime(hour: 7, minute: 0), duration: TimeSpan("2h")!)])
        harness = try WebAppHarness(stations: [
            TestStations.station(id: "demo", name: "Demo FM", url: "http://127.0.0.1:9/demo.mp3", programmes: [morning]),
            TestStations.station(id: "hostile", name: Self.hostile, url: "http://127.0.0.1:9/hostile.mp3"),
        ], directory: [directory.baseURL.absoluteString])
    }

    override func tearDown() {
        harness?.stop()
        directory?.stop()
    }

    private func test(_ body: @escaping @Sendable (any TestClientProtocol, WebAppHarness) async throws -> Void) async throws {
        let harness = try XCTUnwrap(self.harness)
        try await harness.application().test(.router) { client in try await body(client, harness) }
    }

    func testStationsListsTheCatalogueWithEveryNameEscaped() async throws {
        try await test { client, harness in
            let page = try await client.execute(uri: "/stations", method: .get)
            XCTAssertEqual(page.status, .ok)
            let html = String(buffer: page.body)
            XCTAssertTrue(html.contains(#"<a class="title" href="/stations/demo">Demo FM</a>"#), html)
            XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt; &amp; Friends &quot;\u{301} onmouseover=alert(1) &lt;\u{301}b&gt;"), html)
            XCTAssertFalse(html.contains("<script>alert"), "a station's name is never markup")
            XCTAssertFalse(html.unicodeScalars.split(separator: " ").contains { $0.first == "\"" && $0.dropFirst().first == "\u{301}" },
                           "a quote with a combining mark is escaped like any quote")

            let searched = String(buffer: try await client.execute(uri: "/stations?q=demo", method: .get).body)
            XCTAssertTrue(searched.contains("Demo FM"))
            XCTAssertFalse(searched.contains("Friends"), "the search keeps only matching stations")

            let root = String(buffer: try await client.execute(uri: "/", method: .get).body)
            XCTAssertTrue(root.contains("<h1>Listen now</h1>"), root)
        }
    }

    func testADirectoryResultIsAddedToTheUsersCatalogue() async throws {
        try await test { client, harness in
            let found = String(buffer: try await client.execute(uri: "/stations?directory=jazz", method: .get).body)
            XCTAssertTrue(found.contains("Radio Swiss Jazz"), found)
            let uuid = try XCTUnwrap(found.components(separatedBy: #"name="uuid" value=""#).dropFirst(2).first?.prefix(36))

            let added = try await client.execute(uri: "/stations/add", method: .post, headers: WebForm.headers,
                                                 body: WebForm.body(["query": "jazz", "uuid": String(uuid)]))
            XCTAssertEqual(added.status, .seeOther)
            let location = try XCTUnwrap(added.headers[.location])
            XCTAssertTrue(location.hasPrefix("/stations/"), location)
            let id = String(location.dropFirst("/stations/".count).prefix { $0 != "?" })
            XCTAssertEqual(try UserCatalogue(paths: harness.paths).stations().map(\.id), [id])

            let page = String(buffer: try await client.execute(uri: location, method: .get).body)
            XCTAssertTrue(page.contains("Added SomaFM Sonic Universe to your stations"), page)

            let malformed = try await client.execute(uri: "/stations/add", method: .post, headers: WebForm.headers,
                                                     body: WebForm.body(["uuid": "x"]))
            XCTAssertEqual(malformed.status, .badRequest, "a form without its fields is refused, not a server error")
            XCTAssertTrue(page.contains(#"<audio id="listen" data-ref="station:\#(id)" controls preload="none" src="/live/\#(id)">"#), page)
        }
    }

    func testStationPageOffersListeningRelayAndRecordingAndAnUnknownStationIsNotFound() async throws {
        try await test { client, harness in
            let html = String(buffer: try await client.execute(uri: "/stations/demo", method: .get).body)
            XCTAssertTrue(html.contains(#"src="/live/demo""#))
            XCTAssertTrue(html.contains("onair sinks add kitchen fifo:/tmp/snapfifo"), "no sink is declared: the page says how to")
            XCTAssertTrue(html.contains(#"<option value="opus">opus</option>"#))
            XCTAssertTrue(html.contains("Record every broadcast of The Morning Show"))

            let missing = try await client.execute(uri: "/stations/nope", method: .get)
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertTrue(String(buffer: missing.body).contains("No station with id nope in the catalogue."))

            let badSink = try await client.execute(uri: "/stations/demo/jobs", method: .post, headers: WebForm.headers,
                                                   body: WebForm.body(["kind": "relay", "sink": "carrier-pigeon:home"]))
            XCTAssertEqual(badSink.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: badSink.body).contains(#"role="alert""#))

            // A page may not have the daemon write a file it names (only a sink declared on the box).
            let file = harness.home.file("written-by-a-page.wav").path
            let fileSink = try await client.execute(uri: "/stations/demo/jobs", method: .post, headers: WebForm.headers,
                                                    body: WebForm.body(["kind": "relay", "sink": "wav:\(file)"]))
            XCTAssertEqual(fileSink.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: fileSink.body).contains("is not a sink declared on this box"), String(buffer: fileSink.body))
            XCTAssertTrue(harness.daemon.jobs.list().isEmpty)
            XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        }
    }

    func testARuleAddedByFormIsStoredThroughRuleRequestAndShownWithItsNextEpisode() async throws {
        try await test { client, harness in
            let added = try await client.execute(uri: "/schedule/rules", method: .post, headers: WebForm.headers,
                                                 body: WebForm.body(["station": "demo", "on": "2030-06-01T21:30", "duration": "45m", "timeZone": "Europe/Paris"]))
            XCTAssertEqual(added.status, .seeOther)
            let rules = try harness.daemon.schedule.rules()
            XCTAssertEqual(rules.count, 1)
            XCTAssertEqual(rules.first?.timeZone, "Europe/Paris")
            XCTAssertEqual(rules.first?.whenText, "2030-06-01T21:30 (45m)")

            let page = String(buffer: try await client.execute(uri: try XCTUnwrap(added.headers[.location]), method: .get).body)
            XCTAssertTrue(page.contains("Added rule 1: demo"), page)
            XCTAssertTrue(page.contains("Sat 1 Jun 2030, 21:30, 45m"), "the next episode on the rule's clock: \(page)")

            let programme = try await client.execute(uri: "/schedule/rules", method: .post, headers: WebForm.headers,
                                                     body: WebForm.body(["programme": "demo/morning", "keep": "3", "keepDays": "14"]))
            XCTAssertEqual(programme.status, .seeOther)
            XCTAssertEqual(try harness.daemon.schedule.rules().last?.programme?.id, "morning")
            XCTAssertEqual(try harness.daemon.schedule.rules().last?.keep, 3)
            XCTAssertEqual(try harness.daemon.schedule.rules().last?.keepDays, 14)
            let listed = String(buffer: try await client.execute(uri: "/schedule", method: .get).body)
            XCTAssertTrue(listed.contains("keeps 3, 14 days"), listed)
            let noDays = try await client.execute(uri: "/schedule/rules", method: .post, headers: WebForm.headers,
                                                  body: WebForm.body(["programme": "demo/morning", "keepDays": "soon"]))
            XCTAssertEqual(noDays.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: noDays.body).contains("Keep for must be a whole number of days, at least 1."))
            XCTAssertEqual(try harness.daemon.schedule.rules().count, 2, "nothing stored")

            let paused = try await client.execute(uri: "/schedule/rules/1/pause", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(paused.status, .seeOther)
            XCTAssertEqual(try harness.daemon.schedule.rule(id: 1)?.paused, true)
            let deleted = try await client.execute(uri: "/schedule/rules/1/delete", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(deleted.status, .seeOther)
            XCTAssertNil(try harness.daemon.schedule.rule(id: 1))
            let deletedAgain = try await client.execute(uri: "/schedule/rules/1/delete", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(deletedAgain.status, .notFound)
        }
    }

    func testAFailedEpisodeShowsWhyOnTheSchedule() async throws {
        let store = harness.daemon.schedule
        var request = RuleRequest(station: "demo")
        (request.on, request.duration) = ("2030-06-01T21:30", "1h")
        let rule = try store.add(try request.rule(catalogueStation: nil, guide: nil).rule)
        let occurrence = try XCTUnwrap(try RuleExpansion(rule, guide: nil).occurrences(endingAfter: Date(), limit: 1).first)
        try store.episode(of: rule, occurrence, creatingAs: .failed, reason: "http://127.0.0.1:9/demo.mp3: HTTP 404 <Not Found>")
        try await test { client, _ in
            let html = String(buffer: try await client.execute(uri: "/schedule", method: .get).body)
            XCTAssertTrue(html.contains(#"<li class="failed"><span class="title">demo</span> <span class="meta">Sat 1 Jun 2030, 21:30</span>"#), html)
            XCTAssertTrue(html.contains(#"<span class="status">failed</span> <span class="reason">http://127.0.0.1:9/demo.mp3: HTTP 404 &lt;Not Found&gt;</span>"#), html)
        }
    }

    /// Found by the service soak: while PostgreSQL restarted, /schedule answered 422, the status of a refused form.
    func testAPageThatCannotReadWhatItShowsIsUnavailableNotARefusedForm() async throws {
        try await test { client, harness in
            try FileManager.default.createDirectory(at: harness.paths.config, withIntermediateDirectories: true)
            try Data("{ not json".utf8).write(to: harness.paths.userCatalogueURL)
            for page in ["/schedule", "/guide"] {
                let answer = try await client.execute(uri: page, method: .get)
                XCTAssertEqual(answer.status, .serviceUnavailable, page)
                XCTAssertTrue(String(buffer: answer.body).contains("stations.json"), "the page says what it could not read: \(String(buffer: answer.body))")
            }
        }
    }

    func testAnInvalidRuleIsRefusedWithItsReasonAndNothingIsStored() async throws {
        try await test { client, harness in
            let zone = try await client.execute(uri: "/schedule/rules", method: .post, headers: WebForm.headers,
                                                body: WebForm.body(["station": "demo", "at": "fri 22:00", "duration": "1h", "timeZone": "Mars/Olympus"]))
            XCTAssertEqual(zone.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: zone.body).contains("unknown time zone &#39;Mars/Olympus&#39;"), String(buffer: zone.body))
            let past = try await client.execute(uri: "/schedule/rules", method: .post, headers: WebForm.headers,
                                                body: WebForm.body(["station": "demo", "on": "2001-01-01T10:00", "duration": "1h"]))
            XCTAssertEqual(past.status, .unprocessableContent)
            XCTAssertTrue(String(buffer: past.body).contains("has no future episode"))
            let nowhen = try await client.execute(uri: "/schedule/rules", method: .post, headers: WebForm.headers,
                                                  body: WebForm.body(["station": "demo", "duration": "1h"]))
            XCTAssertTrue(String(buffer: nowhen.body).contains("Say when"))
            XCTAssertEqual(try harness.daemon.schedule.rules().count, 0)
        }
    }

    func testARecordingIsListedPlayedWithRangesAndChaptersAndDeleted() async throws {
        let mp3 = try AudioFixtures.sine(frequency: 440, seconds: 10)
        let entry = try harness.indexRecording(copying: mp3, named: "morning.mp3", titles: [("Opening", 0), (Self.hostile, 6)], duration: 10)
        let id = try XCTUnwrap(entry.id)
        try await test { client, harness in
            let list = String(buffer: try await client.execute(uri: "/recordings", method: .get).body)
            XCTAssertTrue(list.contains("<h2>The Morning Show</h2>"), list)
            XCTAssertTrue(list.contains(#"href="/recordings/\#(id)""#))

            let page = String(buffer: try await client.execute(uri: "/recordings/\(id)", method: .get).body)
            let audio = "/api/v1/recordings/\(id)/audio"
            XCTAssertTrue(page.contains(#"<audio id="player" data-ref="recording:\#(id)" controls preload="metadata" src="\#(audio)">"#), page)
            XCTAssertTrue(page.contains(#"data-seek="6.00"><span class="at">0:06</span> &lt;script&gt;"#), page)
            XCTAssertTrue(page.contains("0:04: 0.5 s missing"))
            XCTAssertTrue(page.contains(#"download="morning.mp3""#))
            let fromChapter = String(buffer: try await client.execute(uri: "/recordings/\(id)?t=6.00", method: .get).body)
            XCTAssertTrue(fromChapter.contains(#"src="\#(audio)#t=6.00""#), "without the script a chapter link starts the player there")

            let range = try await client.execute(uri: audio, method: .get, headers: [.range: "bytes=0-99"])
            XCTAssertEqual(range.status, .partialContent)
            XCTAssertEqual(range.body.readableBytes, 100)
            XCTAssertEqual(range.headers[.contentType], "audio/mpeg")
            XCTAssertEqual(range.headers[.contentRange], "bytes 0-99/\(entry.size)")
            let whole = try await client.execute(uri: audio, method: .get)
            XCTAssertEqual(whole.status, .ok)
            XCTAssertEqual(Int64(whole.body.readableBytes), entry.size)
            let unknown = try await client.execute(uri: "/api/v1/recordings/999/audio", method: .get)
            XCTAssertEqual(unknown.status, .notFound)

            let deleted = try await client.execute(uri: "/recordings/\(id)/delete", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(deleted.status, .seeOther)
            XCTAssertFalse(FileManager.default.fileExists(atPath: entry.file), "the file is deleted with the entry")
            XCTAssertEqual(try harness.daemon.recordings.all().count, 0)
            let pageAfter = try await client.execute(uri: "/recordings/\(id)", method: .get)
            XCTAssertEqual(pageAfter.status, .notFound)
            let audioAfter = try await client.execute(uri: audio, method: .get)
            XCTAssertEqual(audioAfter.status, .notFound)
        }
    }

    func testARecordingIsKeptAndLetGoFromTheRecordingsPage() async throws {
        let entry = try harness.indexRecording(copying: try AudioFixtures.sine(seconds: 2), named: "keep.mp3", titles: [], duration: 2)
        let id = try XCTUnwrap(entry.id)
        try await test { client, harness in
            let list = String(buffer: try await client.execute(uri: "/recordings", method: .get).body)
            XCTAssertTrue(list.contains(#"<form method="post" action="/recordings/\#(id)/keep"><input type="hidden" name="csrf" value="\#(WebForm.token)"><button type="submit" aria-pressed="false">Keep</button>"#), list)
            let kept = try await client.execute(uri: "/recordings/\(id)/keep", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(kept.status, .seeOther)
            XCTAssertEqual(try harness.daemon.recordings.recording(id: id)?.kept, true)
            let after = String(buffer: try await client.execute(uri: try XCTUnwrap(kept.headers[.location]), method: .get).body)
            XCTAssertTrue(after.contains("retention will not delete it."), after)
            XCTAssertTrue(after.contains(#"action="/recordings/\#(id)/unkeep"><input type="hidden" name="csrf" value="\#(WebForm.token)"><button type="submit" aria-pressed="true">Kept</button>"#), after)
            let letGo = try await client.execute(uri: "/recordings/\(id)/unkeep", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(letGo.status, .seeOther)
            XCTAssertEqual(try harness.daemon.recordings.recording(id: id)?.kept, false)
            let unknown = try await client.execute(uri: "/recordings/999/keep", method: .post, headers: WebForm.headers, body: WebForm.body([:]))
            XCTAssertEqual(unknown.status, .notFound)
        }
    }

    func testARecordingOutsideTheRecordingsDirectoryIsNeverServed() async throws {
        let elsewhereDirectory = try TemporaryDirectory(prefix: "onair-outside")
        defer { elsewhereDirectory.remove() }
        let entry = try harness.indexRecording(copying: try AudioFixtures.sine(seconds: 2), named: "inside.mp3", titles: [], duration: 2)
        // The same entry pointed at a file elsewhere, as a hand-edited index could.
        let elsewhere = elsewhereDirectory.file("secret.mp3")
        try FileManager.default.copyItem(atPath: entry.file, toPath: elsewhere.path)
        if let shared = harness.daemon.recordings as? PostgresRecordingsIndex {
            try shared.database.query("""
                UPDATE recording SET file = \(elsewhere.path), record = jsonb_set(record::jsonb, '{file}', to_jsonb(\(elsewhere.path)::text))::text
                WHERE id = \(entry.id!)
                """)
        } else {
            let sqliteIndex = try XCTUnwrap(harness.daemon.recordings as? RecordingsIndex, "the daemon's own SQLite index")
            try sqliteIndex.database.write { db in
                try db.execute(sql: "UPDATE recording SET file = ? WHERE id = ?", arguments: [elsewhere.path, entry.id])
            }
        }
        try await test { client, harness in
            let outside = try await client.execute(uri: "/api/v1/recordings/\(entry.id!)/audio", method: .get)
            XCTAssertEqual(outside.status, .notFound)
        }
    }

    func testAiredShowsADaysAiringsOnATimelineAndInATableWithEveryNameEscaped() async throws {
        let log = try harness.daemon.clipStores.get().airings
        _ = try harness.daemon.clipStores.get().library.learn(LearnedTrack(title: "Learned - Song", seconds: 200,
                                                                           fingerprint: Fingerprint(items: Array(repeating: 7, count: 300))),
                                                              keepingAtMost: 10)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let noon = try XCTUnwrap(calendar.date(from: DateComponents(year: 2026, month: 7, day: 1, hour: 12)))
        try log.add(ClipSighting(clip: Self.hostile, kind: "ad", station: "demo", start: noon, end: noon.addingTimeInterval(15), mediaTime: 0,
                                 offset: 0, score: 0.9, partial: false))
        try log.add(ClipSighting(clip: "Station ID", kind: "id", station: "demo", start: noon.addingTimeInterval(6 * 3600),
                                 end: noon.addingTimeInterval(6 * 3600 + 8), mediaTime: 0, offset: 2, score: 0.9, partial: true))
        try log.add(ClipSighting(clip: "Next day", kind: "ad", station: "demo", start: noon.addingTimeInterval(24 * 3600),
                                 end: noon.addingTimeInterval(24 * 3600 + 15), mediaTime: 0, offset: 0, score: 0.9, partial: false))
        try await test { client, _ in
            let page = try await client.execute(uri: "/aired?date=2026-07-01", method: .get)
            XCTAssertEqual(page.status, .ok)
            let html = String(buffer: page.body)
            XCTAssertTrue(html.contains(#"<a href="/aired" aria-current="page">Aired</a>"#), html)
            XCTAssertTrue(html.contains("<figcaption>Demo FM</figcaption>"), html)
            // Noon is half-way along the day; 18:00 three quarters.
            XCTAssertTrue(html.contains(#"class="mark ad" style="left:50.000%;width:0.400%""#), html)
            XCTAssertTrue(html.contains(#"class="mark id" style="left:75.000%"#), html)
            XCTAssertTrue(html.contains("<td>Demo FM</td><td>Station ID</td><td>id</td>"), html)
            XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt; &amp; Friends"), html)
            XCTAssertFalse(html.contains("<script>alert"), "a clip's name is never markup")
            XCTAssertTrue(html.contains("8.0 s (part, from 2.0 s)"), html)
            XCTAssertTrue(html.contains("And 1 song learned from the stations&#39; titles"), html)
            XCTAssertFalse(html.contains("Learned - Song"), "learned songs are counted, not listed")
            XCTAssertFalse(html.contains("Next day"), "only the day asked for")
            XCTAssertTrue(html.contains(#"href="/aired?date=2026-06-30" rel="prev""#), html)

            let ads = String(buffer: try await client.execute(uri: "/aired?date=2026-07-01&kind=ad", method: .get).body)
            XCTAssertFalse(ads.contains("Station ID"), "only ads")
            XCTAssertTrue(ads.contains(#"href="/aired?date=2026-07-02&amp;kind=ad" rel="next""#), ads)
            let empty = String(buffer: try await client.execute(uri: "/aired?date=2026-07-05", method: .get).body)
            XCTAssertTrue(empty.contains("None of the clips aired on this day."), empty)
            let notADay = try await client.execute(uri: "/aired?date=soon", method: .get)
            XCTAssertEqual(notADay.status, .notFound)
        }
    }

    func testStatusShowsJobsFailuresAndFreeSpaceAndAssetsAreServed() async throws {
        try await test { client, harness in
            let html = String(buffer: try await client.execute(uri: "/status", method: .get).body)
            XCTAssertTrue(html.contains(#"<a href="/status" aria-current="page">Status</a>"#), html)
            XCTAssertTrue(html.contains("No episode is being recorded."))
            XCTAssertTrue(html.range(of: #"Free space for recordings: [0-9.]+ [kMGT]B"#, options: .regularExpression) != nil, html)
            XCTAssertTrue(html.contains("No minimum of free space is set (onair daemon --min-free)."), html)
            XCTAssertTrue(html.contains("Nothing deleted since the daemon started."), html)

            let script = try await client.execute(uri: "/assets/app.js", method: .get)
            XCTAssertEqual(script.headers[.contentType], "text/javascript; charset=utf-8")
            XCTAssertTrue(String(buffer: script.body).contains("new EventSource(\"/api/v1/events\")"))
            XCTAssertFalse(String(buffer: script.body).contains("innerHTML"), "titles are set as text only")
            let style = try await client.execute(uri: "/assets/app.css", method: .get)
            XCTAssertEqual(style.headers[.contentType], "text/css; charset=utf-8")
        }
    }
}
