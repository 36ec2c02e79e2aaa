import Foundation

/// One line of `onair guide`: a broadcast, its times on the station's clock, and its details in the
/// station's language.
public struct GuideEntry: Codable, Sendable, Equatable {
    public var channel: String
    public var station: String?
    public var start: Date
    public var stop: Date
    /// On the listing's clock: "2026-11-24T20:00:00+01:00".
    public var startLocal: String
    public var stopLocal: String
    public var title: String
    public var subTitle: String?
    public var description: String?
    public var episode: String?
    public var categories: [String]
    /// On air at the moment of listing.
    public var onAir: Bool
}

/// What is on: a day's broadcasts of a channel, read in a time zone and a language.
public enum GuideListing {
    /// The local day `text` names in `zone`: "today" (also when nil), "tomorrow", "yesterday" or YYYY-MM-DD.
    public static func day(_ text: String?, in zone: TimeZone, now: Date = Date()) -> DateInterval? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start: Date
        switch text?.lowercased() ?? "today" {
        case "today": start = calendar.startOfDay(for: now)
        case "tomorrow": start = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))!
        case "yesterday": start = calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now))!
        case let date:
            let parts = date.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                  let found = calendar.date(from: DateComponents(year: year, month: month, day: day)),
                  calendar.component(.day, from: found) == day else { return nil }
            start = found
        }
        return DateInterval(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!)
    }

    public static func entries(_ broadcasts: [GuideBroadcast], station: String?, zone: TimeZone, language: String?,
                               now: Date = Date()) -> [GuideEntry] {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return broadcasts.map { broadcast in
            let details = broadcast.details(language: language)
            return GuideEntry(channel: broadcast.channel, station: station, start: broadcast.start, stop: broadcast.stop,
                              startLocal: formatter.string(from: broadcast.start), stopLocal: formatter.string(from: broadcast.stop),
                              title: details.title, subTitle: details.subTitle, description: details.description, episode: details.episode,
                              categories: broadcast.categories.all(preferring: language),
                              onAir: broadcast.start <= now && now < broadcast.stop)
        }
    }
}

extension GuideStore {
    /// What is on a channel during `day`: its broadcasts as `GuideListing.entries` shows them.
    public func listing(channel: String, station: String?, day: DateInterval, zone: TimeZone, language: String?,
                        now: Date = Date()) throws(GuideError) -> [GuideEntry] {
        GuideListing.entries(try broadcasts(channel: channel, overlapping: day), station: station, zone: zone, language: language, now: now)
    }
}
