import Foundation
import RadioModel
import XCTest
@testable import Scheduling

/// Rule expansion with the clock under the test's control: weekly rules across European and US DST
/// changes, skipped and repeated hours, Lord Howe's half-hour shift, cron, pads.
final class RuleExpansionTests: XCTestCase {
    private func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    private func weekly(_ at: String, for duration: String = "1h", zone: String, pads: (String, String) = ("0s", "0s")) throws -> RuleExpansion {
        let (days, time) = try WeeklyTimeText.parse(at)
        let rule = ScheduleRule(station: "x", timing: .weekly([BroadcastSlot(days: days, start: time, duration: TimeSpan(duration)!)]),
                                timeZone: zone, padBefore: TimeSpan(pads.0)!, padAfter: TimeSpan(pads.1)!)
        return try RuleExpansion(rule)
    }

    private func cron(_ text: String, zone: String = "UTC") throws -> RuleExpansion {
        try RuleExpansion(ScheduleRule(station: "x", timing: .cron(try CronExpression(text), duration: TimeSpan("30m")!), timeZone: zone))
    }

    private func starts(_ expansion: RuleExpansion, after: String, count: Int) -> [String] {
        let formatter = ISO8601DateFormatter()
        return expansion.occurrences(endingAfter: instant(after), limit: count).map { formatter.string(from: $0.start) }
    }

    func testAWeeklyLondonTimeStaysLocalAcrossBothDSTChanges() throws {
        // BST ends 2026-10-25, begins 2027-03-28: Friday 21:00 local is 20:00 UTC in summer, 21:00 in winter.
        let rule = try weekly("fri 21:00", zone: "Europe/London")
        XCTAssertEqual(starts(rule, after: "2026-10-20T00:00:00Z", count: 2), ["2026-10-23T20:00:00Z", "2026-10-30T21:00:00Z"])
        XCTAssertEqual(starts(rule, after: "2027-03-22T00:00:00Z", count: 2), ["2027-03-26T21:00:00Z", "2027-04-02T20:00:00Z"])
    }

    func testAWeeklyNewYorkTimeStaysLocalAcrossBothDSTChanges() throws {
        // EDT ends 2026-11-01, begins 2027-03-14.
        let rule = try weekly("sat,sun 10:00", zone: "America/New_York")
        XCTAssertEqual(starts(rule, after: "2026-10-31T00:00:00Z", count: 2), ["2026-10-31T14:00:00Z", "2026-11-01T15:00:00Z"])
        XCTAssertEqual(starts(rule, after: "2027-03-13T00:00:00Z", count: 2), ["2027-03-13T15:00:00Z", "2027-03-14T14:00:00Z"])
    }

    func testAStartInTheSkippedHourMovesToTheChange() throws {
        // London springs forward at 01:00 GMT on 2027-03-28: 01:30 local does not exist; 02:00 BST is 01:00 UTC.
        XCTAssertEqual(starts(try weekly("sun 01:30", zone: "Europe/London"), after: "2027-03-27T00:00:00Z", count: 2),
                       ["2027-03-28T01:00:00Z", "2027-04-04T00:30:00Z"])
        // New York skips 02:00–03:00 on 2027-03-14: 02:30 becomes 03:00 EDT (07:00 UTC).
        XCTAssertEqual(starts(try weekly("sun 02:30", zone: "America/New_York"), after: "2027-03-13T00:00:00Z", count: 1),
                       ["2027-03-14T07:00:00Z"])
    }

    func testAStartInTheRepeatedHourIsRecordedOnceAtItsFirstOccurrence() throws {
        // London falls back at 02:00 BST on 2026-10-25: 01:30 happens at 00:30 UTC and again at 01:30 UTC.
        let rule = try weekly("sun 01:30", zone: "Europe/London")
        XCTAssertEqual(starts(rule, after: "2026-10-24T00:00:00Z", count: 2), ["2026-10-25T00:30:00Z", "2026-11-01T01:30:00Z"])
        // New York repeats 01:00–02:00 on 2026-11-01: the first 01:30 is EDT (05:30 UTC).
        XCTAssertEqual(starts(try weekly("sun 01:30", zone: "America/New_York"), after: "2026-10-31T00:00:00Z", count: 1),
                       ["2026-11-01T05:30:00Z"])
        // A cron rule every 15 minutes through the repeated hour runs once per local time.
        let quarterly = try cron("*/15 1 25 10 *", zone: "Europe/London")
        XCTAssertEqual(starts(quarterly, after: "2026-10-24T00:00:00Z", count: 5),
                       ["2026-10-25T00:00:00Z", "2026-10-25T00:15:00Z", "2026-10-25T00:30:00Z", "2026-10-25T00:45:00Z",
                        "2027-10-25T00:00:00Z"])
    }

