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
    /// "2026-11-22T06:00:12.547Z": UTC with milliseconds, precise enough to cut audio at.
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        let whole = Date(timeIntervalSince1970: Double(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient))
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!,
                      milliseconds - Int(whole.timeIntervalSince1970) * 1000)
    }
}
