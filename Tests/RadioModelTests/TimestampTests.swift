import Foundation
import RadioModel
import XCTest

final class TimestampTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    func testTheSpellingsPlaylistsAndPeopleUse() throws {
        let expected = Date(timeIntervalSince1970: 1_794_981_612.547) // 2026-11-18T06:00:12.547Z
        for text in ["2026-11-18T06:00:12.547Z", "2026-11-18T06:00:12.547+0000", "2026-11-18T07:00:12.547+01:00",
                     "2026-11-18T01:00:12.547-05", "2026-11-18 06:00:12.5470001z", "2026-11-18T06:00:12,547Z"] {
            let date = try XCTUnwrap(Timestamp.parse(text), text)
            XCTAssertEqual(date.timeIntervalSince1970, expected.timeIntervalSince1970, accuracy: 0.0005, text)
        }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        XCTAssertEqual(Timestamp.parse("2026-11-18T07:00", timeZone: berlin)?.timeIntervalSince1970, 1_794_981_600)
        for bad in ["", "2026-11-18", "2026-13-01T00:00Z", "2026-02-30T00:00Z", "2026-11-18T24:00Z", "2026-11-18T06:00:12.Z",
                    "2026-11-18T06:00+25:00", "2026-11-18T06:00Zjunk", "yesterday"] {
            XCTAssertNil(Timestamp.parse(bad), bad)
        }
    }

    func testATimeOfDayMeansItsLatestOccurrence() throws {
        let now = try XCTUnwrap(Timestamp.parse("2026-11-22T10:30:00Z"))
        XCTAssertEqual(Timestamp.parseRecent("10:00", now: now, timeZone: utc), Timestamp.parse("2026-11-22T10:00:00Z"))
        XCTAssertEqual(Timestamp.parseRecent("10:30:00", now: now, timeZone: utc), now)
        XCTAssertEqual(Timestamp.parseRecent("23:15:30", now: now, timeZone: utc), Timestamp.parse("2026-11-21T23:15:30Z"))
        XCTAssertEqual(Timestamp.parseRecent("2026-11-20T08:00", now: now, timeZone: utc), Timestamp.parse("2026-11-20T08:00Z"))
        for bad in ["25:00", "9:00", "10:60", "10:00:99", "noon", "10"] {
            XCTAssertNil(Timestamp.parseRecent(bad, now: now, timeZone: utc), bad)
        }
    }

    func testAnUntilTimeOfDayMeansItsNextOccurrence() throws {
        let now = try XCTUnwrap(Timestamp.parse("2026-11-22T10:30:00Z"))
        XCTAssertEqual(Timestamp.parseUpcoming("11:00", now: now, timeZone: utc), Timestamp.parse("2026-11-22T11:00:00Z"))
        XCTAssertEqual(Timestamp.parseUpcoming("10:00", now: now, timeZone: utc), Timestamp.parse("2026-11-23T10:00:00Z"))
        XCTAssertEqual(Timestamp.parseUpcoming("2026-11-24T08:00", now: now, timeZone: utc), Timestamp.parse("2026-11-24T08:00Z"))
        for bad in ["25:00", "+1:00", "10:60", "10:00:99", "noon"] {
            XCTAssertNil(Timestamp.parseUpcoming(bad, now: now, timeZone: utc), bad)
        }
    }

    func testFormatKeepsMilliseconds() throws {
        let date = try XCTUnwrap(Timestamp.parse("2026-11-22T06:00:12.547+0000"))
        XCTAssertEqual(Timestamp.format(date), "2026-11-22T06:00:12.547Z")
        XCTAssertEqual(Timestamp.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
    }
}
