import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `onair schedule` and `onair daemon` end to end: rules added while the daemon runs, recorded from
/// a real Icecast or FFmpeg's live HLS, cut at the rules' wall-clock boundaries.
final class ScheduleDaemonTests: XCTestCase {
    private var onair: OnairBinary!
    private var daemons: [RunningProcess] = []

    override func setUpWithError() throws {
        onair = try OnairBinary()
    }

    override func tearDown() {
        daemons.forEach { $0.stop(grace: 5) }
    }

    // MARK: Helpers

    /// Adds a one-off rule starting at `start` (a whole second) and returns its id.
    @discardableResult
    private func addOnce(_ station: String, at start: Date, seconds: Int, _ options: [String] = []) throws -> Int {
        let result = try onair.run(["schedule", "add", station, "--on", OnairBinary.utcText(start), "--for", "\(seconds)s", "--tz", "UTC", "--json"]
                                   + options)
        XCTAssertTrue(result.succeeded, "\(result)")
        return try XCTUnwrap(OnairBinary.events(result.stdoutText).first?["id"] as? Int, result.stdoutText)
    }

    /// A whole second at least `seconds` from now.
    private func wholeSecond(in seconds: Double) -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
    }

    private func startDaemon(json: Bool = true) throws -> RunningProcess {
        let daemon = try onair.start(["daemon", "--http", "off"] + (json ? ["--json"] : []))
        daemons.append(daemon)
        // Ready once its control socket answers.
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if (try? onair.localStatus(["--json"], timeout: 5))?.succeeded == true { return daemon }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("the daemon did not answer: \(daemon.result())")
        return daemon
    }

    private func episodes() throws -> [[String: Any]] {
        OnairBinary.events(try onair.run(["schedule", "episodes", "--json"]).stdoutText)
    }

    /// Waits until every episode has one of the final statuses, and returns them (oldest first).
    private func waitUntilFinished(count: Int, timeout: TimeInterval) throws -> [[String: Any]] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let all = try episodes()
            if all.count >= count, all.allSatisfy({ ["done", "failed", "missed"].contains($0["status"] as? String) }) {
                return all.reversed()
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTFail("episodes not finished after \(timeout) s: \(try episodes())\n\(daemons.last.map { $0.stderrText } ?? "")")
        return try episodes().reversed()
    }

    private func files(of episode: [String: Any]) -> [URL] {
        (episode["files"] as? [String] ?? []).map(URL.init(fileURLWithPath:))
    }

    private func startIcecast(mount: String, burstSize: Int = 0) throws -> IcecastHarness {
        try IcecastHarness.playing(mount, title: "Scheduled tone", burstSize: burstSize)
    }

    // MARK: Tests

    func testInvalidRulesAreOneLineAndExitThreeAndNothingIsSaved() throws {
        let cases: [([String], String)] = [
            (["no-such-station", "--at", "fri 22:00", "--for", "1h"], "no station with id 'no-such-station'"),
            (["http://127.0.0.1:9/x.mp3", "--at", "fri 22:00", "--for", "1h", "--tz", "Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
            (["http://127.0.0.1:9/x.mp3", "--on", "2020-01-01T10:00", "--for", "1h", "--tz", "UTC"], "has no future episode"),
            (["http://127.0.0.1:9/x.mp3", "--cron", "0 25 * * *", "--for", "1h"], "hour '25' is outside 0-23"),
        ]
        for (arguments, expected) in cases {
            let result = try onair.run(["schedule", "add"] + arguments)
            XCTAssertEqual(result.status, 3, "\(arguments): \(result)")
            let lines = result.stderrText.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, result.stderrText)
            XCTAssertTrue(lines.first?.hasPrefix("onair: ") == true && result.stderrText.contains(expected), result.stderrText)
        }
        XCTAssertTrue(OnairBinary.events(try onair.run(["schedule", "list", "--json"]).stdoutText).isEmpty)
        XCTAssertEqual(try onair.run(["schedule", "remove", "7"]).status, 4)
        XCTAssertEqual(try onair.localStatus().status, 1, "no daemon is running")
    }

    func testRulesListNextPauseAndRemove() throws {
        let add = try onair.run(["schedule", "add", "http://127.0.0.1:9/x.mp3", "--at", "mon-fri 06:30", "--for", "2h",
                                 "--tz", "Europe/London", "--pad-before", "1m", "--keep", "3", "--json"])
        XCTAssertTrue(add.succeeded, "\(add)")
        let id = try XCTUnwrap(OnairBinary.events(add.stdoutText).first?["id"] as? Int)
        let next = OnairBinary.events(try onair.run(["schedule", "next", "3", "--json"]).stdoutText)
        XCTAssertEqual(next.count, 3)
        for episode in next {
            XCTAssertTrue((episode["startLocal"] as? String)?.contains("T06:30:00") == true, "\(episode)")
            let start = try XCTUnwrap(OnairBinary.date(episode["start"])), window = try XCTUnwrap(OnairBinary.date(episode["windowStart"]))
            XCTAssertEqual(start.timeIntervalSince(window), 60, accuracy: 0.001, "the pad widens the window")
        }
        XCTAssertTrue(try onair.run(["schedule", "pause", "\(id)"]).succeeded)
        XCTAssertEqual(OnairBinary.events(try onair.run(["schedule", "list", "--json"]).stdoutText).first?["paused"] as? Bool, true)
        XCTAssertTrue(OnairBinary.events(try onair.run(["schedule", "next", "--json"]).stdoutText).isEmpty, "a paused rule has no episodes")
        XCTAssertTrue(try onair.run(["schedule", "resume", "\(id)"]).succeeded)
        XCTAssertTrue(try onair.run(["schedule", "remove", "\(id)"]).succeeded)
        XCTAssertTrue(OnairBinary.events(try onair.run(["schedule", "list", "--json"]).stdoutText).isEmpty)

        // A catalogue programme: its broadcasts in the station's time zone (Jazz Record Requests, Sat 16:00 London).
        XCTAssertTrue(try onair.run(["schedule", "add", "bbc-radio-3", "--programme", "jazz-record-requests"]).succeeded)
        let broadcasts = OnairBinary.events(try onair.run(["schedule", "next", "2", "--json"]).stdoutText)
        XCTAssertEqual(broadcasts.count, 2)
        for broadcast in broadcasts {
            XCTAssertEqual(broadcast["timeZone"] as? String, "Europe/London")
            XCTAssertEqual(broadcast["programme"] as? String, "Jazz Record Requests")
            let start = try XCTUnwrap(OnairBinary.date(broadcast["start"]))
            var london = Calendar(identifier: .gregorian)
            london.timeZone = TimeZone(identifier: "Europe/London")!
            XCTAssertEqual(london.dateComponents([.weekday, .hour, .minute], from: start), DateComponents(hour: 16, minute: 0, weekday: 7))
        }
        let unknown = try onair.run(["schedule", "add", "bbc-radio-3", "--programme", "nope"])
        XCTAssertEqual(unknown.status, 3)
        XCTAssertTrue(unknown.stderrText.contains("bbc-radio-3 has no programme 'nope' (it has: "), unknown.stderrText)
    }

    func testARuleDueThreeSecondsAfterTheDaemonStartsRecordsFiveSeconds() throws {
        let icecast = try startIcecast(mount: "/sched.mp3")
        defer { icecast.stop() }
        let daemon = try startDaemon()
        let start = wholeSecond(in: 3)
        try addOnce(icecast.url(mount: "/sched.mp3").absoluteString, at: start, seconds: 5)

        // While it records, `onair status` shows it.
        Thread.sleep(forTimeInterval: max(0, start.timeIntervalSinceNow) + 2.5)
        let status = try onair.localStatus(["--json"])
        XCTAssertTrue(status.succeeded, "\(status)")
        let active = try XCTUnwrap((OnairBinary.events(status.stdoutText).first?["active"] as? [[String: Any]])?.first, status.stdoutText)
        XCTAssertEqual(active["state"] as? String, "recording", "\(active)")
        XCTAssertEqual(active["title"] as? String, "Scheduled tone")
        XCTAssertGreaterThan(active["bytes"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(active["elapsed"] as? Double ?? 0, 1)

        let episode = try XCTUnwrap(try waitUntilFinished(count: 1, timeout: 30).first)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        XCTAssertEqual(episode["late"] as? Bool, false)
        let file = try XCTUnwrap(files(of: episode).first)
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
        let audio = try FFprobe.decodePCM(file)
        XCTAssertEqual(audio.duration, 5, accuracy: 0.25, "5 s ±5%")
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 3)
        let first = try XCTUnwrap(OnairBinary.date(episode["firstSampleAt"]))
        XCTAssertEqual(first.timeIntervalSince(start), 0, accuracy: 0.5, "recording starts at the scheduled instant")
        let indexed = OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText)
        XCTAssertEqual(indexed.map { $0["file"] as? String }, [file.path])

        kill(daemon.pid, SIGTERM)
        XCTAssertTrue(daemon.waitForExit(timeout: 10))
        XCTAssertEqual(daemon.result().status, 0, daemon.stderrText)
    }

    func testAudioThatArrivesAfterTheWindowOpenedIsToldInTheEpisodesNote() throws {
        // The daemon connects 3 s before the window (its default pre-roll); this server answers 5 s later.
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 20, codec: .mp3, bitrate: 128))
        let stream = FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio, metaint: 16_000, schedule: []), bytesPerSecond: 16_000)
        server.route("/slow.mp3") { request, connection in
            Thread.sleep(forTimeInterval: 5)
            try stream(request, connection)
        }
        _ = try startDaemon()
        let start = wholeSecond(in: 4)
        try addOnce(server.url("/slow.mp3").absoluteString, at: start, seconds: 6)

        let episode = try XCTUnwrap(try waitUntilFinished(count: 1, timeout: 30).first)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        XCTAssertEqual(episode["late"] as? Bool, false, "the daemon was on time; the audio was not")
        let first = try XCTUnwrap(OnairBinary.date(episode["firstSampleAt"]))
        let late = first.timeIntervalSince(start)
        XCTAssertEqual(late, 2, accuracy: 1, "\(episode)")
        let note = try XCTUnwrap(episode["reason"] as? String, "\(episode)")
        XCTAssertEqual(note, String(format: "audio first arrived %.1f s after the window opened", late))
        let file = try XCTUnwrap(files(of: episode).first)
        // To within a second: the server's first second of audio comes at once, and is labelled with its arrival.
        XCTAssertEqual(try FFprobe.decodePCM(file).duration + late, 6, accuracy: 1, "the file is short by the late start")
    }

    /// A guide time in XMLTV's form, on a +01:00 clock: "20261124203000 +0100".
    private func xmltvTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyyMMddHHmmss"
        return formatter.string(from: date) + " +0100"
    }

    /// An XMLTV guide of the channel "jazz.example": each broadcast's title, sub-title and start, 4 s long.
    private func writeGuide(_ name: String, _ broadcasts: [(title: String, part: Int, start: Date)]) throws -> URL {
        let programmes = broadcasts.map { broadcast in
            """
              <programme start="\(xmltvTime(broadcast.start))" stop="\(xmltvTime(broadcast.start.addingTimeInterval(4)))" channel="jazz.example">
                <title lang="de">\(broadcast.title == "Jazz Hour" ? "Jazzstunde" : "Nachrichten")</title>
                <title lang="en">\(broadcast.title)</title>
                <sub-title lang="en">Part \(broadcast.part)</sub-title>
                <desc lang="en">Records from 195\(broadcast.part).</desc>
                <episode-num system="xmltv_ns">0.\(broadcast.part - 1).</episode-num>
              </programme>
            """
        }
        let file = onair.home.file(name)
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <tv><channel id="jazz.example"><display-name>Jazz FM</display-name></channel>
        \(programmes.joined(separator: "\n"))
        </tv>
        """.utf8).write(to: file)
        return file
    }

    func testAGuideRuleRecordsEveryBroadcastOfTheSeriesByTitleIncludingOneTheGuideMoved() throws {
        let icecast = try startIcecast(mount: "/jazz.mp3")
        defer { icecast.stop() }
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "jazz-fm", "name": "Jazz FM", "country": "DE", "language": "en", "timeZone": "Europe/Berlin",
          "guideID": "jazz.example", "streams": [{"url": "\(icecast.url(mount: "/jazz.mp3").absoluteString)", "kind": "icy", "codec": "mp3"}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))

        // A weekly series squeezed into seconds: three broadcasts of Jazz Hour, News between them.
        let base = wholeSecond(in: 8)
        let at = { (seconds: Double) in base.addingTimeInterval(seconds) }
        let planned = try writeGuide("week.xml", [("Jazz Hour", 1, at(0)), ("News", 1, at(4)), ("Jazz Hour", 2, at(8)),
                                                  ("Jazz Hour", 3, at(16))])
        XCTAssertTrue(try onair.run(["guide", "import", planned.path]).succeeded)
        let add = try onair.run(["schedule", "add", "jazz-fm", "--title", "^jazz hour$", "--json"])
        XCTAssertTrue(add.succeeded, "\(add)")
        let upcoming = OnairBinary.events(try onair.run(["schedule", "next", "5", "--json"]).stdoutText)
        XCTAssertEqual(upcoming.compactMap { OnairBinary.date($0["start"]) }, [at(0), at(8), at(16)], "News is not Jazz Hour")
        XCTAssertEqual(upcoming.first?["programme"] as? String, "Jazz Hour", "the station's language picks the title")
        XCTAssertEqual(upcoming.map { $0["episodeNumber"] as? String }, ["S1E1", "S1E2", "S1E3"])
        XCTAssertEqual(upcoming.first?["episodeTitle"] as? String, "Part 1")
        let listing = try onair.run(["guide", "jazz-fm", "--date", String(xmltvTime(base).prefix(8)).replacingOccurrences(
            of: #"(\d{4})(\d{2})(\d{2})"#, with: "$1-$2-$3", options: .regularExpression)])
        XCTAssertTrue(listing.stdoutText.contains("Jazz Hour") && listing.stdoutText.contains("S1E2") && listing.stdoutText.contains("Part 2"),
                      listing.stdoutText)
        _ = try startDaemon()

        // While the first broadcast is on air, the guide moves the third from +16 s to +22 s.
        Thread.sleep(forTimeInterval: max(0, at(1).timeIntervalSinceNow))
        let moved = try writeGuide("moved.xml", [("Jazz Hour", 1, at(0)), ("News", 1, at(4)), ("Jazz Hour", 2, at(8)),
                                                 ("News", 2, at(16)), ("Jazz Hour", 3, at(22))])
        let reimport = try onair.run(["guide", "import", moved.path])
        XCTAssertTrue(reimport.succeeded && reimport.stdoutText.contains("replacing 4"), "\(reimport)")

        let episodes = try waitUntilFinished(count: 3, timeout: 60)
        XCTAssertEqual(episodes.map { $0["status"] as? String }, ["done", "done", "done"], "\(episodes)")
        XCTAssertEqual(episodes.compactMap { OnairBinary.date($0["programmeStart"]) }, [at(0), at(8), at(22)], "the moved broadcast at its new time")
        for (number, episode) in episodes.enumerated().map({ ($0 + 1, $1) }) {
            let file = try XCTUnwrap(files(of: episode).first, "\(episode)")
            let first = try XCTUnwrap(OnairBinary.date(episode["firstSampleAt"]))
            XCTAssertEqual(first.timeIntervalSince(try XCTUnwrap(OnairBinary.date(episode["programmeStart"]))), 0, accuracy: 0.5)
            XCTAssertEqual(try FFprobe.decodePCM(file).duration, 4, accuracy: 0.25)
            let probe = try FFprobe.inspect(file)
            let tags = probe.tags.merging(probe.audio?.tags ?? [:]) { first, _ in first }
            XCTAssertEqual(tags["title"], "Jazz Hour: Part \(number)", "\(tags)")
            XCTAssertEqual(tags["album"], "Jazz Hour", "\(tags)")
            XCTAssertEqual(tags["description"], "Records from 195\(number).", "\(tags)")
            XCTAssertEqual(tags["episode_id"], "S1E\(number)", "\(tags)")
        }
        let indexed = OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText)
        XCTAssertEqual(indexed.map { $0["episodeTitle"] as? String }, ["Part 1", "Part 2", "Part 3"])
        XCTAssertEqual(indexed.map { $0["episodeNumber"] as? String }, ["S1E1", "S1E2", "S1E3"])
        XCTAssertEqual(Set(indexed.map { $0["programme"] as? String }), ["jazz-hour"])
    }

    // MARK: Runtime jobs

    private func jobs() throws -> [[String: Any]] {
        let result = try onair.run(["jobs", "list", "--json"], timeout: 10)
        XCTAssertTrue(result.succeeded, "\(result)")
        return OnairBinary.events(result.stdoutText).first?["jobs"] as? [[String: Any]] ?? []
    }

    func testARelayJobSharesTheStationWithAnEpisodeAndItsMountEndsWhenStopped() throws {
        let icecast = try startIcecast(mount: "/jobs.mp3")
        defer { icecast.stop() }
        let relay = try FixtureHTTPServer()
        defer { relay.stop() }
        relay.route("/jobs.mp3", FixtureHTTPServer.relay(upstreamPort: icecast.port, capture: RelayCapture()))
        let station = relay.url("/jobs.mp3").absoluteString
        let daemon = try startDaemon()
        let mount = URL(string: "http://127.0.0.1:\(try FreePort.pick())/x.mp3")!

        let began = Date()
        let started = try onair.run(["jobs", "start", "relay", station, "--to", mount.absoluteString, "--json"], timeout: 10)
        XCTAssertTrue(started.succeeded, "\(started)")
        XCTAssertLessThan(Date().timeIntervalSince(began), 3, "the client does not wait for the job")
        let id = try XCTUnwrap(OnairBinary.events(started.stdoutText).first?["id"] as? Int, started.stdoutText)
        let start = wholeSecond(in: 2)
        try addOnce(station, at: start, seconds: 4)

        // A listener pulls the mount for 3 s while the episode records; the job list shows the listener.
        let listened = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var capture: RawHTTPResponse?
        Thread.detachNewThread {
            capture = try? RawHTTP.get(mount, duration: 3)
            listened.signal()
        }
        XCTAssertTrue(eventually(timeout: 5) {
            ((try? self.jobs())?.first?["sinks"] as? [[String: Any]])?.first?["listeners"] as? Int == 1
        }, "\(String(describing: try? jobs()))")
        Thread.sleep(forTimeInterval: max(0, start.timeIntervalSinceNow) + 1)
        XCTAssertEqual(try icecast.mounts().first { $0.mount == "/jobs.mp3" }?.listeners, 1, "one listener for the job and the episode")
        XCTAssertEqual(listened.wait(timeout: .now() + 10), .success)
        let file = onair.home.file("capture.mp3")
        try XCTUnwrap(capture).body.write(to: file)
        XCTAssertEqual(try XCTUnwrap(FFprobe.decodePCM(file).dominantFrequency()), 440, accuracy: 5, "the listener hears the station")
        let listed = try XCTUnwrap(try jobs().first)
        XCTAssertEqual(listed["id"] as? Int, id)
        XCTAssertEqual(listed["state"] as? String, "playing")
        XCTAssertGreaterThan(listed["bytes"] as? Int ?? 0, 0)

        let stopped = try onair.run(["jobs", "stop", "\(id)"], timeout: 10)
        XCTAssertTrue(stopped.succeeded, "\(stopped)")
        XCTAssertTrue(eventually(timeout: 3) { (try? RawHTTP.get(mount, timeout: 1))?.statusCode != 200 }, "the mount is gone")
        XCTAssertTrue(try jobs().isEmpty)
        XCTAssertEqual(try onair.run(["jobs", "stop", "\(id)"]).status, 4, "no such job any more")
        let finished = try waitUntilFinished(count: 1, timeout: 20)
        XCTAssertEqual(finished.first?["status"] as? String, "done", "\(finished)")
        XCTAssertEqual(relay.requestCount("/jobs.mp3"), 1, "one upstream connection for the job and the episode")
        kill(daemon.pid, SIGTERM)
        XCTAssertTrue(daemon.waitForExit(timeout: 10))
        XCTAssertEqual(daemon.result().status, 0, daemon.stderrText)
    }

    func testAJobWhoseStationDiesReconnectsAndListsItsGap() throws {
        let icecast = try startIcecast(mount: "/dies.mp3")
        defer { icecast.stop() }
        _ = try startDaemon()
        let started = try onair.run(["jobs", "start", "relay", icecast.url(mount: "/dies.mp3").absoluteString,
                                     "--to", "http://127.0.0.1:\(try FreePort.pick())/dies.mp3", "--json"], timeout: 10)
        XCTAssertTrue(started.succeeded, "\(started)")
        XCTAssertTrue(eventually(timeout: 10) { (try? self.jobs())?.first?["state"] as? String == "playing" })
        try icecast.stopSource(mount: "/dies.mp3")
        Thread.sleep(forTimeInterval: 1)
        try icecast.startSource(mount: "/dies.mp3", codec: .mp3, frequency: 440)
        XCTAssertTrue(eventually(timeout: 30) {
            let job = (try? self.jobs())?.first
            return (job?["gaps"] as? Int ?? 0) >= 1 && job?["state"] as? String == "playing"
        }, "\(String(describing: try? jobs()))")
        let job = try XCTUnwrap(try jobs().first)
        XCTAssertGreaterThanOrEqual(job["reconnects"] as? Int ?? 0, 1)
        XCTAssertGreaterThan(job["gapSeconds"] as? Double ?? 0, 0.5, "the downtime is counted: \(job)")
        let listed = try onair.run(["jobs", "list"])
        XCTAssertTrue(listed.stdoutText.contains("gap"), listed.stdoutText)
    }

    func testAPersistedJobComesBackWhenTheDaemonRestarts() throws {
        let icecast = try startIcecast(mount: "/kept.mp3")
        defer { icecast.stop() }
        let station = icecast.url(mount: "/kept.mp3").absoluteString
        var daemon = try startDaemon()
        XCTAssertEqual(try onair.run(["jobs", "list"]).stdoutText, "no jobs\n")
        let kept = try onair.run(["jobs", "start", "record", station, "--persist", "--json"], timeout: 10)
        let passing = try onair.run(["jobs", "start", "record", station, "--json"], timeout: 10)
        XCTAssertTrue(kept.succeeded && passing.succeeded, "\(kept)\n\(passing)")
        let id = try XCTUnwrap(OnairBinary.events(kept.stdoutText).first?["id"] as? Int)
        XCTAssertEqual(try jobs().count, 2)
        Thread.sleep(forTimeInterval: 2)
        kill(daemon.pid, SIGTERM)
        XCTAssertTrue(daemon.waitForExit(timeout: 10))
        XCTAssertEqual(OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText).count, 2,
                       "both recordings are finalised when the daemon stops")

        daemon = try startDaemon()
        let restored = try jobs()
        XCTAssertEqual(restored.map { $0["id"] as? Int }, [id], "only the persisted job comes back, with its id")
        XCTAssertEqual(restored.first?["persist"] as? Bool, true)
        XCTAssertTrue(try onair.run(["jobs", "stop", "\(id)"], timeout: 20).succeeded)
        kill(daemon.pid, SIGTERM)
        XCTAssertTrue(daemon.waitForExit(timeout: 10))
        daemon = try startDaemon()
        XCTAssertTrue(try jobs().isEmpty, "a stopped job is forgotten")
    }

    func testOverlappingRulesOnOneStationShareOneConnection() throws {
        // Icecast's usual burst: 4 s of recent audio at once on connecting, which must not count as now.
        let icecast = try startIcecast(mount: "/both.mp3", burstSize: 65535)
        Thread.sleep(forTimeInterval: 4)
        defer { icecast.stop() }
        let relay = try FixtureHTTPServer()
        defer { relay.stop() }
        relay.route("/both.mp3", FixtureHTTPServer.relay(upstreamPort: icecast.port, capture: RelayCapture()))
        let station = relay.url("/both.mp3").absoluteString
        _ = try startDaemon()
        let start = wholeSecond(in: 3)
        try addOnce(station, at: start, seconds: 6)
        // The second re-encodes: the shared stream starts decoding for it while the first copies.
        try addOnce(station, at: start.addingTimeInterval(2), seconds: 3, ["--format", "opus"])

        Thread.sleep(forTimeInterval: max(0, start.timeIntervalSinceNow) + 3)
        XCTAssertEqual(try icecast.mounts().first { $0.mount == "/both.mp3" }?.listeners, 1, "one listener while both record")
        let finished = try waitUntilFinished(count: 2, timeout: 30)
        XCTAssertEqual(relay.requestCount("/both.mp3"), 1, "one upstream connection for both episodes")
        XCTAssertEqual(finished.map { $0["status"] as? String }, ["done", "done"], "\(finished)")
        for (episode, (seconds, fileExtension)) in zip(finished, [(6.0, "mp3"), (3.0, "opus")]) {
            let file = try XCTUnwrap(files(of: episode).first, "\(episode)")
            XCTAssertEqual(file.pathExtension, fileExtension)
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
            let audio = try FFprobe.decodePCM(file)
            XCTAssertEqual(audio.duration, seconds, accuracy: seconds * 0.05, file.path)
            XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 3)
        }
    }

    func testAKilledDaemonsPartIsFinalisedOnRestartAndTheRestIsRecorded() throws {
        let icecast = try startIcecast(mount: "/kill.mp3")
        defer { icecast.stop() }
        var daemon = try startDaemon()
        let start = wholeSecond(in: 2)
        let length = 12.0
        try addOnce(icecast.url(mount: "/kill.mp3").absoluteString, at: start, seconds: Int(length))
        Thread.sleep(forTimeInterval: max(0, start.timeIntervalSinceNow) + 4)
        kill(daemon.pid, SIGKILL)
        XCTAssertTrue(daemon.waitForExit(timeout: 5))
        let killedAt = Date()
        daemon = try startDaemon()
        let downtime = Date().timeIntervalSince(killedAt)

        let episode = try XCTUnwrap(try waitUntilFinished(count: 1, timeout: 40).first)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        XCTAssertEqual(episode["late"] as? Bool, true)
        XCTAssertTrue((episode["reason"] as? String)?.contains("resumed after a restart") == true, "\(episode)")
        let parts = files(of: episode)
        XCTAssertEqual(parts.count, 2, "\(episode)")
        var total = 0.0
        for part in parts {
            XCTAssertEqual(try FFprobe.decodeErrors(part), 0, part.path)
            total += try FFprobe.decodePCM(part).duration
        }
        let first = try FFprobe.decodePCM(parts[0]).duration
        XCTAssertGreaterThan(first, 2.5, "the killed part plays up to about the kill")
        XCTAssertLessThan(total, length + 0.3)
        // Lost: the downtime, the new connection, and what the killed part had not yet written out (≤ 1 s).
        XCTAssertGreaterThan(total, length - downtime - 2.5, "parts \(parts), downtime \(downtime)")
        let indexed = Set(OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText).compactMap { $0["file"] as? String })
        XCTAssertEqual(indexed, Set(parts.map(\.path)), "both parts are in the index")
    }

    /// A window that ends while the daemon is down: its part is finalised on restart, and the episode says how much
    /// of its end no file holds (no gap inside a file can).
    func testAWindowThatEndedWhileTheDaemonWasDownSaysHowMuchOfItsEndIsMissing() throws {
        let icecast = try startIcecast(mount: "/end.mp3")
        defer { icecast.stop() }
        var daemon = try startDaemon()
        let start = wholeSecond(in: 2)
        try addOnce(icecast.url(mount: "/end.mp3").absoluteString, at: start, seconds: 7)
        Thread.sleep(forTimeInterval: max(0, start.timeIntervalSinceNow) + 3)
        kill(daemon.pid, SIGKILL)
        XCTAssertTrue(daemon.waitForExit(timeout: 5))
        Thread.sleep(forTimeInterval: max(0, start.addingTimeInterval(8).timeIntervalSinceNow))
        daemon = try startDaemon()

        let episode = try XCTUnwrap(try waitUntilFinished(count: 1, timeout: 30).first)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        let reason = try XCTUnwrap(episode["reason"] as? String)
        let missing = try XCTUnwrap(reason.firstMatch(of: /the daemon stopped during the recording; its last (\d+) s were not recorded/), reason)
        let part = try XCTUnwrap(files(of: episode).first)
        XCTAssertEqual(try FFprobe.decodeErrors(part), 0)
        // What the part holds and what is said missing make up the window, to the second it is told in.
        XCTAssertEqual(Double(missing.1)! + (try FFprobe.decodePCM(part).duration), 7, accuracy: 1.5, reason)
    }

    func testALateHLSProgrammeIsBackFilledFromItsStartByProgramDateTime() throws {
        // A 60-segment window of 1 s segments; 24 s in, a programme that began 20 s ago is still in it.
        let encoder = try LiveHLSEncoder(frequency: 440, listSize: 60)
        let server = try FixtureHTTPServer()
        defer { server.stop(); encoder.stop() }
        server.serveDirectory(encoder.directory.url, at: "/hls/")
        try encoder.waitForSegments(24, timeout: 60)
        let episode = try checkALateProgrammeIsCutToTheFrame(server.url("/hls/" + encoder.playlistPath).absoluteString) { file in
            try StreamFrames(playlist: encoder.directory.file(LiveHLSEncoder.playlistName)).programDateTime(ofFirstFrameOf: file)
        }
        XCTAssertEqual(episode["late"] as? Bool, true)
    }

    func testALateDASHProgrammeIsCutToTheFrameByThePresentationTimeline() throws {
        // A 60-segment time-shift buffer of 1 s segments; 24 s in, a programme that began 20 s ago is still in it.
        let encoder = try LiveDASHEncoder(frequency: 440, codec: .aac, timeline: true, windowSize: 60)
        let server = try FixtureHTTPServer()
        defer { server.stop(); encoder.stop() }
        server.serveDirectory(encoder.directory.url, at: "/dash/")
        try encoder.waitForSegments(24, timeout: 60)
        // The truth from the encoder's segments placed by its own MPD: availabilityStartTime + S@t.
        try checkALateProgrammeIsCutToTheFrame(server.url("/dash/" + LiveDASHEncoder.manifestName).absoluteString) { file in
            try StreamFrames(mpd: encoder.directory.file(LiveDASHEncoder.manifestName)).programDateTime(ofFirstFrameOf: file)
        }
    }

    /// Schedules a 26-second programme that began 20 s ago on a live stream (AAC at 44.1 kHz) whose
    /// window still holds its start, and checks it is back-filled from that start and cut to the frame
    /// by the stream's own clock. `truth` dates a file's first frame from the stream's segments.
    @discardableResult
    private func checkALateProgrammeIsCutToTheFrame(_ url: String, truth: (URL) throws -> Date?) throws -> [String: Any] {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 20).rounded(.down))
        let length = 26
        try addOnce(url, at: start, seconds: length)
        _ = try startDaemon()

        let episode = try XCTUnwrap(try waitUntilFinished(count: 1, timeout: 40).first)
        XCTAssertEqual(episode["status"] as? String, "done", "\(episode)")
        let firstSample = try XCTUnwrap(OnairBinary.date(episode["firstSampleAt"]), "\(episode)")
        // AAC at 44.1 kHz: one frame is 1024 samples, 23 ms.
        let frame = 1024.0 / 44100
        XCTAssertGreaterThanOrEqual(firstSample.timeIntervalSince(start), 0, "\(firstSample) vs \(start)")
        XCTAssertLessThan(firstSample.timeIntervalSince(start), frame + 0.001, "\(firstSample) vs \(start)")
        let file = try XCTUnwrap(files(of: episode).first)
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
        XCTAssertEqual(try FFprobe.decodePCM(file).duration, Double(length), accuracy: 2 * frame + 0.05,
                       "the whole programme, its first 20 s from the window")
        // Where the recording's first frame sits in the stream's own frames.
        let truth = try XCTUnwrap(try truth(file), "the recording's first frames are not in the stream")
        XCTAssertGreaterThanOrEqual(truth.timeIntervalSince(start), -0.001, "\(truth) vs \(start)")
        XCTAssertLessThan(truth.timeIntervalSince(start), frame + 0.001, "\(truth) vs \(start): the first sample is the scheduled instant's")
        XCTAssertEqual(firstSample.timeIntervalSince(truth), 0, accuracy: 0.002, "the episode notes its true first sample")
        let indexed = try XCTUnwrap(OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText).first)
        let indexedStart = try XCTUnwrap(OnairBinary.date(indexed["startUTC"]), "\(indexed)")
        XCTAssertEqual(indexedStart.timeIntervalSince(firstSample), 0, accuracy: 1, "the index dates the file by its first sample")
        return episode
    }
    // MARK: What the log shows

    /// Failed before: the daemon's log line, and the CLI's error, quoted a playlist's entry with its C1
    /// control (CSI, which terminals obey as ESC [) and its bidi override as they came.
    func testAFailedEpisodesLogLineQuotesThePlaylistWithoutItsEscapeOrBidiOverride() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nftp://evil\u{9B}2J\u{202E}example/a.aac\n"
        server.route("/evil.m3u8", FixtureHTTPServer.file(Data(playlist.utf8), contentType: "application/vnd.apple.mpegurl"))
        let url = server.url("/evil.m3u8").absoluteString
        let resolve = try onair.run(["resolve", url])
        XCTAssertTrue(resolve.stderrText.contains("refusing 'ftp://evil2Jexample/a.aac'"), resolve.stderrText)

        let daemon = try startDaemon(json: false)
        try addOnce(url, at: wholeSecond(in: 2), seconds: 3)
        XCTAssertEqual(try waitUntilFinished(count: 1, timeout: 30).first?["status"] as? String, "failed")
        daemon.stop(grace: 5)
        let log = daemon.result().stderrText
        XCTAssertTrue(log.split(separator: "\n").contains { $0.hasPrefix("episode-failed") && $0.contains("refusing 'ftp://evil2Jexample/a.aac'") },
                      log)
        for text in [resolve.stderrText, log] {
            XCTAssertFalse(text.unicodeScalars.contains { [0x1B, 0x9B, 0x202E].contains($0.value) }, text.debugDescription)
        }
    }

    // MARK: The control channel

    /// The daemon's socket is its user's alone, and clients that dawdle (slowloris), flood or talk
    /// nonsense are cut off without holding up `onair status`.
    func testTheControlSocketIsPrivateAndBadClientsHoldNobodyUp() throws {
        _ = try startDaemon()
        signal(SIGPIPE, SIG_IGN)
        let path = onair.home.url.appendingPathComponent("data/daemon.sock").path
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, String(format: "socket mode %o", mode))

        // A client sending a byte a second, never a whole line.
        let slow = unixClient(path)
        let dawdler = Thread {
            for _ in 0..<6 where write(slow, "{", 1) == 1 { Thread.sleep(forTimeInterval: 1) }
        }
        // Closed while the dawdler still writes, the descriptor's number could be the next file opened
        // (a later test's database) and get its bytes.
        defer {
            XCTAssertTrue(eventually(timeout: 10) { dawdler.isFinished })
            close(slow)
        }
        dawdler.start()
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        let status = try onair.localStatus(["--json"], timeout: 10)
        XCTAssertTrue(status.succeeded, "\(status)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "status waited for the slow client")
        XCTAssertEqual(OnairBinary.events(status.stdoutText).first?["rules"] as? Int, 0, status.stdoutText)

        // 64 KiB without a newline, then an unknown command: each answered with an error, the daemon lives on.
        for request in [String(repeating: "x", count: 65_536), #"{"command":"shutdown"}"# + "\n"] {
            let client = unixClient(path)
            defer { close(client) }
            _ = request.withCString { write(client, $0, strlen($0)) }
            var answer = [UInt8](repeating: 0, count: 256)
            let count = read(client, &answer, answer.count)
            let reply = OnairBinary.events(String(decoding: answer.prefix(max(count, 0)), as: UTF8.self)).first
            XCTAssertEqual(reply?["error"] as? String, "unknown command", "\(String(describing: reply))")
        }
        XCTAssertTrue(try onair.localStatus(["--json"], timeout: 10).succeeded)
    }

    private func unixClient(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(connected, 0, "connect \(path): \(String(cString: strerror(errno)))")
        return descriptor
    }
}

/// The AAC frames of a live HLS stream's segments, each with its program-date-time (its segment's,
/// plus 1024 samples per frame before it): what a recording's frames are looked up in.
private struct StreamFrames {
    private var frames: [(payload: Data, at: Date)] = []

    init(playlist: URL) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var segmentDate: Date?
        for line in try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n").map(String.init) {
            if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
                // FFmpeg writes "+0000"; ISO 8601 wants "+00:00".
                var text = String(line.dropFirst("#EXT-X-PROGRAM-DATE-TIME:".count))
                if text.hasSuffix("+0000") { text = String(text.dropLast(5)) + "Z" }
                segmentDate = formatter.date(from: text)
            } else if !line.hasPrefix("#"), !line.isEmpty, let date = segmentDate {
                let payloads = try Self.adtsPayloads(playlist.deletingLastPathComponent().appendingPathComponent(line))
                for (index, payload) in payloads.enumerated() {
                    frames.append((payload, date.addingTimeInterval(Double(index) * 1024 / 44100)))
                }
            }
        }
    }

    /// A live MPD with a SegmentTimeline (FFmpeg's dash muxer, AAC at 44.1 kHz): each segment's frames
    /// at availabilityStartTime + t / timescale, one frame every 1024 samples. The first segment is
    /// left out: its priming frame is cut by the edit list.
    init(mpd: URL) throws {
        let text = try String(contentsOf: mpd, encoding: .utf8)
        func attribute(_ name: String, in source: String) -> String? {
            guard let range = source.range(of: "\(name)=\"") else { return nil }
            return String(source[range.upperBound...].prefix { $0 != "\"" })
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let origin = attribute("availabilityStartTime", in: text).flatMap(formatter.date(from:)),
              let scale = attribute("timescale", in: text).flatMap(Double.init),
              var number = attribute("startNumber", in: text).flatMap({ Int($0) }) else { return }
        let directory = mpd.deletingLastPathComponent()
        let initSegment = try Data(contentsOf: directory.appendingPathComponent("init-stream0.m4s"))
        var time = 0.0
        for entry in text.components(separatedBy: "<S ").dropFirst() {
            time = attribute("t", in: entry).flatMap(Double.init) ?? time
            let duration = attribute("d", in: entry).flatMap(Double.init) ?? 0
            for _ in 0...(attribute("r", in: entry).flatMap { Int($0) } ?? 0) {
                let segment = directory.appendingPathComponent(String(format: "chunk-stream0-%05d.m4s", number))
                if time > 0, let media = try? Data(contentsOf: segment) {
                    let joined = directory.appendingPathComponent("joined-\(number).mp4")
                    try (initSegment + media).write(to: joined)
                    for (index, payload) in try Self.adtsPayloads(joined).enumerated() {
                        frames.append((payload, origin.addingTimeInterval((time + Double(index) * 1024) / scale)))
                    }
                }
                time += duration
                number += 1
            }
        }
    }

    /// The program-date-time of the stream frame the file's first frames match (five in a row).
    func programDateTime(ofFirstFrameOf file: URL) throws -> Date? {
        let recorded = try Self.adtsPayloads(file)
        guard recorded.count >= 5 else { return nil }
        for index in frames.indices where index + 5 <= frames.count {
            if (0..<5).allSatisfy({ frames[index + $0].payload == recorded[$0] }) { return frames[index].at }
        }
        return nil
    }

    /// The raw AAC frames of a file, through ffmpeg's ADTS muxer (headers stripped).
    private static func adtsPayloads(_ file: URL) throws -> [Data] {
        let adts = try ProcessRunner.run("ffmpeg", ["-v", "error", "-i", file.path, "-c:a", "copy", "-f", "adts", "-"], timeout: 60).check().stdout
        let bytes = [UInt8](adts)
        var payloads: [Data] = []
        var offset = 0
        while offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF0 == 0xF0 {
            let length = Int(bytes[offset + 3] & 3) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            let header = bytes[offset + 1] & 1 == 1 ? 7 : 9
            guard length > header, offset + length <= bytes.count else { break }
            payloads.append(Data(bytes[(offset + header)..<(offset + length)]))
            offset += length
        }
        return payloads
    }

}
