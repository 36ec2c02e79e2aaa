import Foundation

/// RSS's dates (RFC 822, as RFC 2822 reads it: "Tue, 24 Nov 2026 04:00:00 GMT"), read as podcast apps read
/// them: the weekday may be left off, the seconds too, the year may have two digits ("01 Jan 70": RFC 2822
/// §4.3, below 50 is 20xx, else 19xx — AntennaPod's feed-rss-testRss2Basic.xml), the offset may have a colon
/// ("+13:00") or be one of RFC 822's North American names; a date without a zone is UTC (feedparser's
/// `_parse_date_rfc822` does the same). Anything else — another language's month names, a zone name RFC 822
/// does not define — is no date rather than a guess.
enum RFC822Date {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let fullMonths = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                     "october", "november", "december"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// RFC 822's zone names, in hours from UTC.
    private static let zones: [String: Int] = ["ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5,
                                               "mst": -7, "mdt": -6, "pst": -8, "pdt": -7]

    static func parse(_ text: String) -> Date? {
        var tokens = text.replacingOccurrences(of: ",", with: " ").split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        if let first = tokens.first, weekdays.contains(where: { first.hasPrefix($0) }), first.allSatisfy(\.isLetter) { tokens.removeFirst() }
        guard (3...5).contains(tokens.count), let day = Int(tokens[0]), (1...31).contains(day),
              let month = (months.firstIndex(of: tokens[1]) ?? fullMonths.firstIndex(of: tokens[1])).map({ $0 + 1 }),
              tokens[2].count != 1, tokens[2].count <= 4, let written = Int(tokens[2]), written >= 0 else { return nil }
        let year = switch tokens[2].count {
        case 2: written < 50 ? 2000 + written : 1900 + written
        case 3: 1900 + written
        default: written
        }
        var (hour, minute, second) = (0, 0, 0)
        if tokens.count >= 4 {
            let clock = tokens[3].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }) else { return nil }
            (hour, minute, second) = (clock[0]!, clock[1]!, clock.count == 3 ? clock[2]! : 0)
            guard (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second) else { return nil }
        }
        var offset = 0
        if tokens.count == 5 {
            guard let seconds = offsetSeconds(tokens[4]) else { return nil }
            offset = seconds
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let wall = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: wall) == day else { return nil }
        return wall.addingTimeInterval(Double(-offset))
    }

    /// "+0100", "-0530", "+13:00", or a zone name of RFC 822.
    private static func offsetSeconds(_ zone: String) -> Int? {
        if let hours = zones[zone] { return hours * 3600 }
        guard let sign = zone.first.flatMap({ $0 == "+" ? 1 : $0 == "-" ? -1 : nil }) else { return nil }
        let digits = zone.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits), value / 100 <= 14, value % 100 < 60 else { return nil }
        return sign * (value / 100 * 3600 + value % 100 * 60)
    }
}
