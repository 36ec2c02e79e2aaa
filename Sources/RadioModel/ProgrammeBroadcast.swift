import Foundation

extension Programme {
    /// The broadcast on air at `date`, if any, in the station's `timeZone`. A slot that runs past
    /// midnight belongs to the day it starts.
    public func broadcast(containing date: Date, timeZone: TimeZone) -> DateInterval? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: date)
        for slot in slots {
            // Today's start, and yesterday's for slots still running after midnight.
            for dayOffset in [0, -1] {
                guard let day = calendar.date(byAdding: .day, value: dayOffset, to: today),
                      slot.days.contains(Weekday(calendarWeekday: calendar.component(.weekday, from: day))),
                      let start = calendar.date(bySettingHour: slot.start.hour, minute: slot.start.minute, second: 0, of: day)
                else { continue }
                let interval = DateInterval(start: start, duration: slot.duration.seconds)
                if interval.start <= date, date < interval.end { return interval }
            }
        }
        return nil
    }
}

extension Weekday {
    /// From `Calendar`'s numbering: 1 is Sunday.
    public init(calendarWeekday: Int) {
        self = [.sun, .mon, .tue, .wed, .thu, .fri, .sat][(calendarWeekday - 1) % 7]
    }
}
