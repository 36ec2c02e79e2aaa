import Foundation

/// A classic five-field cron expression: minute, hour, day of month, month, day of week.
///
/// Each field takes `*`, numbers, ranges `a-b`, steps `*/n` or `a-b/n`, and lists of these; months
/// and days of the week also take names (jan, mon). Day of week 0 and 7 are Sunday. As cron does,
/// when both day of month and day of week are restricted, a day matching either is chosen.
public struct CronExpression: Codable, Sendable, Equatable {
    public let text: String
    let minutes: Set<Int>
    let hours: Set<Int>
    let daysOfMonth: Set<Int>
    let months: Set<Int>
    /// 0 is Sunday.
    let daysOfWeek: Set<Int>
    let dayOfMonthRestricted: Bool
    let dayOfWeekRestricted: Bool

    public init(_ text: String) throws(ScheduleError) {
        let fields = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 5 else {
            throw ScheduleError("cron expression '\(text)' needs 5 fields (minute hour day-of-month month day-of-week), it has \(fields.count)")
        }
        self.text = fields.joined(separator: " ")
        minutes = try Self.field(fields[0], name: "minute", range: 0...59, names: [:], in: text)
        hours = try Self.field(fields[1], name: "hour", range: 0...23, names: [:], in: text)
        daysOfMonth = try Self.field(fields[2], name: "day of month", range: 1...31, names: [:], in: text)
        let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        months = try Self.field(fields[3], name: "month", range: 1...12,
                                names: Dictionary(uniqueKeysWithValues: monthNames.enumerated().map { ($1, $0 + 1) }), in: text)
        let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let weekdays = try Self.field(fields[4], name: "day of week", range: 0...7,
                                      names: Dictionary(uniqueKeysWithValues: dayNames.enumerated().map { ($1, $0) }), in: text)
        daysOfWeek = Set(weekdays.map { $0 % 7 })
        dayOfMonthRestricted = !fields[2].hasPrefix("*")
        dayOfWeekRestricted = !fields[4].hasPrefix("*")
    }

    /// Whether the expression runs on a day: `weekday` 0 is Sunday.
    func matches(month: Int, day: Int, weekday: Int) -> Bool {
        guard months.contains(month) else { return false }
        switch (dayOfMonthRestricted, dayOfWeekRestricted) {
        case (true, true): return daysOfMonth.contains(day) || daysOfWeek.contains(weekday)
        case (true, false): return daysOfMonth.contains(day)
        case (false, true): return daysOfWeek.contains(weekday)
        case (false, false): return true
        }
    }

    /// The times of day it runs, in order.
    var timesOfDay: [(hour: Int, minute: Int)] {
        hours.sorted().flatMap { hour in minutes.sorted().map { (hour, $0) } }
    }

    private static func field(_ text: String, name: String, range: ClosedRange<Int>, names: [String: Int],
                              in expression: String) throws(ScheduleError) -> Set<Int> {
        func bad(_ why: String) -> ScheduleError { ScheduleError("cron expression '\(expression)': \(name) '\(text)' \(why)") }
        func value(_ word: Substring) throws(ScheduleError) -> Int {
            if let number = Int(word) {
                guard range.contains(number) else { throw bad("is outside \(range.lowerBound)-\(range.upperBound)") }
                return number
            }
            guard let named = names[word.lowercased()] else { throw bad("is not a number") }
            return named
        }
        var result = Set<Int>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let stepParts = item.split(separator: "/", omittingEmptySubsequences: false)
            guard stepParts.count <= 2 else { throw bad("has more than one step") }
            var step = 1
            if stepParts.count == 2 {
                guard let parsed = Int(stepParts[1]), parsed > 0 else { throw bad("has an invalid step") }
                step = parsed
            }
            let base = stepParts[0]
            let lower: Int, upper: Int
            if base == "*" {
                (lower, upper) = (range.lowerBound, range.upperBound)
            } else {
                let bounds = base.split(separator: "-", omittingEmptySubsequences: false)
                guard (1...2).contains(bounds.count), !bounds[0].isEmpty else { throw bad("is not a number or range") }
                lower = try value(bounds[0])
                upper = bounds.count == 2 ? try value(bounds[1]) : (stepParts.count == 2 ? range.upperBound : lower)
                guard lower <= upper else { throw bad("is a range running backwards") }
            }
            result.formUnion(stride(from: lower, through: upper, by: step))
        }
        return result
    }

    public init(from decoder: Decoder) throws {
        self = try CronExpression(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
