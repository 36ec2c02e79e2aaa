import Foundation
import Guide

/// A broadcast still to come (or under way), for `onair schedule next` and `onair status`.
public struct UpcomingEpisode: Codable, Sendable, Equatable {
    public var rule: Int64
    public var station: String
    public var programme: String?
    /// For a guide rule: the broadcast's sub-title and episode number, as the guide gives them.
    public var episodeTitle: String?
    public var episodeNumber: String?
    public var start: Date
    public var end: Date
    /// The recorded window, with pads.
    public var windowStart: Date
    public var windowEnd: Date
    public var timeZone: String
    /// Start and end on the rule's wall clock: "2026-11-27T22:00:00+00:00".
    public var startLocal: String
    public var endLocal: String
}

public enum UpcomingEpisodes {
    /// The next `count` broadcasts of the active rules, in order of start, whose window ends after `instant`.
    public static func next(_ count: Int, of rules: [ScheduleRule], after instant: Date, guide: GuideStore? = nil) -> [UpcomingEpisode] {
        var all: [UpcomingEpisode] = []
        for rule in rules where !rule.paused {
            guard let expansion = try? RuleExpansion(rule, guide: guide), let zone = TimeZone(identifier: rule.timeZone) else { continue }
            for occurrence in expansion.occurrences(endingAfter: instant, limit: count) {
                all.append(UpcomingEpisode(rule: rule.id ?? 0, station: rule.station, programme: occurrence.broadcast?.title ?? rule.programme?.name,
                                           episodeTitle: occurrence.broadcast?.subTitle, episodeNumber: occurrence.broadcast?.episode,
                                           start: occurrence.start, end: occurrence.end, windowStart: occurrence.window.start,
                                           windowEnd: occurrence.window.end, timeZone: rule.timeZone,
                                           startLocal: local(occurrence.start, zone), endLocal: local(occurrence.end, zone)))
            }
        }
        return Array(all.sorted { ($0.windowStart, $0.rule) < ($1.windowStart, $1.rule) }.prefix(count))
    }

    static func local(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
