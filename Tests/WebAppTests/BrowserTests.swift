import Daemon
import Foundation
import Hummingbird
import HummingbirdTesting
import Library
import NIOPosix
import Engine
import Guide
import RadioModel
import TestSupport
import XCTest

/// The web app in a real browser: Debian's headless Chromium, driven by selenium through chromedriver
/// (Browser/walkthrough.py), against the pages served in-process on a real daemon whose station is a
/// real Icecast mount. The script's screenshots of each page (phone and laptop width) are kept in
/// .build/web-screenshots/BACKEND: the SQLite and PostgreSQL passes run side by side, and each clears its
/// own screenshots before it takes them (in one folder, one pass cleared the other's).
final class BrowserTests: XCTestCase {
    private static let mount = "/demo.mp3"
    private static let hostileTitle = "<script>window.owned=1</script> News"
    private static let hostileLiveTitle = "<img src=x onerror=window.owned=1> Live"

    /// Skips the test where the browser or selenium is missing.
    private static func requireBrowser() throws {
        for tool in ["chromium", "chromedriver", "python3"] where ProcessRunner.which(tool) == nil {
            throw XCTSkip("\(tool) is not installed: run scripts/setup")
        }
        guard (try? ProcessRunner.run("python3", ["-c", "import selenium"]).status) == 0 else {
            throw XCTSkip("selenium is not installed for python3: run scripts/setup")
        }
    }

    private static let browserDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser")
    private static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/web-screenshots").appendingPathComponent(TestDatabase.backendName)

    func testAPersonFindsAStationSchedulesARecordingPlaysItJumpsToAChapterAndDeletesIt() async throws {
        try Self.requireBrowser()
        let icecast = try IcecastHarness.playingTone(at: Self.mount, title: "Morning tune")
        defer { icecast.stop() }
        let harness = try WebAppHarness(stations: [
            TestStations.station(id: "demo", name: "Demo FM", url: icecast.url(mount: Self.mount).absoluteString, programmes: [
                Programme(id: "breakfast", name: "The Breakfast Show",
                          slots: [BroadcastSlot(days: [.mon, .tue, .wed, .thu, .fri], start: ClockTime(hour: 7, minute: 0),
                                                duration: TimeSpan(seconds: 7200))]),
            ]),
            TestStations.station(id: "hostile", name: "<script>window.owned=1</script> Radio", url: "http://127.0.0.1:9/x.mp3"),
        ])
        defer { harness.stop() }
        harness.runDaemon()

        // A few seconds into the scheduled episode the station sends a hostile title: the recording's second chapter.
        let titled = Thread {
            guard eventually(timeout: 90, { harness.daemon.status().active.contains { $0.state == "recording" } }) else { return }
            Thread.sleep(forTimeInterval: 4)
            try? icecast.setTitle(mount: Self.mount, Self.hostileTitle)
        }
        titled.start()

        let (script, screenshots) = (Self.browserDirectory.appendingPathComponent("walkthrough.py"), Self.screenshots)
        // In place of the live mount `/live/demo`, a redirect to a real relay of the station, started (as a
        // live mount joins its station) when a player first asks. The event stream is the daemon's: a title
        // event is published into it every half second until the walkthrough ends.
        let relay = "http://127.0.0.1:\(try FreePort.pick())/demo.mp3"
        let relayStart = NSLock()
        let events = harness.application([{ router in
            router.get("/live/demo") { _, _ in
                try await NIOThreadPool.singleton.runIfActive {
                    try relayStart.withLock {
                        guard !harness.daemon.jobs.list().contains(where: { $0.kind == .relay }) else { return }
                        _ = try harness.daemon.jobs.start(JobSpec(kind: .relay, station: "demo", sinks: [relay]))
                    }
                }
                return Response.redirect(to: relay, type: .found)
            }
        }])
        let walkthroughDone = Locked(false)
        let titles = Thread {
            while !walkthroughDone.current {
                harness.daemon.events.publish(LiveEvent(type: .title, station: "demo", title: Self.hostileLiveTitle))
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        titles.start()
        defer { walkthroughDone.withLock { $0 = true } }
        try await events.test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let result = try await Self.run(script, environment: ["ONAIR_WEB_URL": "http://127.0.0.1:\(port)",
                                                                  "ONAIR_SCREENSHOTS": screenshots.path])
            XCTAssertEqual(result.status, 0, "the walkthrough failed:\n\(result.output)")
            XCTAssertTrue(result.output.contains("walkthrough passed"), result.output)
        }
        XCTAssertEqual(try harness.daemon.recordings.all().count, 1, "the scheduled recording was deleted, the one recorded by hand kept")
        XCTAssertEqual(harness.daemon.jobs.list().map(\.kind), [.relay], "the recording job was stopped from the status page")
        for page in ["stations", "station", "schedule", "recordings", "recording", "status"] {
            for width in ["phone", "laptop"] {
                XCTAssertTrue(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent("\(page)-\(width).png").path))
            }
        }
    }

