import ClipDetection
import Foundation
import RadioModel
import Store
import TestSupport
import XCTest

/// The clip library and the airings through the API: a clip cut from a recording (the request names the recording,
/// never a file), refused when its name is taken or its stretch is not audio enough, listed and removed; airings
/// filtered and told on the station's clock.
final class ClipsAPITests: XCTestCase {
    private var harness: APIHarness!

    override func tearDown() {
        harness?.stop()
    }

    func testAClipIsCutFromARecordingListedAndRemovedAndBadRequestsAreRefusedWithTheirReason() throws {
        harness = try APIHarness()
        let home = try TemporaryDirectory(prefix: "onair-clip-audio")
        defer { home.remove() }
        let audio = home.file("show.mp3")
        try ChordMusic.encode(ChordMusic(seed: 5).samples(seconds: 40), to: audio, options: ["-c:a", "libmp3lame", "-b:a", "128k"])
        let id = try harness.addRecording("show.mp3", programme: nil, end: Date(), contents: try Data(contentsOf: audio))

        let added = try harness.request("POST", "/api/v1/clips", json: ["name": "Summer sale", "kind": "ad", "recording": id, "start": 10, "length": 15])
        XCTAssertEqual(added.status, 201, added.text)
        XCTAssertEqual(added.json["name"] as? String, "Summer sale")
        XCTAssertEqual(added.json["kind"] as? String, "ad")
        XCTAssertEqual(try XCTUnwrap(added.json["seconds"] as? Double), 15, accuracy: 0.1)
        let clipID = try XCTUnwrap(added.json["id"] as? Int)
        let listed = try XCTUnwrap(try harness.get("/api/v1/clips").json["clips"] as? [[String: Any]])
        XCTAssertEqual(listed.compactMap { $0["name"] as? String }, ["Summer sale"])

        let taken = try harness.request("POST", "/api/v1/clips", json: ["name": "Summer sale", "recording": id, "start": 0, "length": 10])
        XCTAssertEqual(taken.status, 409, taken.text)
        let noRecording = try harness.request("POST", "/api/v1/clips", json: ["name": "Other", "recording": 999, "start": 0, "length": 10])
        XCTAssertEqual(noRecording.status, 404, noRecording.text)
        // Past the recording's end there is too little audio: told by the recording, without the file's place on the box.
        let pastTheEnd = try harness.request("POST", "/api/v1/clips", json: ["name": "Other", "recording": id, "start": 35, "length": 10])
        XCTAssertEqual(pastTheEnd.status, 422, pastTheEnd.text)
        let reason = try XCTUnwrap(pastTheEnd.json["error"] as? String)
        XCTAssertTrue(reason.hasPrefix("recording \(id): ") && reason.contains("too short"), reason)
        XCTAssertFalse(reason.contains(harness.paths.recordings.path), reason)
        // Numbers out of range, the huge ones among them, are refused and never reach a conversion that would trap.
        for (start, length) in [(-1.0, 10.0), (1e300, 10.0), (0.0, 1e300), (0.0, 3.0), (0.0, -5.0)] {
            let refused = try harness.request("POST", "/api/v1/clips", json: ["name": "Odd", "recording": id, "start": start, "length": length])
            XCTAssertEqual(refused.status, 422, "start \(start), length \(length): \(refused.text)")
        }
        for name in ["  ", String(repeating: "x", count: 201), "red \u{1B}[31m", "nul\u{0}"] {
            let refused = try harness.request("POST", "/api/v1/clips", json: ["name": name, "recording": id, "start": 0, "length": 10])
            XCTAssertEqual(refused.status, 422, "\(name.debugDescription): \(refused.text)")
        }
        // A missing file is told by the recording, never by where its file was on the box (FFmpeg's words name it too).
        let moved = harness.paths.recordings.appendingPathComponent("show.mp3")
        try FileManager.default.moveItem(at: moved, to: moved.appendingPathExtension("away"))
        let gone = try harness.request("POST", "/api/v1/clips", json: ["name": "Gone", "recording": id, "start": 0, "length": 10])
        XCTAssertEqual(gone.status, 422, gone.text)
        XCTAssertFalse(gone.text.contains(harness.paths.recordings.path), gone.text)
        try FileManager.default.moveItem(at: moved.appendingPathExtension("away"), to: moved)
        let notJSON = try harness.request("POST", "/api/v1/clips", body: Data("name=x".utf8), headers: ["Content-Type": "text/plain"])
        XCTAssertEqual(notJSON.status, 415, notJSON.text)

        XCTAssertEqual(try harness.request("DELETE", "/api/v1/clips/\(clipID)").json["name"] as? String, "Summer sale")
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/clips/\(clipID)").status, 404)
        XCTAssertEqual((try harness.get("/api/v1/clips").json["clips"] as? [[String: Any]])?.count, 0)
    }

