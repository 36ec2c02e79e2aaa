import Foundation
import Guide
import RadioModel

/// A rule as `schedule list` shows it, and its next episode.
public struct RuleView: Encodable, Sendable {
    public var id: Int64
    public var station: String
    public var programme: String?
    public var when: String
    public var timeZone: String
    public var padBefore: String
    public var padAfter: String
    public var format: String
    public var output: String?
    public var splitTracks: Bool
    public var keep: Int?
    public var keepDays: Int?
    public var paused: Bool
    public var next: Date?
    public var nextLocal: String?

    public init(_ rule: ScheduleRule, next: Occurrence?) {
        id = rule.id ?? 0; station = rule.station; programme = rule.programme?.id; when = rule.whenText; timeZone = rule.timeZone
        padBefore = rule.padBefore.description; padAfter = rule.padAfter.description; format = rule.format; output = rule.output
        splitTracks = rule.splitTracks; keep = rule.keep; keepDays = rule.keepDays; paused = rule.paused
        self.next = next?.start
        nextLocal = next.map { ScheduleTimes.local($0.start, TimeZone(identifier: rule.timeZone) ?? .current) }
    }

    /// What retention keeps of the rule's episodes: "4", "30 days", "4, 30 days", "all".
    public var keepText: String {
        let limits = [keep.map(String.init), keepDays.map { "\($0) days" }].compactMap { $0 }
        return limits.isEmpty ? "all" : limits.joined(separator: ", ")
    }

    /// The rule's view with its next episode after `now` (a guide rule's from `guide`).
    public init(_ rule: ScheduleRule, after now: Date, guide: GuideStore?) {
        self.init(rule, next: (try? RuleExpansion(rule, guide: guide))?.occurrences(endingAfter: now, limit: 1).first)
    }
}

/// Dates as people read them in the schedule's output.
public enum ScheduleTimes {
    /// "2026-11-27 22:00:00 CET", or without the zone's abbreviation "2026-11-27 22:00:00".
    public static func local(_ date: Date, _ zone: TimeZone, withZone: Bool = true) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = withZone ? "yyyy-MM-dd HH:mm:ss zzz" : "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// "2026-11-27 21:00:00 UTC"
    public static func utc(_ date: Date) -> String {
        String(local(date, TimeZone(identifier: "UTC")!).dropLast(3)) + "UTC"
    }
}