    func testAPersonSeesTheGuideFollowsAPodcastPlaysAnEpisodeAndKeepsItInAPlaylist() async throws {
        try Self.requireBrowser()
        let harness = try WebAppHarness(stations: [TestStations.station(id: "demo", name: "Demo FM", url: "http://127.0.0.1:9/demo.mp3")])
        defer { harness.stop() }
        // Today's guide: a programme on air now.
        let xmltv = DateFormatter()
        (xmltv.locale, xmltv.timeZone, xmltv.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "UTC"), "yyyyMMddHHmmss")
        let now = Date()
        try harness.daemon.guide.importGuide(try XMLTVReader.read(Data("""
        <tv><channel id="demo.example"><display-name>Demo</display-name></channel>
          <programme start="\(xmltv.string(from: now.addingTimeInterval(-600))) +0000" stop="\(xmltv.string(from: now.addingTimeInterval(3000))) +0000"
            channel="demo.example"><title>Tone Magazine</title><desc>Sines, every hour.</desc></programme>
        </tv>
        """.utf8)))
        _ = try harness.daemon.guide.map(channel: "demo.example", to: "demo")
        // A local podcast feed whose episode is real audio, served with range requests.
        let audio = try Data(contentsOf: try AudioFixtures.sine(frequency: 440, seconds: 8))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/one.mp3", FixtureHTTPServer.rangedFile(audio, contentType: "audio/mpeg", served: Counter()))
        server.route("/feed.xml", FixtureHTTPServer.file(Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Tone Talk</title><description>Tones, talked about.</description>
          <item><title>One tone</title><guid>one</guid><pubDate>Mon, 23 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="\(server.url("/one.mp3").absoluteString)" type="audio/mpeg" length="\(audio.count)"/></item>
        </channel></rss>
        """.utf8), contentType: "application/rss+xml"))

        let pages = ["guide", "podcasts", "podcast", "episode", "playlists", "playlist"].flatMap { ["\($0)-phone.png", "\($0)-laptop.png"] }
        for page in pages { try? FileManager.default.removeItem(at: Self.screenshots.appendingPathComponent(page)) }

        try await harness.application().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let result = try await Self.run(Self.browserDirectory.appendingPathComponent("listening.py"),
                                            environment: ["ONAIR_WEB_URL": "http://127.0.0.1:\(port)", "ONAIR_SCREENSHOTS": Self.screenshots.path,
                                                          "ONAIR_FEED_URL": server.url("/feed.xml").absoluteString])
            XCTAssertEqual(result.status, 0, "the walkthrough failed:\n\(result.output)")
            XCTAssertTrue(result.output.contains("listening passed"), result.output)
        }
        XCTAssertGreaterThan(server.requests("/one.mp3").count, 0, "the browser fetched the episode from its enclosure")
        XCTAssertEqual(try harness.libraryStores.library.playlists().map(\.playlist.name), ["New playlist"])
        XCTAssertEqual(try harness.libraryStores.library.entries(of: 1)?.count, 0, "the hidden episode left the playlist")
        XCTAssertEqual(try harness.libraryStores.library.hiddenReferences(), ["episode:1"])
        for page in pages {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.screenshots.appendingPathComponent(page).path), "\(page) kept")
        }
    }

    func testAPersonListensAcrossPagesQueuesAProgrammeAndResumesOnAnotherScreen() async throws {
        try Self.requireBrowser()
        let icecast = try IcecastHarness.playingTone(at: Self.mount, title: "Morning tune")
        defer { icecast.stop() }
        let harness = try WebAppHarness(stations: [
            TestStations.station(id: "demo", name: "Demo FM", url: icecast.url(mount: Self.mount).absoluteString),
        ])
        defer { harness.stop() }
        // Two episodes of The Morning Show, 30 s each, with three chapters; the station is liked (a favourite).
        let tone = try AudioFixtures.sine(frequency: 440, seconds: 30)
        for (name, day) in [("monday.mp3", "2026-11-23"), ("tuesday.mp3", "2026-11-24")] {
            _ = try harness.indexRecording(copying: tone, named: name, titles: [("Intro", 0), ("Middle", 10), ("End", 20)], duration: 30, day: day)
        }
        _ = try harness.libraryStores.library.setLiked(LibraryItem(kind: .station, ref: "demo", title: "Demo FM"), true)
        let pages = ["listen-now", "search", "player"].flatMap { ["\($0)-phone.png", "\($0)-laptop.png"] }
        for page in pages { try? FileManager.default.removeItem(at: Self.screenshots.appendingPathComponent(page)) }

        try await harness.application().test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let result = try await Self.run(Self.browserDirectory.appendingPathComponent("player.py"),
                                            environment: ["ONAIR_WEB_URL": "http://127.0.0.1:\(port)", "ONAIR_SCREENSHOTS": Self.screenshots.path])
            XCTAssertEqual(result.status, 0, "the player walkthrough failed:\n\(result.output)")
            XCTAssertTrue(result.output.contains("player passed"), result.output)
        }
        XCTAssertEqual(try harness.libraryStores.library.hiddenReferences(), ["recording:1"])
        XCTAssertEqual(try harness.libraryStores.library.liked().map(\.reference), ["station:demo"], "hidden, the liked recording left Liked too")
        let queue = try XCTUnwrap(try harness.libraryStores.positions.playQueue())
        XCTAssertEqual(queue.current, "recording:2", "the daemon keeps what the laptop played last")
        XCTAssertEqual(try harness.libraryStores.positions.history(limit: 10).map(\.item).first, "recording:2")
        for page in ["listen-now-phone.png", "listen-now-laptop.png", "search-phone.png", "player-phone.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.screenshots.appendingPathComponent(page).path), "\(page) kept")
        }
    }

    /// Runs the script on NIO's thread pool, so no thread of Swift's pool waits for it; killed after 4 minutes.
    private static func run(_ script: URL, environment: [String: String]) async throws -> (status: Int32, output: String) {
        try await NIOThreadPool.singleton.runIfActive {
            let result = try ProcessRunner.run("python3", [script.path], timeout: 240, environment: environment)
            return (result.succeeded ? 0 : max(result.status, 1), result.stdoutText + result.stderrText)
        }
    }
}
