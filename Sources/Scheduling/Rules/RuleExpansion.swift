import Foundation
import Guide
import RadioModel

/// One broadcast a rule asks for: the programme's own times, and the window recorded (with pads).
public struct Occurrence: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var padBefore: Double
    public var padAfter: Double
    /// What a programme guide says of this broadcast (for rules that follow a guide).
    public var broadcast: BroadcastDetails?

    /// What is recorded: the broadcast with its pads.
    public var window: DateInterval {
        DateInterval(start: start.addingTimeInterval(-padBefore), end: end.addingTimeInterval(padAfter))
    }
}

/// Turns a rule into the broadcasts it asks for. Pure: the caller gives the instant to start from,
/// so tests drive it with any clock.
///
/// Local times are resolved in the rule's time zone, day by day, so a weekly 21:00 stays 21:00 on the
/// wall clock across DST changes. A local time the clocks skip (spring forward) moves to the first
/// valid instant after it, the moment of the change; a local time they repeat (fall back) is taken
/// once, at its first occurrence.
public struct RuleExpansion: Sendable {
    public let rule: ScheduleRule
    /// Where a guide rule's broadcasts are listed; without it a guide rule has none.
    private let guide: GuideStore?
    private let calendar: Calendar
    private let zone: TimeZone
    /// How far ahead a rule that never matches (cron "0 0 30 2 *") is searched before giving up.
    static let searchDays = 8 * 366
    /// The longest episode, and the longest pad, a rule may ask for: a week.
    public static let longestSpan = TimeSpan(seconds: 7 * 86_400)

    public init(_ rule: ScheduleRule, guide: GuideStore? = nil) throws(ScheduleError) {
        guard let zone = TimeZone(identifier: rule.timeZone) else {
            throw ScheduleError("unknown time zone '\(rule.timeZone)': use an IANA name like Europe/London or UTC")
        }
        let lengths: [Double]
        switch rule.timing {
        case .weekly(let slots): lengths = slots.map(\.duration.seconds)
        case .once(_, let duration), .cron(_, let duration): lengths = [duration.seconds]
        case .guide: lengths = []
        }
        for (what, seconds) in lengths.map({ ("an episode", $0) }) + [("--pad-before", rule.padBefore.seconds), ("--pad-after", rule.padAfter.seconds)]
            where !(seconds <= Self.longestSpan.seconds) {
            throw ScheduleError("\(what) longer than \(Self.longestSpan) is not supported (got \(TimeSpan(seconds: seconds)))")
        }
        self.rule = rule
        self.guide = guide
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// Up to `limit` broadcasts, in order of start, whose recorded window ends after `instant`
    /// (so one under way at `instant` comes first).
    public func occurrences(endingAfter instant: Date, limit: Int) -> [Occurrence] {
        guard limit > 0 else { return [] }
        let (before, after) = (rule.padBefore.seconds, rule.padAfter.seconds)
        switch rule.timing {
        case .once(let at, let duration):
            let start = resolve(at)
            let occurrence = Occurrence(start: start, end: start.addingTimeInterval(duration.seconds), padBefore: before, padAfter: after)
            return occurrence.window.end > instant ? [occurrence] : []
        case .weekly(let slots):
            let longest = slots.map(\.duration.seconds).max() ?? 0
            return scan(from: instant, lookBack: longest + before + after, limit: limit) { day, weekday in
                slots.filter { $0.days.contains(Weekday(calendarWeekday: weekday + 1)) }
                    .map { (ClockTime(hour: $0.start.hour, minute: $0.start.minute), $0.duration.seconds) }
            }
        case .cron(let expression, let duration):
            return scan(from: instant, lookBack: duration.seconds + before + after, limit: limit) { day, weekday in
                guard expression.matches(month: day.month, day: day.day, weekday: weekday) else { return [] }
                return expression.timesOfDay.map { (ClockTime(hour: $0.hour, minute: $0.minute), duration.seconds) }
            }
        case .guide(let selection):
            // An unreadable guide lists nothing this time; the daemon asks again on its next look.
            let listed = (try? guide?.broadcasts(selection, endingAfter: instant.addingTimeInterval(-after), limit: limit)) ?? []
            return listed.map {
                Occurrence(start: $0.start, end: $0.stop, padBefore: before, padAfter: after,
                           broadcast: $0.details(language: selection.language))
            }
        }
    }

    /// Walks local days from a little before `instant`, asking `starts` for each day's local start
    /// times (weekday 0 is Sunday) and lengths.
    private func scan(from instant: Date, lookBack: Double, limit: Int,
                      starts: (_ day: (year: Int, month: Int, day: Int), _ weekday: Int) -> [(ClockTime, Double)]) -> [Occurrence] {
        let (before, after) = (rule.padBefore.seconds, rule.padAfter.seconds)
        let first = calendar.startOfDay(for: instant.addingTimeInterval(-lookBack - 86_400))
        var found: [Occurrence] = []
        var seen = Set<Date>()
        var dayNumber = 0
        while found.count < limit, dayNumber < Self.searchDays + Int(lookBack / 86_400) + 2 {
            defer { dayNumber += 1 }
            // Noon never falls in a DST change, so stepping by days from it is safe.
            guard let noon = calendar.date(byAdding: .day, value: dayNumber,
                                           to: first.addingTimeInterval(12 * 3600)) else { break }
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: noon)
            let day = (parts.year!, parts.month!, parts.day!)
            var today: [Occurrence] = []
            for (time, length) in starts(day, parts.weekday! - 1) {
                let start = resolve(LocalDateTime(year: day.0, month: day.1, day: day.2, hour: time.hour, minute: time.minute))
                guard seen.insert(start).inserted else { continue }
                let occurrence = Occurrence(start: start, end: start.addingTimeInterval(length), padBefore: before, padAfter: after)
                if occurrence.window.end > instant { today.append(occurrence) }
            }
            found += today.sorted { $0.start < $1.start }
        }
        return Array(found.prefix(limit))
    }

    /// The instant a local date-time names in the rule's zone: its first occurrence if the clocks
    /// repeat it, the moment of the change if they skip it.
    func resolve(_ local: LocalDateTime) -> Date {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let wall = utc.date(from: DateComponents(year: local.year, month: local.month, day: local.day,
                                                 hour: local.hour, minute: local.minute, second: local.second))!.timeIntervalSince1970
        // Offsets in force a day either side; a change between them is the only one near.
        let offsets = Set([zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400)),
                           zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86_400))])
        let valid = offsets.map { wall - Double($0) }
            .filter { zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) == Int(wall - $0) }
        if let first = valid.min() { return Date(timeIntervalSince1970: first) }
        // Skipped: find the change between the two candidate instants (to the second).
        let candidates = offsets.map { wall - Double($0) }
        var low = candidates.min()!, high = candidates.max()!
        let offsetBefore = zone.secondsFromGMT(for: Date(timeIntervalSince1970: low))
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if zone.secondsFromGMT(for: Date(timeIntervalSince1970: middle)) == offsetBefore { low = middle } else { high = middle }
        }
        return Date(timeIntervalSince1970: high)
    }
}
