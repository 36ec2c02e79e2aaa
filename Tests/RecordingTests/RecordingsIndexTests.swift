import Foundation
import XCTest
@testable import Recording

final class RecordingsIndexTests: XCTestCase {
    private func recording(file: String, start: Date) -> FinishedRecording {
        FinishedRecording(station: StationLabel(id: "fip", name: "FIP"), programme: ProgrammeLabel(id: "jazz", name: "Jazz à FIP"),
                          start: start, end: start.addingTimeInterval(3600), timeZone: "Europe/Paris", file: file, cueSheet: nil,
                          size: 57_600_000, duration: 3600, codec: "aac", container: "mp4",
                          titles: [TimedTitle(title: "A - B", start: 0)], gaps: [TimedGap(at: 100, seconds: 2)],
                          source: "https://icecast.radiofrance.fr/fip-hifi.aac", track: nil)
    }

    func testRecordingsAreKeptListedAndRemoved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-index-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = try RecordingsIndex(directory: directory)
        let later = try index.add(recording(file: "/m/b.m4a", start: Date(timeIntervalSince1970: 2_000_000_000)))
        let earlier = try index.add(recording(file: "/m/a.m4a", start: Date(timeIntervalSince1970: 1_795_327_200)))
        XCTAssertEqual(try index.add(recording(file: "/m/a.m4a", start: Date())).id, earlier.id, "one entry per file")

        let reopened = try RecordingsIndex(directory: directory)
        let all = try reopened.all()
        XCTAssertEqual(all.map(\.file), ["/m/a.m4a", "/m/b.m4a"], "oldest first")
        XCTAssertEqual(all[0].startLocal, "2026-11-22T07:00:00+01:00")
        XCTAssertEqual(all[0].titles, [TimedTitle(title: "A - B", start: 0)])
        XCTAssertEqual(all[0].gaps, [TimedGap(at: 100, seconds: 2)])
        XCTAssertEqual(all[0].programmeName, "Jazz à FIP")

        XCTAssertEqual(try reopened.remove(id: try XCTUnwrap(later.id))?.file, "/m/b.m4a")
        XCTAssertNil(try reopened.recording(id: try XCTUnwrap(later.id)))
        XCTAssertEqual(try reopened.all().count, 1)
    }
}
