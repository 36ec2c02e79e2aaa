import Engine
import Foundation
import HTTPService
import Outputs
import RadioModel
import Recording
import TestSupport
import XCTest

/// Each endpoint of `/api/v1`, in-process: a real daemon and its stores, its Hummingbird server on an
/// ephemeral port, a real Icecast station, and clients that only speak HTTP.
final class APITests: XCTestCase {
    private var harness: APIHarness!

    override func setUpWithError() throws {
        harness = try APIHarness()
    }

    override func tearDown() {
        harness?.stop()
    }

    func testStationsAreListedSearchedShownAndAddedToTheUserCatalogue() throws {
        let list = try harness.get("/api/v1/stations")
        XCTAssertEqual(list.status, 200)
        XCTAssertEqual((list.json["stations"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["tone"])
        XCTAssertEqual((try harness.get("/api/v1/stations?q=Tone%20FM").json["stations"] as? [Any])?.count, 1)
        XCTAssertEqual((try harness.get("/api/v1/stations?q=jazz").json["stations"] as? [Any])?.count, 0)
        XCTAssertEqual(try harness.get("/api/v1/stations/tone").json["name"] as? String, "Tone FM")
        let missing = try harness.get("/api/v1/stations/nowhere")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.json["error"] as? String, "no station \"nowhere\" in the catalogue")

        let added: [String: Any] = ["id": "my-radio", "name": "My Radio", "country": "FR", "language": "fr", "timeZone": "Europe/Paris",
                                    "streams": [["url": "http://127.0.0.1:9/my.mp3", "kind": "icy"]]]
        let created = try harness.request("POST", "/api/v1/stations", json: added)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual((try harness.get("/api/v1/stations").json["stations"] as? [Any])?.count, 2, "the catalogue now has it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.paths.userCatalogueURL.path))
        // Edited by hand, to the same size: the list (encoded once per catalogue) says what the file now says.
        let edited = try String(contentsOf: harness.paths.userCatalogueURL, encoding: .utf8).replacingOccurrences(of: "My Radio", with: "Me Radio")
        try edited.write(to: harness.paths.userCatalogueURL, atomically: false, encoding: .utf8)
        XCTAssertEqual((try harness.get("/api/v1/stations").json["stations"] as? [[String: Any]])?.compactMap { $0["name"] as? String },
                       ["Me Radio", "Tone FM"])
        XCTAssertEqual(try harness.request("POST", "/api/v1/stations", json: added).status, 409, "the id is taken")
        XCTAssertEqual(try harness.request("POST", "/api/v1/stations", body: Data("{not json".utf8)).status, 400)
        var invalid = added
        invalid["id"] = "other"
        invalid["country"] = "France"
        let refused = try harness.request("POST", "/api/v1/stations", json: invalid)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertNotNil(refused.json["error"] as? String)
    }

    func testTheDirectoryIsSearchedAndAResultBecomesACatalogueStation() throws {
        let found = try harness.get("/api/v1/directory?q=jazz&limit=5")
        XCTAssertEqual(found.status, 200, found.text)
        let first = try XCTUnwrap((found.json["stations"] as? [[String: Any]])?.first)
        XCTAssertNotNil(first["streamURL"] as? String)
        XCTAssertEqual(harness.directory.requests("/json/stations/search").first?.query["name"], "jazz")
        let added = try harness.request("POST", "/api/v1/directory/add", json: first)
        XCTAssertEqual(added.status, 201, added.text)
        let id = try XCTUnwrap(added.json["id"] as? String)
        XCTAssertEqual(try harness.get("/api/v1/stations/\(id)").json["name"] as? String, first["name"] as? String)
        XCTAssertEqual(try harness.get("/api/v1/directory").status, 400, "a search needs words")
        XCTAssertEqual(try harness.request("POST", "/api/v1/directory/add", json: ["name": "x"]).status, 400)
    }

    func testARelayStartedThroughTheAPIIsHeardByAClientOfItsMountAndStopsWhenDeleted() throws {
        let port = try FreePort.pick()
        let mount = URL(string: "http://127.0.0.1:\(port)/api.mp3")!
        var declared = DeclaredSinks()
        try declared.declare("speakers", mount.absoluteString)
        try declared.save(harness.paths)
        let started = try harness.request("POST", "/api/v1/jobs", json: ["kind": "relay", "station": "tone", "to": ["speakers"]])
        XCTAssertEqual(started.status, 201, started.text)
        let id = try XCTUnwrap(started.json["id"] as? Int)
        XCTAssertEqual(started.json["kind"] as? String, "relay")

        let heard = try RawHTTP.get(mount, duration: 3)
        XCTAssertEqual(heard.statusCode, 200)
        let file = harness.home.file("heard.mp3")
        try heard.body.write(to: file)
        XCTAssertEqual(try XCTUnwrap(FFprobe.decodePCM(file).dominantFrequency()), 440, accuracy: 5, "the client hears the station")

        let jobs = try harness.get("/api/v1/jobs").json["jobs"] as? [[String: Any]]
        XCTAssertEqual(jobs?.compactMap { $0["id"] as? Int }, [id])
        XCTAssertEqual(try harness.get("/api/v1/jobs/\(id)").json["station"] as? String, "tone")
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/jobs/\(id)").status, 200)
        XCTAssertTrue(eventually(timeout: 3) { (try? RawHTTP.get(mount, timeout: 1))?.statusCode != 200 }, "the mount is gone")
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/jobs/\(id)").status, 404)
        XCTAssertEqual(try harness.get("/api/v1/jobs/\(id)").status, 404)

        let unknown = try harness.request("POST", "/api/v1/jobs", json: ["kind": "record", "station": "nowhere"])
        XCTAssertEqual(unknown.status, 422, unknown.text)
        XCTAssertEqual(try harness.request("POST", "/api/v1/jobs", json: ["kind": "relay", "station": "tone"]).status, 422, "a relay needs sinks")
        XCTAssertEqual(try harness.request("POST", "/api/v1/jobs", json: ["kind": "dance", "station": "tone"]).status, 400)
    }

    func testAOneOffRuleAFewSecondsAheadGivesARecordingServedWithRangesInTheFeed() throws {
        let start = Date().addingTimeInterval(3)
        let on = ISO8601DateFormatter.string(from: start, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate, .withFullTime])
            .replacingOccurrences(of: "Z", with: "")
        let created = try harness.request("POST", "/api/v1/schedule/rules",
                                          json: ["station": "tone", "on": on, "duration": "4s", "timeZone": "UTC"])
        XCTAssertEqual(created.status, 201, created.text)
        let rule = try XCTUnwrap(created.json["id"] as? Int)
        XCTAssertNotNil(created.json["next"] as? String)
        XCTAssertEqual((try harness.get("/api/v1/schedule/rules").json["rules"] as? [Any])?.count, 1)
        XCTAssertEqual(try harness.get("/api/v1/schedule/rules/\(rule)").json["station"] as? String, "tone")
        XCTAssertEqual((try harness.get("/api/v1/schedule/next").json["episodes"] as? [[String: Any]])?.first?["rule"] as? Int, rule)

        // The file is indexed a moment before its episode is marked done: wait for both, as a user refreshing the page would.
        XCTAssertTrue(eventually(timeout: 30) {
            ((try? self.harness.get("/api/v1/schedule/episodes?rule=\(rule)").json["episodes"]) as? [[String: Any]])?.first?["status"] as? String == "done"
                && ((try? self.harness.get("/api/v1/recordings").json["recordings"]) as? [Any])?.count == 1
        }, "the episode is recorded, indexed and done")
        let list = try harness.get("/api/v1/recordings?station=tone&limit=10").json
        XCTAssertEqual(list["total"] as? Int, 1)
        let summary = try XCTUnwrap((list["recordings"] as? [[String: Any]])?.first)
        XCTAssertEqual((try harness.get("/api/v1/recordings?offset=1").json["recordings"] as? [Any])?.count, 0, "past the last page")
        XCTAssertEqual(try harness.get("/api/v1/recordings?station=other").json["total"] as? Int, 0)
        XCTAssertEqual(try harness.get("/api/v1/recordings?limit=0").status, 400)
        let id = try XCTUnwrap(summary["id"] as? Int)
        XCTAssertEqual(summary["audio"] as? String, "/api/v1/recordings/\(id)/audio")
        let size = try XCTUnwrap(summary["size"] as? Int)
        XCTAssertGreaterThan(size, 30_000, "about 4 s of 128 kbit/s")
        let detail = try harness.get("/api/v1/recordings/\(id)")
        XCTAssertEqual((detail.json["chapters"] as? [[String: Any]])?.first?["title"] as? String, "API tone")

        // The audio, as a player and a podcast app ask for it.
        let whole = try harness.get("/api/v1/recordings/\(id)/audio")
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body.count, size)
        XCTAssertEqual(whole.header("Content-Type"), "audio/mpeg")
        XCTAssertEqual(whole.header("Accept-Ranges"), "bytes")
        let part = try harness.get("/api/v1/recordings/\(id)/audio", headers: ["Range": "bytes=0-99"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, whole.body.prefix(100))
        XCTAssertEqual(part.header("Content-Range"), "bytes 0-99/\(size)")
        let tail = try harness.get("/api/v1/recordings/\(id)/audio", headers: ["Range": "bytes=-10"])
        XCTAssertEqual(tail.body, whole.body.suffix(10))
        XCTAssertEqual(try harness.get("/api/v1/recordings/\(id)/audio", headers: ["Range": "bytes=\(size)-"]).status, 416)
        let etag = try XCTUnwrap(whole.header("ETag"))
        XCTAssertEqual(try harness.get("/api/v1/recordings/\(id)/audio", headers: ["If-None-Match": etag]).status, 304)
        let modified = try XCTUnwrap(whole.header("Last-Modified"))
        XCTAssertEqual(try harness.get("/api/v1/recordings/\(id)/audio", headers: ["If-Modified-Since": modified]).status, 304)

        // The feed lists it, with its enclosure and chapters, and a feed reader takes it.
        let feed = try harness.get("/feeds/all.xml")
        XCTAssertEqual(feed.status, 200)
        XCTAssertTrue(feed.text.contains(#"length="\#(size)" type="audio/mpeg""#), feed.text)
        try assertFeedParses(feed.text, enclosure: "http://127.0.0.1:\(harness.port)/api/v1/recordings/\(id)/audio", length: size)
        XCTAssertTrue(try harness.get("/feeds/station/tone.xml").text.contains("<item>"))
        XCTAssertFalse(try harness.get("/feeds/station/other.xml").text.contains("<item>"))
        let chapters = try harness.get("/api/v1/recordings/\(id)/chapters.json").json
        XCTAssertEqual((chapters["chapters"] as? [[String: Any]])?.first?["startTime"] as? Double, 0)

        // Pause, resume, delete.
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules/\(rule)/pause").json["paused"] as? Bool, true)
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules/\(rule)/resume").json["paused"] as? Bool, false)
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/schedule/rules/\(rule)").status, 200)
        XCTAssertEqual(try harness.get("/api/v1/schedule/rules/\(rule)").status, 404)
        let file = try XCTUnwrap(harness.daemon.recordings.recording(id: Int64(id))?.file)
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/recordings/\(id)").status, 200)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "the file is deleted with its entry")
        XCTAssertEqual(try harness.get("/api/v1/recordings/\(id)").status, 404)
        XCTAssertEqual(try harness.get("/api/v1/recordings/\(id)/audio").status, 404)
    }

    func testARuleThatDoesNotCheckOutIsRefusedWithItsReason() throws {
        let past = try harness.request("POST", "/api/v1/schedule/rules",
                                       json: ["station": "tone", "on": "2001-01-01T10:00", "duration": "1h", "timeZone": "UTC"])
        XCTAssertEqual(past.status, 422, past.text)
        let zone = try harness.request("POST", "/api/v1/schedule/rules",
                                       json: ["station": "tone", "at": "fri 22:00", "duration": "1h", "timeZone": "Mars/Olympus"])
        XCTAssertEqual(zone.status, 422)
        XCTAssertTrue((zone.json["error"] as? String)?.contains("Mars/Olympus") ?? false, zone.text)
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules", json: ["station": "tone", "at": "fri 22:00"]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules", json: ["station": "nowhere", "at": "fri 22:00", "duration": "1h"]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules", json: ["at": "fri 22:00"]).status, 400, "no station")
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules/99/pause").status, 404)
        XCTAssertEqual(try harness.get("/api/v1/schedule/next?count=0").status, 400)
        XCTAssertEqual(try harness.get("/api/v1/schedule/episodes?rule=x").status, 400)
        XCTAssertEqual(try harness.get("/api/v1/schedule/rules/abc").status, 404)
        let unknown = try harness.get("/api/v1/nothing-here")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertNotNil(unknown.json["error"], "even Hummingbird's own 404 is a JSON error under /api/")
    }

    /// The list is encoded once per state of the index (its revision), so it must say what the index holds now
    /// whoever changed it: here the index itself, as the recorder and retention change it, not the API.
    func testTheRecordingsListSaysWhatTheIndexHoldsNowWhoeverChangedIt() throws {
        let listed = { (path: String) throws -> [String] in
            (try self.harness.get(path).json["recordings"] as? [[String: Any]] ?? []).compactMap { $0["audio"] as? String }
        }
        XCTAssertEqual(try listed("/api/v1/recordings"), [])
        let older = try harness.addRecording("older.mp3", programme: nil, end: Date().addingTimeInterval(-7200))
        XCTAssertEqual(try listed("/api/v1/recordings"), ["/api/v1/recordings/\(older)/audio"])
        let newer = try harness.addRecording("newer.mp3", programme: ProgrammeLabel(id: "news", name: "News"), end: Date())
        XCTAssertEqual(try listed("/api/v1/recordings"), [newer, older].map { "/api/v1/recordings/\($0)/audio" })
        XCTAssertEqual(try listed("/api/v1/recordings?limit=1&offset=1"), ["/api/v1/recordings/\(older)/audio"], "each page its own")
        XCTAssertEqual(try listed("/api/v1/recordings?programme=news"), ["/api/v1/recordings/\(newer)/audio"], "each filter its own")
        _ = try harness.daemon.recordings.setKept(id: older, true)
        XCTAssertEqual((try harness.get("/api/v1/recordings").json["recordings"] as? [[String: Any]])?.last?["kept"] as? Bool, true)
        _ = try harness.daemon.recordings.remove(id: newer)
        XCTAssertEqual(try listed("/api/v1/recordings"), ["/api/v1/recordings/\(older)/audio"])
        XCTAssertEqual(try listed("/api/v1/recordings?programme=news"), [])
        XCTAssertEqual(try harness.get("/api/v1/recordings").json["total"] as? Int, 1)
    }

    func testStatusShowsJobsAndDiskFree() throws {
        let started = try harness.request("POST", "/api/v1/jobs", json: ["kind": "record", "station": "tone"])
        XCTAssertEqual(started.status, 201, started.text)
        let status = try harness.get("/api/v1/status").json
        XCTAssertEqual((status["jobs"] as? [[String: Any]])?.first?["kind"] as? String, "record")
        XCTAssertGreaterThan(status["diskFree"] as? Int ?? 0, 0)
        XCTAssertNotNil((status["daemon"] as? [String: Any])?["pid"])
    }

    func testTheLiveMountPlaysTheStationOnItsOneConnection() throws {
        let running = try harness.request("POST", "/api/v1/jobs", json: ["kind": "record", "station": "tone"])
        XCTAssertEqual(running.status, 201)
        let live = try RawHTTP.get(harness.url("/live/tone"), duration: 3)
        XCTAssertEqual(live.statusCode, 200)
        XCTAssertEqual(live.headers["Content-Type"], "audio/mpeg")
        let file = harness.home.file("live.mp3")
        try live.body.write(to: file)
        XCTAssertEqual(try XCTUnwrap(FFprobe.decodePCM(file).dominantFrequency()), 440, accuracy: 5)
        XCTAssertEqual(try harness.icecast.mounts().first { $0.mount == APIHarness.mount }?.listeners, 1,
                       "the live mount shares the recording's connection")
        XCTAssertEqual(try RawHTTP.get(harness.url("/live/nowhere")).statusCode, 404)
    }

    /// What Prometheus scrapes: the station's series move while a job receives audio, and the daemon's
    /// job count says what runs.
    func testMetricsAreServedInPrometheusTextFormatAndMoveWithTheAudio() throws {
        let running = try harness.request("POST", "/api/v1/jobs", json: ["kind": "record", "station": "tone"])
        XCTAssertEqual(running.status, 201)
        func received() throws -> Double? {
            let reply = try harness.request("GET", "/metrics")
            XCTAssertEqual(reply.status, 200)
            XCTAssertTrue(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") ?? false, "\(reply.headers)")
            return reply.text.split(separator: "\n").first { $0.hasPrefix("onair_station_received_bytes_total{") && $0.contains("tone") }
                .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        }
        XCTAssertTrue(eventually(timeout: 20) { ((try? received()) ?? nil ?? 0) > 16_000 }, "bytes received reach /metrics")
        let first = try XCTUnwrap(try received())
        XCTAssertTrue(eventually(timeout: 20) { ((try? received()) ?? nil ?? 0) > first }, "and keep growing while the job runs")
        let text = try harness.request("GET", "/metrics").text
        XCTAssertTrue(text.contains("onair_jobs{kind=\"record\"} 1"), text)
        XCTAssertTrue(text.contains("onair_disk_free_bytes"), text)
    }

    /// Jobs started through the API and stopped over the control socket (`onair jobs stop`) alike: both go
    /// through the daemon's one job control, which tells the stream.
    func testTheEventStreamTellsJobsAndTitlesAsTheyHappen() throws {
        let socket = try LoopbackSocket.connect(port: UInt16(harness.port))
        defer { close(socket) }
        try LoopbackSocket.sendAll(socket, Data("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
        var received = Data()
        XCTAssertTrue(eventually(timeout: 5) {
            if let chunk = try? LoopbackSocket.receive(socket, timeout: 0.2) { received.append(chunk) }
            return String(decoding: received, as: UTF8.self).contains(": onair events")
        })
        let started = try harness.request("POST", "/api/v1/jobs", json: ["kind": "record", "station": "tone"])
        let id = try XCTUnwrap(started.json["id"] as? Int)
        var events: [[String: Any]] = []
        func readEvents() {
            if let chunk = try? LoopbackSocket.receive(socket, timeout: 0.2) { received.append(chunk) }
            // Lines of the (chunked) body; "\r\n" would be one Character to String's splitting.
            events = received.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
                .filter { $0.hasPrefix("data: ") }
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
        }
        XCTAssertTrue(eventually(timeout: 10) {
            readEvents()
            return events.contains { $0["type"] as? String == "title" }
        }, "\(events)")
        XCTAssertTrue(events.contains { $0["type"] as? String == "job-start" && $0["job"] as? Int == id && $0["station"] as? String == "tone" })
        XCTAssertTrue(events.contains { $0["type"] as? String == "title" && $0["title"] as? String == "API tone" && $0["station"] as? String == "tone" })
        XCTAssertTrue(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"))

        let stopped = try ControlClient(socket: harness.daemon.socket).send(ControlRequest(.stopJob, id: Int64(id)), expecting: JobStatus.self)
        XCTAssertEqual(stopped.reply.id, Int64(id))
        XCTAssertTrue(eventually(timeout: 10) {
            readEvents()
            return events.contains { $0["type"] as? String == "job-stop" && $0["job"] as? Int == id }
        }, "the control socket's stop is told on the stream: \(events)")
    }

    private func assertFeedParses(_ xml: String, enclosure: String, length: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let script = """
        import feedparser, json, sys
        feed = feedparser.parse(sys.stdin.read())
        entry = feed.entries[0]
        print(json.dumps({"bozo": feed.bozo, "version": feed.version, "href": entry.enclosures[0].href,
                          "length": entry.enclosures[0].length, "duration": entry.get("itunes_duration"), "guid": entry.id}))
        """
        let result = try ProcessRunner.run("python3", ["-c", script], input: Data(xml.utf8))
        guard result.status == 0 else {
            if result.stderrText.contains("No module named 'feedparser'") { throw XCTSkip("feedparser is not installed: run scripts/setup") }
            return XCTFail("feedparser: \(result.stderrText)", file: file, line: line)
        }
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(parsed["bozo"] as? Int, 0, "well-formed", file: file, line: line)
        XCTAssertEqual(parsed["version"] as? String, "rss20", file: file, line: line)
        XCTAssertEqual(parsed["href"] as? String, enclosure, file: file, line: line)
        XCTAssertEqual(parsed["length"] as? String, "\(length)", file: file, line: line)
        XCTAssertNotNil(parsed["duration"] as? String, file: file, line: line)
    }
}
