import Foundation

/// XMLTV's time stamps: "YYYYMMDDhhmmss ±hhmm", where the seconds, then the minutes and hours may be
/// left off and the offset may be missing (then it is UTC, as the format says) or a name (UTC, GMT, Z).
public enum XMLTVTime {
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard (1...2).contains(parts.count) else { return nil }
        let digits = Array(parts[0].utf8)
        guard [8, 10, 12, 14].contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        func number(_ from: Int, _ length: Int) -> Int {
            from + length <= digits.count ? digits[from..<(from + length)].reduce(0) { $0 * 10 + Int($1 - 48) } : 0
        }
        let (year, month, day) = (number(0, 4), number(4, 2), number(6, 2))
        let (hour, minute, second) = (number(8, 2), number(10, 2), number(12, 2))
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let offset: Int
        if parts.count == 2 {
            guard let seconds = offsetSeconds(String(parts[1])) else { return nil }
            offset = seconds
        } else {
            offset = 0
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let wall = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: wall) == day else { return nil }
        return wall.addingTimeInterval(Double(-offset))
    }

    /// "+0100", "-0530" (a colon is tolerated), or UTC/GMT/Z.
    static func offsetSeconds(_ text: String) -> Int? {
        if ["utc", "gmt", "z"].contains(text.lowercased()) { return 0 }
        let sign: Int
        switch text.first {
        case "+": sign = 1
        case "-": sign = -1
        default: return nil
        }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits),
              value / 100 <= 14, value % 100 < 60 else { return nil }
        return sign * (value / 100 * 3600 + value % 100 * 60)
    }
}
