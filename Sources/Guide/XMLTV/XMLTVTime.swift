import Foundation
import RadioModel

/// XMLTV's time stamps. xmltv.dtd: "'YYYYMMDDhhmmss' or some initial substring … You can also append a
/// timezone to the end; if no explicit timezone is given, UT is assumed. Examples: '200007281733 BST',
/// '200209', '19880523083000 +0300'. (BST == +0100.)" So the seconds, minutes, hours, day and month may be
/// left off; the zone is an offset ("+0300", with a colon as some grabbers write it, or joined to the
/// digits: "20080715003000-0600") or a name. The names are those XMLTV's own grabbers and readers meet
/// (Date::Manip's, which XMLTV.pm parses with, less the ambiguous ones such as IST); another name makes
/// the time unreadable rather than guessed.
public enum XMLTVTime {
    /// Zone names, in minutes from UTC.
    private static let zones: [String: Int] = [
        "utc": 0, "ut": 0, "gmt": 0, "z": 0, "wet": 0, "west": 60, "bst": 60, "cet": 60, "cest": 120, "met": 60, "mest": 120,
        "eet": 120, "eest": 180, "msk": 180, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420, "mdt": -360,
        "pst": -480, "pdt": -420, "akst": -540, "akdt": -480, "hst": -600, "ast": -240, "adt": -180, "nst": -210, "ndt": -150,
        "jst": 540, "kst": 540, "hkt": 480, "sgt": 480, "awst": 480, "acst": 570, "acdt": 630, "aest": 600, "aedt": 660,
        "nzst": 720, "nzdt": 780,
    ]

    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = Array(trimmed.utf8.prefix { (48...57).contains($0) })
        guard [4, 6, 8, 10, 12, 14].contains(digits.count) else { return nil }
        let zone = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        func number(_ from: Int, _ length: Int, otherwise: Int) -> Int {
            from + length <= digits.count ? digits[from..<(from + length)].reduce(0) { $0 * 10 + Int($1 - 48) } : otherwise
        }
        let (year, month, day) = (number(0, 4, otherwise: 0), number(4, 2, otherwise: 1), number(6, 2, otherwise: 1))
        let (hour, minute, second) = (number(8, 2, otherwise: 0), number(10, 2, otherwise: 0), number(12, 2, otherwise: 0))
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let offset: Int
        if zone.isEmpty {
            offset = 0
        } else {
            guard let seconds = offsetSeconds(zone) else { return nil }
            offset = seconds
        }
        return Timestamp.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    /// "+0100", "-0530" (a colon is tolerated), or a zone name.
    static func offsetSeconds(_ text: String) -> Int? {
        Timestamp.offsetSeconds(text, names: zones)
    }
}
