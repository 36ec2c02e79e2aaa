import Foundation
import SharedStore
import TestSupport
import XCTest
@testable import Recording

/// The recordings index in onair's SQLite file, or in PostgreSQL with ONAIR_TEST_DATABASE=postgresql.
final class RecordingsIndexTests: XCTestCase {
    private var directory: URL!
    private var postgres: String?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-index-\(UUID().uuidString)")
        postgres = try TestDatabase.postgresURL()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The index, opened anew (as another process, or the same one after a restart, opens it).
    private func openIndex() throws -> any RecordingsIndexing {
        if let postgres { return try PostgresRecordingsIndex(database: try SharedDatabase(location: try PostgresLocation(url: postgres))) }
        return try RecordingsIndex(directory: directory)
    }

    private func recording(file: String, start: Date) -> FinishedRecording {
        FinishedRecording(station: StationLabel(id: "fip", name: "FIP"), programme: ProgrammeLabel(id: "jazz", name: "Jazz à FIP"),
                          start: start, end: start.addingTimeInterval(3600), timeZone: "Europe/Paris", file: file, cueSheet: nil,
                          size: 57_600_000, duration: 3600, codec: "aac", container: "mp4",
                          titles: [TimedTitle(title: "A - B", start: 0)], gaps: [TimedGap(at: 100, seconds: 2)],
                          source: "https://icecast.radiofrance.fr/fip-hifi.aac", track: nil)
    }

    func testRecordingsAreKeptListedAndRemoved() throws {
        let index = try openIndex()
        let later = try index.add(recording(file: "/m/b.m4a", start: Date(timeIntervalSince1970: 2_000_000_000)))
        let earlier = try index.add(recording(file: "/m/a.m4a", start: Date(timeIntervalSince1970: 1_795_327_200)))
        XCTAssertEqual(try index.add(recording(file: "/m/a.m4a", start: Date())).id, earlier.id, "one entry per file")

        let reopened = try openIndex()
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

    func testTheGapBetweenAnEpisodesPartsIsNotedAtTheStartOfTheLaterPartOnce() throws {
        let index = try openIndex()
        _ = try index.add(recording(file: "/m/part2.m4a", start: Date(timeIntervalSince1970: 1_795_327_200)))
        try index.addGap(TimedGap(at: 0, seconds: 17.5), toRecordingOf: "/m/part2.m4a")
        try index.addGap(TimedGap(at: 0, seconds: 17.5), toRecordingOf: "/m/part2.m4a")
        try index.addGap(TimedGap(at: 0, seconds: 1), toRecordingOf: "/m/not-indexed.m4a")
        let entry = try XCTUnwrap(try openIndex().all().first)
        XCTAssertEqual(entry.gaps, [TimedGap(at: 0, seconds: 17.5), TimedGap(at: 100, seconds: 2)], "first, before the part's own gap; once")
        XCTAssertEqual(try openIndex().all().count, 1, "a file not indexed is no error and no entry")
        let chapters = ChapterList.chapters(titles: entry.titles, gaps: entry.gaps, duration: entry.duration, untitled: "FIP")
        XCTAssertEqual(chapters.first?.start, 0)
        XCTAssertEqual(chapters.first?.title, "[gap 17.5 s] A - B", "the feeds' first chapter tells the gap")
    }

    func testAPageListsAStationsOrProgrammesRecordingsNewestFirstWithHowManyGapsEach() throws {
        let index = try openIndex()
        for hour in 0..<5 {
            var entry = recording(file: "/m/\(hour).m4a", start: Date(timeIntervalSince1970: 1_795_327_200 + Double(hour) * 3600))
            entry.gaps = (0..<hour).map { TimedGap(at: Double($0) * 60, seconds: 1) }
            if hour == 4 { entry.station = StationLabel(id: "tsf", name: "TSF Jazz"); entry.programme = nil }
            try index.add(entry)
        }
        let (total, page) = try openIndex().page(station: "fip", programme: "jazz", limit: 2, offset: 1)
        XCTAssertEqual(total, 4)
        XCTAssertEqual(page.map(\.startUTC), [2, 1].map { Date(timeIntervalSince1970: 1_795_327_200 + Double($0) * 3600) }, "newest first, after the first")
        XCTAssertEqual(page.map(\.gapCount), [2, 1])
        let whole = try XCTUnwrap(try index.all().first { $0.file == "/m/2.m4a" })
        XCTAssertEqual(page.first, whole.listing, "every column a list shows, as the entry has it")
        XCTAssertEqual(try index.page(station: nil, programme: nil, limit: 10, offset: 0).recordings.first?.stationName, "TSF Jazz")
        XCTAssertEqual(try index.page(station: "tsf", programme: nil, limit: 10, offset: 0).total, 1)
    }

    /// The API's recordings list reuses a page encoded before while the revision stays: any change by any writer
    /// (another daemon, the recorder, retention) must move it, and reading must not.
    func testTheRevisionMovesWithEveryChangeAnyWriterMakesAndOnlyThen() throws {
        let index = try openIndex()
        let other = try openIndex()
        var seen = try index.revision()
        func assertMoved(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let now = try index.revision()
            XCTAssertNotEqual(now, seen, what, file: file, line: line)
            seen = now
        }
        _ = try index.page(station: nil, programme: nil, limit: 10, offset: 0)
        _ = try index.all()
        XCTAssertEqual(try index.revision(), seen, "reading changes nothing")
        let added = try other.add(recording(file: "/m/a.m4a", start: Date(timeIntervalSince1970: 1_795_327_200)))
        try assertMoved("another writer's new entry")
        _ = try other.setKept(id: try XCTUnwrap(added.id), true)
        try assertMoved("kept")
        try other.addGap(TimedGap(at: 0, seconds: 3), toRecordingOf: "/m/a.m4a")
        try assertMoved("a gap noted")
        _ = try other.remove(id: try XCTUnwrap(added.id))
        try assertMoved("removed")
        XCTAssertEqual(try openIndex().revision(), seen, "the same for whoever opens the index")
    }
}
