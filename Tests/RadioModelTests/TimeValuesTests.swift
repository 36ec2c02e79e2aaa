import Foundation
import XCTest
@testable import RadioModel

final class TimeValuesTests: XCTestCase {
    func testTimeSpanReadsHowPeopleWriteDurations() {
        XCTAssertEqual(TimeSpan("2h")?.seconds, 7200)
        XCTAssertEqual(TimeSpan("45m")?.seconds, 2700)
        XCTAssertEqual(TimeSpan("1h30m")?.seconds, 5400)
        XCTAssertEqual(TimeSpan("90s")?.seconds, 90)
        XCTAssertEqual(TimeSpan("90")?.seconds, 90)
        XCTAssertEqual(TimeSpan(" 1H ")?.seconds, 3600)
        XCTAssertEqual(TimeSpan("1.5h")?.seconds, 5400)
        // Past about 31 years a span is a typo; huge ones used to crash the text form (found by fuzzing).
        XCTAssertEqual(TimeSpan("277777h")?.seconds, 999_997_200)
        for bad in ["", "h", "2 hours", "1h30", "-5", "1d", "abc", "inf", "nan", "1e300", "1e300h", "277778h"] {
            XCTAssertNil(TimeSpan(bad), bad)
        }
    }

    func testTimeSpanWritesTheShortestForm() {
        XCTAssertEqual(TimeSpan(seconds: 5400).description, "1h30m")
        XCTAssertEqual(TimeSpan(seconds: 3600).description, "1h")
        XCTAssertEqual(TimeSpan(seconds: 3661).description, "1h1m1s")
        XCTAssertEqual(TimeSpan(seconds: 0).description, "0s")
        XCTAssertEqual(TimeSpan(seconds: 1.5).description, "1.5s")
        XCTAssertEqual(TimeSpan(seconds: 1e300).description, "1e+300s")
        XCTAssertEqual(TimeSpan(seconds: .infinity).description, "infs")
    }

    func testClockTime() {
        XCTAssertEqual(ClockTime("06:00"), ClockTime(hour: 6, minute: 0))
        XCTAssertEqual(ClockTime("6:05"), ClockTime(hour: 6, minute: 5))
        XCTAssertEqual(ClockTime("23:59")?.description, "23:59")
        XCTAssertEqual(ClockTime(hour: 7, minute: 5).description, "07:05")
        for bad in ["24:00", "12:60", "1200", "12:", ":30", "123:00", "ab:cd", "-1:00"] {
            XCTAssertNil(ClockTime(bad), bad)
        }
    }

    func testPCMFormat() {
        let format = PCMFormat("44100:24:1")
        XCTAssertEqual(format, PCMFormat(sampleRate: 44100, bitsPerSample: 24, channels: 1))
        XCTAssertEqual(format?.bytesPerFrame, 3)
        XCTAssertEqual(PCMFormat.snapcastDefault.description, "48000:16:2")
        XCTAssertEqual(PCMFormat.snapcastDefault.bytesPerSecond, 192_000)
        for bad in ["48000:8:2", "48000:16", "48000:16:0", "4000:16:2", "48000:16:2:1", "x:16:2"] {
            XCTAssertNil(PCMFormat(bad), bad)
        }
    }

    func testSlotsReadAsPeopleWriteSchedules() {
        func slot(_ days: [Weekday], _ start: String, _ duration: String) -> String {
            BroadcastSlot(days: days, start: ClockTime(start)!, duration: TimeSpan(duration)!).description
        }
        XCTAssertEqual(slot([.mon, .tue, .wed, .thu, .fri], "06:00", "3h"), "Mon–Fri 06:00–09:00 (3h)")
        XCTAssertEqual(slot([.sat], "16:00", "1h"), "Sat 16:00–17:00 (1h)")
        XCTAssertEqual(slot([.fri], "23:00", "2h"), "Fri 23:00–01:00 (2h)")
        XCTAssertEqual(slot([.sun, .mon, .tue, .wed, .thu, .fri], "19:00", "15m"), "Mon–Fri, Sun 19:00–19:15 (15m)")
        XCTAssertEqual(slot([.sat, .sun], "07:00", "1h30m"), "Sat, Sun 07:00–08:30 (1h30m)")
        XCTAssertEqual(slot(Weekday.allCases, "00:00", "24h"), "Daily 00:00–00:00 (24h)")
    }
}

/// Lengths as people read them, whatever a station, a feed or a request gave.
final class ClockTextTests: XCTestCase {
    func testLengthsReadAsClockTimesAndOddOnesNeverStopTheProcess() {
        XCTAssertEqual(ClockText.of(245.9), "4:05")
        XCTAssertEqual(ClockText.of(3723), "1:02:03")
        XCTAssertEqual(ClockText.of(5, alwaysHours: true), "0:00:05")
        XCTAssertEqual(ClockText.of(-3), "0:00")
        XCTAssertEqual(ClockText.of(.nan), "0:00")
        XCTAssertEqual(ClockText.of(.infinity), "0:00")
        XCTAssertEqual(ClockText.of(1e300), "8784:00:00", "a year at most")
    }
}
