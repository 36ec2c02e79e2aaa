import Foundation
import XCTest
import Store
import TestSupport
@testable import Guide

/// Which broadcasts a guide rule picks: by title in any language (case ignored), or by series.
final class GuideSelectionTests: XCTestCase {
    func testTitlesInAnyLanguageAndSeriesIDsPickTheirBroadcastsFromNowOn() throws {
        let directory = try TemporaryDirectory(prefix: "onair-guide")
        let store = try GuideStore(database: try OnairDatabase(directory: directory.url))
        try store.importGuide(try XMLTVReader.read(Data("""
        <tv>
          <programme start="20261123200000" stop="20261123210000" channel="c"><title>Jazz Hour</title></programme>
          <programme start="20261124200000" stop="20261124210000" channel="c"><title lang="de">Jazzstunde</title><title lang="en">Jazz Hour</title>
            <episode-num system="dd_progid">EP0042.0002</episode-num></programme>
          <programme start="20261124210000" stop="20261124220000" channel="c"><title>Late Jazz Hour Special</title>
            <episode-num system="dd_progid">EP0099.0001</episode-num></programme>
          <programme start="20261125200000" stop="20261125210000" channel="c"><title>Jazzstunde</title>
            <episode-num system="dd_progid">EP0042.0003</episode-num></programme>
          <programme start="20261125200000" stop="20261125210000" channel="other"><title>Jazz Hour</title></programme>
        </tv>
        """.utf8)))
        let now = ISO8601DateFormatter().date(from: "2026-11-24T12:00:00Z")!
        func starts(_ selection: GuideSelection) throws -> [String] {
            try store.broadcasts(selection, endingAfter: now, limit: 10).map { ISO8601DateFormatter().string(from: $0.start) }
        }
        XCTAssertEqual(try starts(GuideSelection(channel: "c", titlePattern: "^JAZZ HOUR$")), ["2026-11-24T20:00:00Z"])
        XCTAssertEqual(try starts(GuideSelection(channel: "c", titlePattern: "jazzstunde")), ["2026-11-24T20:00:00Z", "2026-11-25T20:00:00Z"])
        XCTAssertEqual(try starts(GuideSelection(channel: "c", series: "EP0042")), ["2026-11-24T20:00:00Z", "2026-11-25T20:00:00Z"])
        let picked = try XCTUnwrap(try store.broadcasts(GuideSelection(channel: "c", series: "EP0042"), endingAfter: now, limit: 1).first)
        XCTAssertEqual(picked.details(language: "en").title, "Jazz Hour")
        XCTAssertEqual(picked.details(language: "de").title, "Jazzstunde")
        XCTAssertThrowsError(try GuideSelection(channel: "c", titlePattern: "(unclosed")) {
            XCTAssertEqual("\($0)", "invalid title pattern '(unclosed': not a regular expression")
        }
    }

    func testBroadcastsThatEndedTwoWeeksAgoAreDroppedAtTheNextImport() throws {
        let directory = try TemporaryDirectory(prefix: "onair-guide")
        let store = try GuideStore(database: try OnairDatabase(directory: directory.url))
        func guide(_ start: String, _ stop: String) throws -> XMLTVGuide {
            try XMLTVReader.read(Data("<tv><programme start=\"\(start)\" stop=\"\(stop)\" channel=\"c\"><title>T</title></programme></tv>".utf8))
        }
        let now = ISO8601DateFormatter().date(from: "2026-11-24T12:00:00Z")!
        try store.importGuide(try guide("20261109100000", "20261109110000"), now: now)
        try store.importGuide(try guide("20261111100000", "20261111110000"), now: now)
        try store.importGuide(try guide("20261124100000", "20261124110000"), now: now)
        let all = DateInterval(start: now.addingTimeInterval(-30 * 86_400), end: now)
        XCTAssertEqual(try store.broadcasts(channel: "c", overlapping: all).map { ISO8601DateFormatter().string(from: $0.start) },
                       ["2026-11-11T10:00:00Z", "2026-11-24T10:00:00Z"], "15 days old is dropped, 13 days old kept")
    }
}