    func testAWatchJobTakesNothingARecordingOrARelayWould() throws {
        harness = try APIHarness()
        for extra in [["format": "mp3"], ["splitTracks": true], ["output": "{station}.{ext}"]] as [[String: Any]] {
            let asked = try harness.request("POST", "/api/v1/jobs", json: ["kind": "watch", "station": APIHarness.station].merging(extra) { $1 })
            XCTAssertEqual(asked.status, 422, "\(extra): \(asked.text)")
        }
        let watch = try harness.request("POST", "/api/v1/jobs", json: ["kind": "watch", "station": APIHarness.station])
        XCTAssertEqual(watch.status, 201, watch.text)
        XCTAssertEqual(watch.json["kind"] as? String, "watch")
    }

    func testAiringsAreFilteredAndToldOnTheStationsClock() throws {
        harness = try APIHarness()
        let log = try harness.daemon.clipStores.get().airings
        let first = try XCTUnwrap(Timestamp.parse("2026-07-01T11:00:05.000Z"))
        for (index, (clip, kind, station)) in [("Summer sale", "ad", APIHarness.station), ("Jingle", "jingle", APIHarness.station),
                                                ("Summer sale", "ad", "http://127.0.0.1:9/other.mp3")].enumerated() {
            let start = first.addingTimeInterval(Double(index) * 600)
            try log.add(ClipSighting(clip: clip, kind: kind, station: station, start: start, end: start.addingTimeInterval(15),
                                     mediaTime: 100, offset: 0, score: 0.91, partial: false))
        }
        let all = try XCTUnwrap(try harness.get("/api/v1/airings").json["airings"] as? [[String: Any]])
        XCTAssertEqual(all.count, 3)
        let ads = try XCTUnwrap(try harness.get("/api/v1/airings?kind=ad").json["airings"] as? [[String: Any]])
        XCTAssertEqual(ads.compactMap { $0["station"] as? String }, ["http://127.0.0.1:9/other.mp3", APIHarness.station], "by station, then time")
        let tone = try XCTUnwrap(try harness.get("/api/v1/airings?station=\(APIHarness.station)&limit=1").json["airings"] as? [[String: Any]])
        XCTAssertEqual(tone.compactMap { $0["clip"] as? String }, ["Jingle"], "the newest one")
        XCTAssertEqual(tone.first?["stationTime"] as? String, "2026-07-01 11:10:05")
        XCTAssertEqual(tone.first?["timeZone"] as? String, "UTC")
        XCTAssertEqual(tone.first?["seconds"] as? Double, 15)
        let since = try XCTUnwrap(try harness.get("/api/v1/airings?since=2026-07-01T11:15:00Z").json["airings"] as? [[String: Any]])
        XCTAssertEqual(since.count, 1)
        XCTAssertEqual(try harness.get("/api/v1/airings?kind=weather").status, 400)
        XCTAssertEqual(try harness.get("/api/v1/airings?limit=0").status, 400)
    }
}