    func testLordHowesHalfHourShift() throws {
        // Lord Howe Island: +10:30 standard, +11:00 in summer. It springs forward at 02:00 local on
        // 2026-10-04 (to 02:30) and falls back at 02:00 local on 2027-04-04 (to 01:30).
        let skipped = try weekly("sun 02:15", zone: "Australia/Lord_Howe")
        XCTAssertEqual(starts(skipped, after: "2026-10-02T00:00:00Z", count: 2), ["2026-10-03T15:30:00Z", "2026-10-10T15:15:00Z"])
        let repeated = try weekly("sun 01:45", zone: "Australia/Lord_Howe")
        XCTAssertEqual(starts(repeated, after: "2027-04-02T00:00:00Z", count: 2), ["2027-04-03T14:45:00Z", "2027-04-10T15:15:00Z"])
        let evening = try weekly("daily 21:00", zone: "Australia/Lord_Howe")
        XCTAssertEqual(starts(evening, after: "2026-10-03T00:00:00Z", count: 2), ["2026-10-03T10:30:00Z", "2026-10-04T10:00:00Z"])
    }

    func testCronRangesStepsListsAndNames() throws {
        XCTAssertEqual(starts(try cron("0 21 * * 1-5"), after: "2026-11-20T22:00:00Z", count: 3),
                       ["2026-11-23T21:00:00Z", "2026-11-24T21:00:00Z", "2026-11-25T21:00:00Z"])
        XCTAssertEqual(starts(try cron("0,30 6-7 * * sat"), after: "2026-11-20T00:00:00Z", count: 5),
                       ["2026-11-21T06:00:00Z", "2026-11-21T06:30:00Z", "2026-11-21T07:00:00Z", "2026-11-21T07:30:00Z",
                        "2026-11-28T06:00:00Z"])
        XCTAssertEqual(starts(try cron("0 0-12/6 1 jan,jul *"), after: "2026-11-20T00:00:00Z", count: 4),
                       ["2027-01-01T00:00:00Z", "2027-01-01T06:00:00Z", "2027-01-01T12:00:00Z", "2027-07-01T00:00:00Z"])
        // Sunday is 0 and 7.
        XCTAssertEqual(starts(try cron("0 9 * * 7"), after: "2026-11-20T00:00:00Z", count: 1), ["2026-11-22T09:00:00Z"])
        // Never-matching dates end the search instead of looping.
        XCTAssertEqual(starts(try cron("0 0 30 2 *"), after: "2026-11-20T00:00:00Z", count: 1), [])
    }

    func testCronDayOfMonthAndDayOfWeekMatchEitherAsCronDoes() throws {
        // The 1st of the month OR any Friday: Fri 27 Nov, Tue 1 Dec, Fri 4 Dec.
        XCTAssertEqual(starts(try cron("0 12 1 * fri"), after: "2026-11-25T00:00:00Z", count: 3),
                       ["2026-11-27T12:00:00Z", "2026-12-01T12:00:00Z", "2026-12-04T12:00:00Z"])
        // With one of them `*`, only the other decides.
        XCTAssertEqual(starts(try cron("0 12 1 * *"), after: "2026-11-25T00:00:00Z", count: 2),
                       ["2026-12-01T12:00:00Z", "2027-01-01T12:00:00Z"])
    }

    func testCronErrorsNameTheField() {
        XCTAssertThrowsError(try CronExpression("0 25 * * *")) { XCTAssertTrue("\($0)".contains("hour '25' is outside 0-23"), "\($0)") }
        XCTAssertThrowsError(try CronExpression("0 21 * *")) { XCTAssertTrue("\($0)".contains("needs 5 fields"), "\($0)") }
        XCTAssertThrowsError(try CronExpression("0 21 * * fry")) { XCTAssertTrue("\($0)".contains("day of week 'fry'"), "\($0)") }
        XCTAssertThrowsError(try CronExpression("0 5-1 * * *")) { XCTAssertTrue("\($0)".contains("backwards"), "\($0)") }
    }

