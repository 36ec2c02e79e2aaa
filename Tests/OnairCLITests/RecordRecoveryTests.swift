import Foundation
import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What happens to a recording when things go wrong: a SIGKILL in the middle, a full disk; and the
/// index that `onair recordings` shows afterwards.
final class RecordRecoveryTests: XCTestCase {
    private var onair: OnairBinary!
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        onair = try OnairBinary()
        server = try FixtureHTTPServer()
    }

    override func tearDown() { server.stop() }

    private func serveTone(at path: String, seconds: Double, realTime: Bool) throws {
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: seconds, codec: .mp3, bitrate: 128))
        let writer = ICYStreamWriter(audio: audio, metaint: 16_000, schedule: [.title("Before the crash", atAudioByte: 0)])
        server.route(path, FixtureHTTPServer.icyStream(writer, contentType: "audio/mpeg", bytesPerSecond: realTime ? 16_000 : nil))
    }

    private var recordings: URL { onair.home.url.appendingPathComponent("recordings") }

    /// Files under the recordings directory whose names end in `suffix`.
    private func files(endingIn suffix: String) -> [URL] {
        let walker = FileManager.default.enumerator(at: recordings, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.lastPathComponent.hasSuffix(suffix) }
    }

    func testAKilledRecordingPlaysUpToTheKillAndRecoverFinishesIt() throws {
        try serveTone(at: "/live.mp3", seconds: 30, realTime: true)
        let record = try onair.start(["record", server.url("/live.mp3").absoluteString])
        Thread.sleep(forTimeInterval: 4.5)
        kill(record.pid, SIGKILL)
        XCTAssertTrue(record.waitForExit(timeout: 5))

        let partial = try XCTUnwrap(files(endingIn: ".partial.mp3").first, "the partial file stays after a kill")
        XCTAssertEqual(files(endingIn: ".partial.journal").count, 1)
        XCTAssertEqual(try FFprobe.decodeErrors(partial), 0, "the partial file plays as it is")
        let killedAt = try FFprobe.decodePCM(partial).duration
        XCTAssertGreaterThan(killedAt, 2.5, "written out every second, so little before the kill is missing")
        XCTAssertLessThan(killedAt, 5)

        let recover = try onair.run(["recover", "--json"])
        XCTAssertTrue(recover.succeeded, "\(recover)")
        let event = try XCTUnwrap(OnairBinary.events(recover.stdoutText).first)
        XCTAssertEqual(event["event"] as? String, "recovered", recover.stdoutText)
        let file = URL(fileURLWithPath: try XCTUnwrap(event["file"] as? String))
        XCTAssertEqual(file.pathExtension, "mp3")
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
        XCTAssertEqual(try FFprobe.decodePCM(file).duration, killedAt, accuracy: 0.1)
        XCTAssertEqual(try RecordedFile(url: file).chapters().map(\.title), ["Before the crash"])
        XCTAssertTrue(files(endingIn: ".partial.mp3").isEmpty && files(endingIn: ".partial.journal").isEmpty)
        XCTAssertTrue(OnairBinary.events(try onair.run(["recover", "--json"]).stdoutText).isEmpty, "nothing is left to recover")

        // The index has it; show names its title; remove deletes the file and forgets it.
        let list = try onair.run(["recordings", "list", "--json"])
        let entries = OnairBinary.events(list.stdoutText)
        XCTAssertEqual(entries.count, 1, "\(list)")
        XCTAssertEqual(entries.first?["file"] as? String, file.path)
        let id = try XCTUnwrap(entries.first?["id"] as? Int)
        let show = try onair.run(["recordings", "show", "\(id)"])
        XCTAssertTrue(show.stdoutText.contains("Before the crash"), "\(show)")
        XCTAssertTrue(try onair.run(["recordings", "remove", "\(id)"]).succeeded)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertTrue(OnairBinary.events(try onair.run(["recordings", "list", "--json"]).stdoutText).isEmpty)
        XCTAssertEqual(try onair.run(["recordings", "show", "\(id)"]).status, 4)
    }

    func testSIGTERMFinishesTheFileProperly() throws {
        try serveTone(at: "/term.mp3", seconds: 30, realTime: true)
        let record = try onair.start(["record", server.url("/term.mp3").absoluteString, "--json"])
        Thread.sleep(forTimeInterval: 3)
        kill(record.pid, SIGTERM)
        XCTAssertTrue(record.waitForExit(timeout: 10))
        let result = record.result()
        XCTAssertEqual(result.status, 0, "\(result)")
        let finished = try XCTUnwrap(RecordedFile.finished(result.stdoutText).first, result.stdoutText)
        let file = URL(fileURLWithPath: try XCTUnwrap(finished["file"] as? String))
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
        XCTAssertEqual(try FFprobe.decodePCM(file).duration, finished["duration"] as? Double ?? 0, accuracy: 0.1)
        XCTAssertGreaterThan(finished["duration"] as? Double ?? 0, 2)
        XCTAssertTrue(files(endingIn: ".partial.mp3").isEmpty && files(endingIn: ".partial.journal").isEmpty)
    }

    func testAFullDiskLeavesAudioOutUntilThereIsRoomThenTheFileGoesOnWithTheGapMarked() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root (CI runs as root)") }
        // The recording of 127.0.0.1 goes to a 1 MiB tmpfs; that of localhost to the ordinary disk.
        let small = recordings.appendingPathComponent("127.0.0.1")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small.path], timeout: 10)
        guard mount.succeeded else { throw XCTSkip("cannot mount a tmpfs here: \(mount.stderrText)") }
        defer { _ = try? ProcessRunner.run("umount", ["-l", small.path], timeout: 10) }
        // A file that leaves room for about 3 s of the 128 kbit/s stream.
        let filler = small.appendingPathComponent("filler")
        var space = statvfs()
        XCTAssertEqual(statvfs(small.path, &space), 0)
        let free = Int(space.f_bavail) * Int(space.f_bsize)
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: Data(count: free - 48 * 1024)))

        try serveTone(at: "/tone.mp3", seconds: 16, realTime: true)
        let record = try onair.start(["record", server.url("/tone.mp3").absoluteString,
                                      "http://localhost:\(server.port)/tone.mp3", "--duration", "12", "--json"])
        defer { record.stop() }
        let full = Date()
        while !record.stdoutText.contains("recording-no-room"), Date().timeIntervalSince(full) < 12 { Thread.sleep(forTimeInterval: 0.1) }
        let noRoom = try XCTUnwrap(OnairBinary.events(record.stdoutText).first { $0["event"] as? String == "recording-no-room" },
                                   "the disk filled: \(record.stdoutText)")
        XCTAssertEqual(noRoom["station"] as? String, "127.0.0.1")
        XCTAssertTrue((noRoom["message"] as? String)?.hasSuffix("the disk is full") == true, "\(noRoom)")
        Thread.sleep(forTimeInterval: 2)
        try FileManager.default.removeItem(at: filler)
        XCTAssertTrue(record.waitForExit(timeout: 30))

        let result = record.result()
        XCTAssertEqual(result.status, 0, "a full disk for a while fails nothing: \(result)")
        let events = OnairBinary.events(result.stdoutText)
        XCTAssertFalse(events.contains { $0["event"] as? String == "recording-failed" }, result.stdoutText)
        let again = try XCTUnwrap(events.first { $0["event"] as? String == "recording-room-again" }, result.stdoutText)
        let leftOut = try XCTUnwrap(again["leftOut"] as? Double)
        XCTAssertGreaterThan(leftOut, 1.5, "the disk was full for the two seconds before the filler went")
        XCTAssertLessThan(leftOut, 6)

        let finished = RecordedFile.finished(result.stdoutText)
        let other = try XCTUnwrap(finished.first { ($0["source"] as? String)?.contains("localhost") == true },
                                  "the other recording went on: \(result.stdoutText)")
        XCTAssertEqual(other["duration"] as? Double ?? 0, 12, accuracy: 0.1)
        XCTAssertEqual((other["gaps"] as? [[String: Any]])?.count, 0)

        // One file, whole: the audio before the full disk, a gap where it was left out, the audio after.
        let kept = try XCTUnwrap(finished.first { ($0["source"] as? String)?.contains("127.0.0.1") == true }, result.stdoutText)
        let file = URL(fileURLWithPath: try XCTUnwrap(kept["file"] as? String))
        XCTAssertEqual(file.deletingLastPathComponent().path, small.path)
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0, file.path)
        let duration = try FFprobe.decodePCM(file).duration
        XCTAssertEqual(duration, kept["duration"] as? Double ?? 0, accuracy: 0.1)
        XCTAssertEqual(duration + leftOut, 12, accuracy: 0.5, "what is in the file and what was left out make the 12 s")
        let gaps = try XCTUnwrap(kept["gaps"] as? [[String: Any]])
        XCTAssertEqual(gaps.count, 1, "\(kept)")
        XCTAssertEqual(gaps.first?["seconds"] as? Double ?? 0, leftOut, accuracy: 0.01)
        XCTAssertEqual(gaps.first?["at"] as? Double ?? 0, 3, accuracy: 1.5, "the gap is where the disk filled")
        XCTAssertTrue(files(endingIn: ".partial.mp3").isEmpty && files(endingIn: ".partial.journal").isEmpty)
    }
}
