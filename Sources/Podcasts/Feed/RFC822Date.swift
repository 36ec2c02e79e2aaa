import Foundation
import RadioModel

/// RSS's dates (RFC 822, as RFC 2822 reads it: "Tue, 24 Nov 2026 04:00:00 GMT"), read as podcast apps read
/// them (feedparser's tests/test_date_parsers.py, AntennaPod's DateUtilsTest): the weekday may be left off
/// or wrong, the seconds or the whole time left off, the month written in full or as "Sept", before the
/// day ("Thu Aug 30 2012"), with a stray comma ("13 Feb, 2012"); the year may have two digits ("01 Jan 70":
/// RFC 2822 §4.3, below 50 is 20xx, else 19xx — AntennaPod's feed-rss-testRss2Basic.xml); the offset may
/// have a colon ("+13:00"), follow "GMT" ("GMT-0400 (EDT)", a comment after it), or be a name of RFC 822's
/// or one of the European names feeds use (CET, MEST, BST). A date without a zone is UTC, as feedparser
/// reads it. Anything else — another language's month names, a zone name not listed — is no date rather
/// than a guess.
enum RFC822Date {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let fullMonths = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                     "october", "november", "december"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// Zone names, in minutes from UTC: RFC 822's, the short North American ones feedparser reads, and Europe's.
    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "etc/gmt": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420, "mdt": -360,
        "pst": -480, "pdt": -420, "at": -240, "et": -300, "ct": -360, "mt": -420, "pt": -480,
        "wet": 0, "west": 60, "bst": 60, "cet": 60, "cest": 120, "met": 60, "mest": 120, "eet": 120, "eest": 180,
    ]

    private static func month(_ token: String) -> Int? {
        (months.firstIndex(of: token) ?? fullMonths.firstIndex(of: token) ?? (token == "sept" ? 8 : nil)).map { $0 + 1 }
    }

    static func parse(_ text: String) -> Date? {
        // A comment ("(EDT)") says nothing the offset does not.
        let uncommented = text.replacingOccurrences(of: #"\([^)]*\)"#, with: " ", options: .regularExpression)
        var tokens = uncommented.replacingOccurrences(of: ",", with: " ").split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        if let first = tokens.first, weekdays.contains(where: { first.hasPrefix($0) }), first.allSatisfy(\.isLetter) { tokens.removeFirst() }
        if tokens.count >= 2, month(tokens[0]) != nil, Int(tokens[1]) != nil { tokens.swapAt(0, 1) }
        guard (3...5).contains(tokens.count), let day = Int(tokens[0]), (1...31).contains(day), let month = month(tokens[1]),
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
        return Timestamp.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    /// "+0100", "-0530", "+13:00", "GMT-04:00", or a zone name.
    private static func offsetSeconds(_ written: String) -> Int? {
        Timestamp.offsetSeconds(written.hasPrefix("gmt") && written.count > 3 ? String(written.dropFirst(3)) : written, names: zones)
    }
}
