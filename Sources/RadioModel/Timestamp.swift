import Foundation

/// Dates written the ISO 8601 way: HLS program-date-times ("2026-11-22T06:00:12.547+0000") and
/// what a user types for `--from` ("2026-11-22T10:00", "2026-11-22 10:00:30Z").
///
/// Hand-written rather than `ISO8601DateFormatter`, which refuses some of the zone spellings real
/// playlists use (`+0000`, no seconds, no zone) and needs a different configuration for each.
public enum Timestamp {
    /// `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]][Z|±HH[:MM]|±HHMM]`; without a zone, the time is in `timeZone`.
    public static func parse(_ text: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> Date? {
        var scanner = Scanner(Array(text.trimmingCharacters(in: .whitespaces).utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2)
        else { return nil }
        var second = 0
        var fraction = 0.0
        if scanner.skip(":") {
            guard let value = scanner.number(digits: 2) else { return nil }
            second = value
            if scanner.skip(".") || scanner.skip(",") {
                let digits = scanner.digits(max: 9)
                guard !digits.isEmpty else { return nil }
                fraction = Double(digits.reduce(0) { $0 * 10 + $1 }) / pow(10, Double(digits.count))
                _ = scanner.digits(max: .max) // precision beyond nanoseconds means nothing here
            }
        }
        var zone = timeZone
        if scanner.skip("Z") || scanner.skip("z") {
            zone = TimeZone(identifier: "UTC")!
        } else if let sign = scanner.sign() {
            guard let hours = scanner.number(digits: 2) else { return nil }
            _ = scanner.skip(":")
            let minutes = scanner.number(digits: 2) ?? 0
            guard hours < 24, minutes < 60, let offset = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else {
                return nil
            }
            zone = offset
        }
        guard scanner.atEnd, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(fraction)
    }

    /// The instant a date written in parts names, `offsetSeconds` east of UTC; nil for a day its month does
    /// not have (30 February). For the readers of other formats' dates (RFC 822 in feeds, XMLTV's).
    public static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let wall = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: wall) == day else { return nil }
        return wall.addingTimeInterval(Double(-offsetSeconds))
    }

    /// A zone written as an offset ("+0100", "-05:30") or as one of `names` (lowercase, minutes east of UTC), in
    /// seconds east of UTC; nil for anything else.
    public static func offsetSeconds(_ written: String, names: [String: Int]) -> Int? {
        if let minutes = names[written.lowercased()] { return minutes * 60 }
        let sign: Int
        switch written.first {
        case "+": sign = 1
        case "-": sign = -1
        default: return nil
        }
        let digits = written.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits), value / 100 <= 14, value % 100 < 60 else { return nil }
        return sign * (value / 100 * 3600 + value % 100 * 60)
    }

    /// Bytes of ASCII read left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }

        /// Exactly `digits` decimal digits as a number.
        mutating func number(digits: Int) -> Int? {
            let found = self.digits(max: digits)
            guard found.count == digits else { return nil }
            return found.reduce(0) { $0 * 10 + $1 }
        }

        mutating func digits(max: Int) -> [Int] {
            var found: [Int] = []
            while found.count < max, index < bytes.count, (48...57).contains(bytes[index]) {
                found.append(Int(bytes[index] - 48))
                index += 1
            }
            return found
        }
    }
}

extension Timestamp {
    /// A moment in the recent past as a user writes it: an ISO 8601 date (local time unless it names
    /// a zone), or a time of day "HH:MM[:SS]" meaning its latest occurrence at or before `now`.
    public static func parseRecent(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> Date? {
        if let date = parse(text, timeZone: timeZone) { return date }
        guard let (hour, minute, second) = timeOfDay(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var components = calendar.dateComponents([.year, .month, .day], from: now)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        guard let today = calendar.date(from: components) else { return nil }
        return today <= now ? today : calendar.date(byAdding: .day, value: -1, to: today)
    }

    /// A date, or a time of day `HH:MM[:SS]`'s next occurrence after `now` (today's if it is still
    /// ahead, else tomorrow's, DST-safe through the calendar): when `--until` ends a recording.
    public static func parseUpcoming(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> Date? {
        if let date = parse(text, timeZone: timeZone) { return date }
        guard let (hour, minute, second) = timeOfDay(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.nextDate(after: now, matching: DateComponents(hour: hour, minute: minute, second: second),
                                 matchingPolicy: .nextTime)
    }

    /// `HH:MM[:SS]`, two digits each.
    private static func timeOfDay(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
        guard second < 60 else { return nil }
        return (hour, minute, second)
    }
}

extension Timestamp {
    /// "2026-11-22T06:00:12.547Z": UTC with milliseconds, precise enough to cut audio at. By arithmetic on
    /// the proleptic Gregorian calendar (days to a civil date, as in Howard Hinnant's `civil_from_days`):
    /// every date the API sends goes through here, and a `Calendar` and `String(format:)` per date were a
    /// third of the time a page of recordings took to answer (BENCHMARKS.md, api-latency).
    public static func format(_ date: Date) -> String {
        // A Date counts from 2001 in a Double, so one made from a whole millisecond since 1970 can come back a
        // hair below it (microseconds, far from 1970): within 10 µs of a millisecond is that millisecond.
        let exact = date.timeIntervalSince1970 * 1000
        let milliseconds = Int64(abs(exact - exact.rounded()) < 0.01 ? exact.rounded() : exact.rounded(.down))
        let (seconds, millisecond) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else { return "\(year)-\(month)-\(day)T\(secondOfDay)s.\(millisecond)Z" }
        var text = [UInt8]()
        text.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int, then separator: UInt8) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            text.append(separator)
        }
        digits(year, 4, then: UInt8(ascii: "-"))
        digits(month, 2, then: UInt8(ascii: "-"))
        digits(day, 2, then: UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, then: UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, then: UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, then: UInt8(ascii: "."))
        digits(millisecond, 3, then: UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Quotient and remainder rounded towards minus infinity: a date before 1970 is still the day it falls in.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The Gregorian year, month and day of a count of days since 1970-01-01.
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01: leap days fall at the end of each year so counted
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