    func testPadsWidenTheRecordedWindowAndAnEpisodeUnderWayComesFirst() throws {
        let rule = try weekly("mon-fri 06:30", for: "2h", zone: "Europe/London", pads: ("2m", "5m"))
        let now = instant("2026-11-23T07:00:00Z")   // Monday, during the programme.
        let first = try XCTUnwrap(rule.occurrences(endingAfter: now, limit: 1).first)
        XCTAssertEqual(first.start, instant("2026-11-23T06:30:00Z"))
        XCTAssertEqual(first.window, DateInterval(start: instant("2026-11-23T06:28:00Z"), end: instant("2026-11-23T08:35:00Z")))
        // Within the after-pad it still counts; after it, the next day's comes first.
        XCTAssertEqual(rule.occurrences(endingAfter: instant("2026-11-23T08:34:00Z"), limit: 1).first?.start, first.start)
        XCTAssertEqual(rule.occurrences(endingAfter: instant("2026-11-23T08:35:00Z"), limit: 1).first?.start,
                       instant("2026-11-24T06:30:00Z"))
    }

    func testAnOvernightSlotAndAOneOff() throws {
        let late = try weekly("fri 23:00", for: "2h", zone: "UTC")
        // Saturday 00:30 is still Friday's broadcast.
        XCTAssertEqual(starts(late, after: "2026-11-28T00:30:00Z", count: 1), ["2026-11-27T23:00:00Z"])
        let once = try RuleExpansion(ScheduleRule(station: "x", timing: .once(LocalDateTime("2026-12-24T18:00")!, duration: TimeSpan("1h")!),
                                                  timeZone: "America/New_York"))
        XCTAssertEqual(starts(once, after: "2026-12-01T00:00:00Z", count: 3), ["2026-12-24T23:00:00Z"])
        XCTAssertEqual(starts(once, after: "2026-12-25T00:00:00Z", count: 3), [])
    }

    func testTypedDaysAndBadInput() throws {
        XCTAssertEqual(try WeeklyTimeText.parse("mon-fri 06:30").days, [.mon, .tue, .wed, .thu, .fri])
        XCTAssertEqual(try WeeklyTimeText.parse("Sat,Sun 10:00").days, [.sat, .sun])
        XCTAssertEqual(try WeeklyTimeText.parse("fri-mon 22:00").days, [.fri, .sat, .sun, .mon])
        XCTAssertEqual(try WeeklyTimeText.parse("friday 22:00").days, [.fri])
        XCTAssertThrowsError(try WeeklyTimeText.parse("fri 25:00"))
        XCTAssertThrowsError(try WeeklyTimeText.parse("funday 10:00"))
        XCTAssertThrowsError(try RuleExpansion(ScheduleRule(station: "x", timing: .weekly([]), timeZone: "Mars/Olympus")))
    }

    /// Found by fuzzing (Fuzz/Corpus/schedule-rule/huge-length): a cron rule 10^116 minutes long
    /// crashed the expansion; such lengths are now refused, and a week is the limit.
    func testAnAbsurdLengthIsRefusedNotACrash() throws {
        XCTAssertNil(TimeSpan("10" + String(repeating: "4", count: 114) + "m"))
        let eightDays = ScheduleRule(station: "x", timing: .cron(try CronExpression("*/07 22 6 10 *"), duration: TimeSpan(seconds: 8 * 86_400)),
                                     timeZone: "Europe/London")
        XCTAssertThrowsError(try RuleExpansion(eightDays)) { error in
            XCTAssertEqual("\(error)", "an episode longer than 168h is not supported (got 192h)")
        }
        let week = try weekly("sat 10:00", for: "168h", zone: "Europe/London", pads: ("0s", "1h"))
        XCTAssertEqual(starts(week, after: "2026-11-22T00:00:00Z", count: 1), ["2026-11-21T10:00:00Z"], "the one under way comes first")
        var longPad = week.rule
        longPad.padBefore = TimeSpan(seconds: 8 * 86_400)
        XCTAssertThrowsError(try RuleExpansion(longPad))
    }
}
