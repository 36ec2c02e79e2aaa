import Daemon
import Engine
import Foundation
import RadioModel
@testable import Recording
import TestSupport
import XCTest

/// Retention through the daemon and its API: recordings kept and let go, and `--min-free` set above
/// what the disk has free, so that every finished recording that is not kept goes — deterministically,
/// whatever else uses the disk — while the kept one and the one being written stay.
final class RetentionAPITests: XCTestCase {
    private var harness: APIHarness!

    override func tearDown() {
        harness?.stop()
    }

    /// A finished recording of `bytes` bytes in the recordings directory, entered in the daemon's index.
    private func addRecording(_ name: String, hoursAgo: Double) throws -> IndexedRecording {
        let directory = harness.paths.recordings.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(repeating: 0x55, count: 4096).write(to: file)
        let end = Date().addingTimeInterval(-hoursAgo * 3600)
        return try harness.daemon.recordings.add(FinishedRecording(
            station: StationLabel(id: APIHarness.station, name: "Tone FM"), programme: nil, start: end.addingTimeInterval(-3600), end: end,
            timeZone: "UTC", file: file.path, cueSheet: nil, size: 4096, duration: 3600, codec: "mp3", container: "mp3", titles: [], gaps: [],
            source: "test", track: nil))
    }

    func testARecordingIsKeptAndLetGoThroughTheAPI() throws {
        harness = try APIHarness()
        let id = try XCTUnwrap(addRecording("one.mp3", hoursAgo: 1).id)
        XCTAssertEqual(try harness.get("/api/v1/recordings/\(id)").json["recording"].flatMap { ($0 as? [String: Any])?["kept"] as? Bool }, false)
        let kept = try harness.request("POST", "/api/v1/recordings/\(id)/keep")
        XCTAssertEqual(kept.status, 200, kept.text)
        XCTAssertEqual(kept.json["kept"] as? Bool, true)
        XCTAssertEqual(try harness.daemon.recordings.recording(id: id)?.kept, true)
        XCTAssertEqual((try harness.get("/api/v1/recordings").json["recordings"] as? [[String: Any]])?.first?["kept"] as? Bool, true)
        let letGo = try harness.request("DELETE", "/api/v1/recordings/\(id)/keep")
        XCTAssertEqual(letGo.json["kept"] as? Bool, false)
        XCTAssertEqual(try harness.daemon.recordings.recording(id: id)?.kept, false)
        let unknown = try harness.request("POST", "/api/v1/recordings/999/keep")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(unknown.json["error"] as? String, "no recording 999")
    }

    /// The periodic sweep is set an hour apart, so the deletions come from the check made before an
    /// episode starts: a one-off rule two seconds ahead.
    func testMinFreeAboveTheDisksFreeSpaceDeletesEveryFinishedRecordingButTheKeptOneAndTheOneBeingWritten() throws {
        let probe = try TemporaryDirectory(prefix: "onair-free")
        let free = try XCTUnwrap(DiskSpace.free(at: probe.url))
        probe.remove()
        var options = DaemonService.Options()
        // A tebibyte more than there is: never reached, whatever other processes write or delete meanwhile.
        options.minFree = ByteSize(bytes: free + (1 << 40))
        options.retentionSweep = 3600
        harness = try APIHarness(options: options)

        let job = try harness.request("POST", "/api/v1/jobs", json: ["kind": "record", "station": APIHarness.station])
        XCTAssertEqual(job.status, 201, job.text)
        XCTAssertTrue(eventually(timeout: 20) { (self.harness.daemon.jobs.list().first?.bytes ?? 0) > 16_000 }, "the job is writing")
        let writing = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: harness.paths.recordings.path))
        XCTAssertFalse(writing.isEmpty, "the job's partial file and journal")

        let oldest = try addRecording("oldest.mp3", hoursAgo: 30)
        XCTAssertEqual(try harness.request("POST", "/api/v1/recordings/\(oldest.id!)/keep").json["kept"] as? Bool, true)
        let older = try addRecording("older.mp3", hoursAgo: 20)
        let newer = try addRecording("newer.mp3", hoursAgo: 10)
        XCTAssertEqual(try harness.daemon.recordings.all().count, 3, "no sweep ran yet")

        let on = ISO8601DateFormatter.string(from: Date().addingTimeInterval(2), timeZone: TimeZone(identifier: "UTC")!,
                                             formatOptions: [.withFullDate, .withFullTime]).replacingOccurrences(of: "Z", with: "")
        let rule = try harness.request("POST", "/api/v1/schedule/rules",
                                       json: ["station": APIHarness.station, "on": on, "duration": "2s", "timeZone": "UTC"])
        XCTAssertEqual(rule.status, 201, rule.text)
        let index = harness.daemon.recordings
        XCTAssertTrue(eventually(timeout: 20) { (try? index.recording(id: older.id!)) == nil && (try? index.recording(id: newer.id!)) == nil },
                      "every finished recording that is not kept goes")

        // (The episode's own recording joins the index once it is finished.)
        XCTAssertEqual(try index.all().map(\.file).filter { $0.contains("/old/") }, [oldest.file], "the kept one stays")
        XCTAssertTrue(FileManager.default.fileExists(atPath: oldest.file))
        XCTAssertFalse(FileManager.default.fileExists(atPath: older.file))
        XCTAssertFalse(FileManager.default.fileExists(atPath: newer.file))
        for path in writing {
            XCTAssertTrue(FileManager.default.fileExists(atPath: harness.paths.recordings.appendingPathComponent(path).path),
                          "\(path), being written, stays")
        }
        XCTAssertEqual(harness.daemon.jobs.list().first?.state, "playing", "the job records on")

        let deletions = harness.log.current.filter { $0.event == .recordingDeleted }
        XCTAssertEqual(deletions.map(\.message), [older, newer].map { "recording \($0.id!) (\($0.file)) deleted: min-free \(options.minFree!): "
                                                                     + "less than that was free on the recordings' file system" },
                       "one plain line each, oldest first, saying why")
        let retention = try XCTUnwrap((try harness.get("/api/v1/status").json["daemon"] as? [String: Any])?["retention"] as? [String: Any])
        XCTAssertEqual(retention["minFree"] as? Int, Int(options.minFree!.bytes))
        XCTAssertGreaterThan(retention["freeBytes"] as? Int ?? 0, 0)
        XCTAssertEqual((retention["lastDeletions"] as? [[String: Any]])?.compactMap { $0["recording"] as? Int }, [newer, older].map { Int($0.id!) },
                       "newest first")
    }
}
