import Foundation
import Guide
import RadioModel
import Recording

/// A rule as a person asks for it — words and spans as typed — checked and turned into a
/// `ScheduleRule` with its next episode: what `onair schedule add` (and an API) hands in.
public struct RuleRequest: Sendable {
    /// A catalogue station id, or a URL.
    public var station: String
    /// One way to say when: the guide's broadcasts by title or series, a catalogue programme, weekly
    /// days and a time, one date-time, or cron.
    public var title: String?
    public var series: String?
    public var programme: String?
    public var at: String?
    public var on: String?
    public var cron: String?
    /// How long each episode lasts (not with a programme, whose broadcasts have their length).
    public var duration: String?
    /// An IANA zone; default the station's, else this machine's.
    public var timeZone: String?
    public var padBefore = "0s"
    public var padAfter = "0s"
    public var format = RecordingFormat.copy
    public var output: String?
    public var splitTracks = false
    public var keep: Int?
    public var keepDays: Int?

    public init(station: String) { self.station = station }

    /// The rule and its next episode. `catalogueStation` is the station from the catalogue, nil for a URL;
    /// `guide` is where a title or series rule finds its broadcasts.
    public func rule(catalogueStation: Station?, guide: GuideStore?, now: Date = Date()) throws(ScheduleError)
        -> (rule: ScheduleRule, next: Occurrence) {
        let zone = timeZone ?? catalogueStation?.timeZone ?? TimeZone.current.identifier
        guard TimeZone(identifier: zone) != nil else {
            throw ScheduleError("unknown time zone '\(zone)': use an IANA name like Europe/London or UTC")
        }
        if let keepDays, keepDays < 1 { throw ScheduleError("keep-days must be at least 1 (a number of days)") }
        if let output {
            do { _ = try FileNameTemplate(output) } catch { throw ScheduleError("\(error)") }
        }
        var label: ProgrammeLabel?
        let timing: RuleTiming
        if title != nil || series != nil {
            guard let guide else { throw ScheduleError("a title or series rule needs an imported guide (onair guide import)") }
            timing = try .guide(guide, station: catalogueStation?.id ?? station, guideID: catalogueStation?.guideID,
                                language: catalogueStation?.language, titlePattern: title, series: series)
        } else if let programme {
            guard let entry = catalogueStation else { throw ScheduleError("--programme needs a station from the catalogue, not a URL") }
            let found: Programme
            do { found = try entry.programme(id: programme) } catch { throw ScheduleError(error.description) }
            label = ProgrammeLabel(id: found.id, name: found.name)
            timing = .weekly(found.slots)
        } else {
            let length = try Self.span(duration ?? "", "--for")
            guard length.seconds > 0 else { throw ScheduleError("--for must be longer than 0 s") }
            if let at {
                let (days, time) = try WeeklyTimeText.parse(at)
                timing = .weekly([BroadcastSlot(days: days, start: time, duration: length)])
            } else if let on {
                guard let local = LocalDateTime(on) else {
                    throw ScheduleError("invalid --on '\(on)': use a local date and time like 2026-12-24T18:00")
                }
                timing = .once(local, duration: length)
            } else {
                timing = .cron(try CronExpression(cron ?? ""), duration: length)
            }
        }
        let rule = ScheduleRule(station: station, programme: label, timing: timing, timeZone: zone,
                                padBefore: try Self.span(padBefore, "--pad-before"), padAfter: try Self.span(padAfter, "--pad-after"),
                                format: format.rawValue, output: output, splitTracks: splitTracks, keep: keep,
                                keepDays: keepDays)
        guard let next = try RuleExpansion(rule, guide: guide).occurrences(endingAfter: now, limit: 1).first else {
            throw ScheduleError("the rule has no future episode (\(rule.whenText) in \(zone) is over)")
        }
        return (rule, next)
    }

    private static func span(_ text: String, _ name: String) throws(ScheduleError) -> TimeSpan {
        guard let value = TimeSpan(text) else { throw ScheduleError("invalid \(name) '\(text)': use seconds or a span like 90s, 45m, 2h") }
        return value
    }
}
