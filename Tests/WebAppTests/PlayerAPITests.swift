import Foundation
import Hummingbird
import HummingbirdTesting
import Library
import RadioModel
import TestSupport
import XCTest

/// What the web app's player asks the box (`/player/…`) and the artwork it shows (`/artwork/…`), in-process on a real
/// daemon's services: what a request may name, what the daemon keeps, what is refused, and the images it serves.
final class PlayerAPITests: XCTestCase {
    private static let token: HTTPFields = [.contentType: "application/json", .init("X-CSRF-Token")!: WebForm.token]

    private static func saveQueue(_ client: any TestClientProtocol, _ json: String, headers: HTTPFields = token) async throws -> TestResponse {
        try await client.execute(uri: "/player/queue", method: .put, headers: headers, body: ByteBuffer(string: json))
    }

    private static func json(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func refs(_ response: TestResponse) throws -> [String] {
        try (json(response)["items"] as? [[String: Any]] ?? []).compactMap { $0["ref"] as? String }
    }

    func testTheQueueHoldsOnlyWhatTheBoxPlaysAndKeepsWhereEachWasLeft() async throws {
        let harness = try WebAppHarness(stations: [TestStations.station(id: "demo", name: "Demo FM", url: "http://127.0.0.1:9/demo.mp3")])
        defer { harness.stop() }
        let tone = try AudioFixtures.sine(frequency: 440, seconds: 10)
        let monday = try harness.indexRecording(copying: tone, named: "monday.mp3", titles: [("Intro", 0), ("News", 5)], duration: 10, day: "2026-11-23")
        let tuesday = try harness.indexRecording(copying: tone, named: "tuesday.mp3", titles: [], duration: 10, day: "2026-11-24")

        try await harness.application().test(.router) { client in
            let empty = try await client.execute(uri: "/player/queue", method: .get)
            XCTAssertEqual(try Self.refs(empty), [])

            // A programme is its episodes, oldest first; a station, itself; a list of the box's, its items.
            let programme = try await client.execute(uri: "/player/entries?ref=programme:morning", method: .get)
            XCTAssertEqual(try Self.refs(programme), ["recording:\(monday.id!)", "recording:\(tuesday.id!)"])
            let first = try XCTUnwrap((try Self.json(programme)["items"] as? [[String: Any]])?.first)
            XCTAssertEqual(first["audio"] as? String, "/api/v1/recordings/\(monday.id!)/audio")
            XCTAssertEqual((first["chapters"] as? [[String: Any]])?.map { $0["title"] as? String }, ["Intro", "News"])
            XCTAssertEqual(first["live"] as? Bool, false)
            let station = try Self.json(try await client.execute(uri: "/player/entries?ref=station:demo", method: .get))
            XCTAssertEqual((station["items"] as? [[String: Any]])?.first?["audio"] as? String, "/live/demo")
            let unheard = try await client.execute(uri: "/player/entries?ref=list:unheard-recordings", method: .get)
            XCTAssertEqual(try Self.refs(unheard), ["recording:\(tuesday.id!)", "recording:\(monday.id!)"], "newest first")

            // Nothing a request names is a file, a stream URL or anything but the box's own items.
            for hostile in ["file:/etc/passwd", "file:\(harness.paths.recordings.path)/demo/monday.mp3", "station:http://127.0.0.1:9/x.mp3",
                            "playlist:../../etc", "list:../continue", "recording:99", "recording:-1", "recording:99999999999999999999",
                            "episode:abc", "/etc/passwd", "podcast:1", "programme://etc", "recording:+\(monday.id!)", "recording:0\(monday.id!)",
                            "station:DEMO", String(repeating: "station:", count: 1_000)] {
                let refused = try await client.execute(uri: "/player/entries?ref=\(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                                                       method: .get)
                XCTAssertEqual(refused.status, .notFound, "\(hostile.prefix(60)): \(String(buffer: refused.body))")
            }

            // Saving the queue needs the pages' token, as a form does.
            let forged = try await Self.saveQueue(client, #"{"items": ["recording:\#(monday.id!)"]}"#, headers: [.contentType: "application/json"])
            XCTAssertEqual(forged.status, .forbidden)
            XCTAssertNil(try harness.libraryStores.positions.playQueue())

            let saved = try await Self.saveQueue(client, """
            {"items": ["recording:\(monday.id!)", "station:demo", "station:http://127.0.0.1:9/x.mp3", "recording:99"],
             "current": "recording:\(monday.id!)", "seconds": 4.5}
            """)
            XCTAssertEqual(saved.status, .ok, String(buffer: saved.body))
            XCTAssertEqual(try Self.refs(saved), ["recording:\(monday.id!)", "station:demo"], "a URL and a recording that is not there are dropped")
            let kept = try XCTUnwrap(try harness.libraryStores.positions.playQueue())
            XCTAssertEqual(kept.items, ["recording:\(monday.id!)", "station:demo"])
            XCTAssertEqual(kept.current, "recording:\(monday.id!)")
            XCTAssertEqual(kept.changedBy, "web app")
            XCTAssertEqual(try harness.libraryStores.positions.position(of: monday.file)?.seconds, 4.5, "where it was left, as `onair play` keeps it")
            XCTAssertEqual(try harness.libraryStores.positions.history(limit: 5).map(\.item), ["recording:\(monday.id!)"])
            let read = try Self.json(try await client.execute(uri: "/player/queue", method: .get))
            XCTAssertEqual(read["current"] as? Int, 0)
            XCTAssertEqual(read["seconds"] as? Double, 4.5)

            // Moving on to the next item keeps where the last one was left; playing it to the end marks it heard.
            _ = try await Self.saveQueue(client, """
            {"items": ["recording:\(monday.id!)", "recording:\(tuesday.id!)"], "current": "recording:\(tuesday.id!)", "seconds": 0,
             "left": "recording:\(monday.id!)", "leftSeconds": 6.25}
            """)
            XCTAssertEqual(try harness.libraryStores.positions.position(of: monday.file)?.seconds, 6.25)
            _ = try await Self.saveQueue(client, """
            {"items": ["recording:\(tuesday.id!)"], "current": "recording:\(tuesday.id!)", "seconds": 10, "heard": true}
            """)
            XCTAssertEqual(try harness.libraryStores.positions.position(of: tuesday.file)?.heard, true)
            let afterHeard = try await client.execute(uri: "/player/entries?ref=list:unheard-recordings", method: .get)
            XCTAssertEqual(try Self.refs(afterHeard), ["recording:\(monday.id!)"])
            let continuing = try await client.execute(uri: "/player/entries?ref=list:continue", method: .get)
            XCTAssertEqual(try Self.refs(continuing), ["recording:\(monday.id!)"], "left part-way, not heard")

            // A hidden item leaves the queue and every list the player is given.
            _ = try await Self.saveQueue(client, """
            {"items": ["recording:\(monday.id!)", "recording:\(tuesday.id!)"], "current": "recording:\(tuesday.id!)", "seconds": 10}
            """)
            _ = try harness.libraryStores.library.setHidden(LibraryItem(kind: .recording, ref: String(monday.id!), title: "Monday"), true)
            let hiddenGone = try await client.execute(uri: "/player/entries?ref=programme:morning", method: .get)
            XCTAssertEqual(try Self.refs(hiddenGone), ["recording:\(tuesday.id!)"])
            let queueAfterHiding = try await client.execute(uri: "/player/queue", method: .get)
            XCTAssertEqual(try Self.refs(queueAfterHiding), ["recording:\(tuesday.id!)"])
            let alone = try await client.execute(uri: "/player/entries?ref=recording:\(monday.id!)", method: .get)
            XCTAssertEqual(alone.status, .notFound)

            // Refused, each with its reason, and the daemon carries on.
            for (body, status) in [(#"{"items": ["file:/etc/passwd"]}"#, HTTPResponse.Status.unprocessableContent),
                                   (#"{"items": ["recording:1"], "current": "file:/etc/passwd"}"#, .unprocessableContent),
                                   (#"{"items": "recording:1"}"#, .badRequest), ("not json", .badRequest),
                                   (#"{"items": [\#(Array(repeating: #""station:demo""#, count: 501).joined(separator: ","))]}"#, .contentTooLarge)] {
                let refused = try await Self.saveQueue(client, body)
                XCTAssertEqual(refused.status, status, "\(body.prefix(60)): \(String(buffer: refused.body))")
            }
            let huge = try await Self.saveQueue(client, #"{"items": ["recording:\#(tuesday.id!)"], "current": "recording:\#(tuesday.id!)", "seconds": 1e300}"#)
            XCTAssertEqual(huge.status, .ok)
            XCTAssertEqual(try harness.libraryStores.positions.position(of: tuesday.file)?.seconds, 10, "a position past the end is the end")
            let still = try await client.execute(uri: "/player/queue", method: .get)
            XCTAssertEqual(still.status, .ok)
        }
    }

    func testArtworkComesFromTheBoxEitherFetchedOnceOrDrawn() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let png = try TemporaryDirectory(prefix: "onair-art")
        defer { png.remove() }
        let logoFile = png.url.appendingPathComponent("logo.png")
        _ = try ProcessRunner.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1", logoFile.path]).check()
        let logo = try Data(contentsOf: logoFile)
        server.route("/logo.png", FixtureHTTPServer.file(logo, contentType: "image/png"))
        server.route("/apple-touch-icon.png", FixtureHTTPServer.file(logo, contentType: "image/png"))
        server.route("/show.png", FixtureHTTPServer.file(logo, contentType: "image/png"))
        server.route("/evil.svg", FixtureHTTPServer.file(Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8),
                                                         contentType: "image/png"))
        server.route("/ep.mp3", FixtureHTTPServer.file(try Data(contentsOf: try AudioFixtures.sine(seconds: 2)), contentType: "audio/mpeg"))
        server.route("/feed.xml", FixtureHTTPServer.file(Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Tone Talk</title>
          <itunes:image href="\(server.url("/show.png").absoluteString)"/>
          <item><title>One</title><guid>one</guid><enclosure url="\(server.url("/ep.mp3").absoluteString)" type="audio/mpeg"/></item>
          <item><title>Two</title><guid>two</guid><itunes:image href="javascript:alert(1)"/>
            <enclosure url="\(server.url("/ep.mp3").absoluteString)" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8), contentType: "application/rss+xml"))

        var withLogo = TestStations.station(id: "logo", name: "Logo FM", url: "http://127.0.0.1:9/a.mp3")
        withLogo.logo = server.url("/logo.png").absoluteString
        var withSite = TestStations.station(id: "site", name: "Site Radio", url: "http://127.0.0.1:9/b.mp3")
        withSite.homepage = server.url("/").absoluteString
        var disguised = TestStations.station(id: "disguised", name: "Disguised", url: "http://127.0.0.1:9/c.mp3")
        disguised.logo = server.url("/evil.svg").absoluteString
        let hostile = TestStations.station(id: "hostile", name: "<script>alert(1)</script> \"Radio\"", url: "http://127.0.0.1:9/d.mp3")
        let harness = try WebAppHarness(stations: [withLogo, withSite, disguised, hostile])
        defer { harness.stop() }
        _ = try harness.libraryStores.podcastFetch.add(server.url("/feed.xml").absoluteString)

        try await harness.application().test(.router) { client in
            for _ in 0..<2 {
                let fetched = try await client.execute(uri: "/artwork/stations/logo", method: .get)
                XCTAssertEqual(fetched.headers[.contentType], "image/png")
                XCTAssertEqual(Data(buffer: fetched.body), logo)
            }
            XCTAssertEqual(server.requests("/logo.png").count, 1, "fetched once, then kept on disk")
            let site = try await client.execute(uri: "/artwork/stations/site", method: .get)
            XCTAssertEqual(Data(buffer: site.body), logo, "no logo: the site's icon")
            XCTAssertEqual(server.requests("/apple-touch-icon.png").count, 1)
            let podcast = try await client.execute(uri: "/artwork/podcasts/1", method: .get)
            XCTAssertEqual(Data(buffer: podcast.body), logo, "the feed's itunes:image")
            let episode = try await client.execute(uri: "/artwork/episodes/2", method: .get)
            XCTAssertEqual(Data(buffer: episode.body), logo, "an episode's image that is no web address: the podcast's")
            XCTAssertNil(try harness.libraryStores.podcasts.episode(id: 2)?.image, "javascript: is no image address")

            // No image to be had (an SVG served as PNG is refused by its bytes): the initials, drawn.
            for (id, initials) in [("disguised", ">D<"), ("hostile", ">SA<")] {
                let drawn = try await client.execute(uri: "/artwork/stations/\(id)", method: .get)
                let svg = String(buffer: drawn.body)
                XCTAssertEqual(drawn.headers[.contentType], "image/svg+xml")
                XCTAssertEqual(drawn.headers[.contentSecurityPolicy], "default-src 'none'; style-src 'unsafe-inline'")
                XCTAssertTrue(svg.contains(initials), svg)
                XCTAssertFalse(svg.contains("<script") || svg.contains("alert"), svg)
            }
            let named = try await client.execute(uri: "/artwork/initials/%3Cimg%20src%3Dx%3E%20%26%20more", method: .get)
            XCTAssertFalse(String(buffer: named.body).contains("<img"), String(buffer: named.body))
            let missing = try await client.execute(uri: "/artwork/stations/nothing", method: .get)
            XCTAssertEqual(missing.status, .notFound)

            // Every response, a refusal too, says what it is and stays in its frame; a page runs only the box's own script.
            XCTAssertEqual(missing.headers[.init("X-Content-Type-Options")!], "nosniff")
            XCTAssertEqual(missing.headers[.init("X-Frame-Options")!], "DENY")
            let page = try await client.execute(uri: "/", method: .get)
            XCTAssertEqual(page.headers[.init("X-Content-Type-Options")!], "nosniff")
            XCTAssertEqual(page.headers[.init("X-Frame-Options")!], "DENY")
            let policy = try XCTUnwrap(page.headers[.contentSecurityPolicy])
            XCTAssertTrue(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), policy)
        }
    }

    func testImagesThatTrickleInHoldNoPageAndNoOtherRequest() async throws {
        let server = try FixtureHTTPServer()
        let dripping = Counter()
        for name in ["one", "two", "three"] {
            server.route("/\(name).png") { _, connection in
                _ = dripping.increment()
                try connection.sendStatus(line: "HTTP/1.1 200 OK", headers: [("Content-Type", "image/png")])
                for _ in 0..<60 { try connection.send(Data([0x89])); try connection.sleep(3) }
            }
        }
        let stations = ["one", "two", "three"].map { name -> Station in
            var station = TestStations.station(id: name, name: name.capitalized, url: "http://127.0.0.1:9/\(name).mp3")
            station.logo = server.url("/\(name).png").absoluteString
            return station
        }
        let harness = try WebAppHarness(stations: stations)
        defer { harness.stop() }
        try await harness.application().test(.router) { client in
            // Two logos trickle in a byte every 3 s: the box fetches two images at a time, at most.
            async let first = client.execute(uri: "/artwork/stations/one", method: .get)
            async let second = client.execute(uri: "/artwork/stations/two", method: .get)
            XCTAssertTrue(eventually(timeout: 10) { dripping.total == 2 }, "both fetches began")
            // Meanwhile a third image is drawn at once, and pages and the player answer.
            let third = try await client.execute(uri: "/artwork/stations/three", method: .get)
            XCTAssertEqual(third.headers[.contentType], "image/svg+xml", "no third fetch while two trickle: the initials")
            XCTAssertEqual(dripping.total, 2)
            let queue = try await client.execute(uri: "/player/queue", method: .get)
            XCTAssertEqual(queue.status, .ok)
            let page = try await client.execute(uri: "/stations", method: .get)
            XCTAssertEqual(page.status, .ok)
            server.stop()  // the two fetches fail: their stations are drawn too
            let (one, two) = try await (first, second)
            XCTAssertEqual([one.headers[.contentType], two.headers[.contentType]], ["image/svg+xml", "image/svg+xml"])
        }
    }
}
