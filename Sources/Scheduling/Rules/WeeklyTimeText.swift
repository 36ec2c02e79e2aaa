import RadioModel

/// A weekly time typed by hand: "fri 22:00", "mon-fri 06:30", "sat,sun 10:00", "daily 07:00".
public enum WeeklyTimeText {
    public static func parse(_ text: String) throws(ScheduleError) -> (days: [Weekday], time: ClockTime) {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        guard words.count == 2, let time = ClockTime(String(words[1])) else {
            throw ScheduleError("invalid --at '\(text)': use days and a time, like 'fri 22:00', 'mon-fri 06:30' or 'sat,sun 10:00'")
        }
        if words[0] == "daily" { return (Weekday.allCases, time) }
        var days: [Weekday] = []
        for item in words[0].split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { Weekday(rawValue: String($0.prefix(3))) }
            guard (1...2).contains(ends.count), let first = ends.first!, let last = ends.last! else {
                throw ScheduleError("invalid days '\(words[0])' in --at: use mon tue wed thu fri sat sun, ranges (mon-fri) or lists (sat,sun)")
            }
            let all = Weekday.allCases
            var index = all.firstIndex(of: first)!
            // A range may wrap past Sunday: fri-mon.
            while true {
                if !days.contains(all[index]) { days.append(all[index]) }
                if all[index] == last { break }
                index = (index + 1) % all.count
            }
        }
        return (days, time)
    }
}
