import Foundation
import Media
import RadioModel
import TestSupport
import XCTest
@testable import Recording
#if canImport(Glibc)
import Glibc
#endif

/// A full disk in the middle of re-encoding: the file keeps its container's header, leaves out the audio
/// that found no room, and goes on once there is room, with the audio left out marked as a gap. And the
/// journal a full disk cut short in the middle of a line still takes entries.
final class FullDiskTests: XCTestCase {
    private final class Events: @unchecked Sendable {  // `stored` inside `lock`
        private let lock = NSLock()
        private var stored: [RecordingEvent] = []
        func add(_ event: RecordingEvent) { lock.withLock { stored.append(event) } }
        var all: [RecordingEvent] { lock.withLock { stored } }
    }

    func testAnOpusRecordingStartedOnAFullDiskKeepsItsHeaderAndMarksTheAudioLeftOutAsAGap() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root (CI runs as root)") }
        let directory = try TemporaryDirectory(prefix: "onair-full-disk")
        let mount = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", directory.url.path], timeout: 10)
        guard mount.succeeded else { throw XCTSkip("cannot mount a tmpfs here: \(mount.stderrText)") }
        defer { _ = try? ProcessRunner.run("umount", ["-l", directory.url.path], timeout: 10) }
        // Filled but for a few pages: the journal's first lines fit, the encoded audio does not.
        let filler = directory.url.appendingPathComponent("filler")
        var space = statvfs()
        XCTAssertEqual(statvfs(directory.url.path, &space), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path,
                                                     contents: Data(count: Int(space.f_bavail) * Int(space.f_bsize) - 8 * 1024)))

        let plan = RecordingPlan(station: StationLabel(id: "full", name: "Full FM"), programme: nil, source: "http://full.invalid/",
                                 timeZone: TimeZone(identifier: "UTC")!, template: .standard, base: directory.url, format: .opus)
        let events = Events()
        let finaliser = Finaliser(index: nil)
        let format = PCMFormat.snapcastDefault
        let recorder = EncodingRecorder(plan: plan, input: format, finaliser: finaliser, onEvent: events.add)
        // 440 Hz in tenths of a second: 8 s on the full disk, then 8 s with room.
        let tenth = (0..<format.sampleRate / 10).flatMap { frame -> [Int16] in
            let sample = Int16(8000 * sin(2 * Double.pi * 440 * Double(frame) / Double(format.sampleRate)))
            return [sample, sample]
        }
        for _ in 0..<80 { try tenth.withUnsafeBytes { try recorder.consume($0) } }
        XCTAssertTrue(events.all.contains { if case .noRoom(let line) = $0 { line.hasSuffix("the disk is full") } else { false } },
                      "\(events.all)")
        try FileManager.default.removeItem(at: filler)
        for _ in 0..<80 { try tenth.withUnsafeBytes { try recorder.consume($0) } }
        recorder.finish()
        finaliser.waitUntilIdle()

        let leftOut = try XCTUnwrap(events.all.lazy.compactMap { if case .roomAgain(let seconds) = $0 { seconds } else { nil } }.first,
                                    "\(events.all)")
        let finished = try XCTUnwrap(events.all.lazy.compactMap { if case .finished(let recording) = $0 { recording } else { nil } }.first,
                                     "\(events.all)")
        XCTAssertGreaterThan(leftOut, 1, "some of the first 8 s found no room")
        XCTAssertLessThanOrEqual(leftOut, 8.01)
        XCTAssertEqual(finished.gaps, [TimedGap(at: 0, seconds: leftOut)], "the gap is where the file's audio begins")
        let file = URL(fileURLWithPath: finished.file)
        XCTAssertEqual(file.pathExtension, "opus")
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0, "the header was kept: the file plays")
        XCTAssertEqual(try FFprobe.decodePCM(file).duration + leftOut, 16, accuracy: 0.1)
        XCTAssertFalse(events.all.contains { if case .failed = $0 { true } else { false } }, "\(events.all)")
    }

    func testAnEntryAppendedAfterALineCutShortIsReadBack() throws {
        // A journal whose last line a full disk (or a crash) cut short, as the finaliser later opens it.
        let directory = try TemporaryDirectory(prefix: "onair-journal")
        let url = directory.url.appendingPathComponent(".torn.partial.journal")
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let written = try Journal(url: url, create: true)
        try written.append(.gap(seconds: 1, mediaTime: 2, at: at))
        written.close()
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"at":18000000"#.utf8))
        try handle.close()

        let reopened = try Journal(url: url, create: false)
        try reopened.append(.end(bytes: 10, mediaTime: 3, at: at))
        XCTAssertEqual(try reopened.entries(), [.gap(seconds: 1, mediaTime: 2, at: at), .end(bytes: 10, mediaTime: 3, at: at)])
    }
}
