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
        XCTAssertEqual(Timestamp.format(Date(timeIntervalSince1970: -0.001)), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp.format(try XCTUnwrap(Timestamp.parse("2024-02-29T23:59:59.5Z"))), "2024-02-29T23:59:59.500Z")
    }

    /// Arithmetic, not a calendar: held to Foundation's own Gregorian calendar on dates from 1601 to 2400
    /// (leap centuries, month ends, before 1970), with their milliseconds.
    func testFormatAgreesWithTheGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var state: UInt64 = 7  // a fixed sequence (Knuth's MMIX generator): the same 2,000 dates each run
        func next() -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64(state >> 20) % 25_213_939_200_000 - 11_644_473_600_000  // 1601 to 2400, in milliseconds
        }
        let interesting = [-11_644_473_600.0, -2_208_988_800.5, 951_782_399.999, 951_782_400, 4_107_542_400, 13_569_465_599.998]
        let chosen = interesting.map { Int64(($0 * 1000).rounded()) } + (0..<2000).map { _ in next() }
        for milliseconds in chosen {
            let (second, millisecond) = (Int64((Double(milliseconds) / 1000).rounded(.down)), Int(((milliseconds % 1000) + 1000) % 1000))
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(second)))
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, millisecond)
            let seconds = Double(milliseconds) / 1000
            XCTAssertEqual(Timestamp.format(date), expected, "\(seconds)")
        }
    }
}
