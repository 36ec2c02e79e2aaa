import Foundation
import RadioModel

/// When `--until` ends a recording: a time of day "HH:MM[:SS]" (its next occurrence) or an ISO 8601
/// date, in the given time zone unless the date names its own.
enum RecordingDeadline {
    static func parse(_ text: String, timeZone: TimeZone, now: Date = Date()) -> Date? {
        if let date = Timestamp.parse(text, timeZone: timeZone) { return date }
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
        guard second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // The next such moment: today's if it is still ahead, else tomorrow's (DST-safe through the calendar).
        return calendar.nextDate(after: now, matching: DateComponents(hour: hour, minute: minute, second: second),
                                 matchingPolicy: .nextTime)
    }
}
