import Foundation
import Guide
import RadioModel
import Recording

/// When a rule's programme is on, in the rule's own time zone.
public enum RuleTiming: Codable, Sendable, Equatable {
    /// Weekly broadcasts: a catalogue programme's slots, or one typed by hand ("mon-fri 06:30" for 2h).
    case weekly([BroadcastSlot])
    /// Once, at a local date and time.
    case once(LocalDateTime, duration: TimeSpan)
    /// A five-field cron expression; each match starts a broadcast of `duration`.
    case cron(CronExpression, duration: TimeSpan)
    /// The broadcasts a programme guide lists that match a title pattern or a series, at the times
    /// the guide gives (moved when it moves them).
    case guide(GuideSelection)
}

/// A date and time on a wall clock, without a zone: "2026-12-24T18:00" (seconds optional).
public struct LocalDateTime: Codable, Sendable, Equatable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        self.year = year; self.month = month; self.day = day; self.hour = hour; self.minute = minute; self.second = second
    }

    /// "YYYY-MM-DDTHH:MM[:SS]" (a space instead of the T is accepted).
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2, parts[0].count == 10 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { $0.count == 2 ? Int($0) : nil }
        guard date.count == 3, let y = date[0], let m = date[1], let d = date[2], (1...12).contains(m), (1...31).contains(d),
              (2...3).contains(time.count), let h = time[0], let mi = time[1], (0..<24).contains(h), (0..<60).contains(mi)
        else { return nil }
        let s = time.count == 3 ? time[2] : 0
        guard let s, (0..<60).contains(s) else { return nil }
        self.init(year: y, month: m, day: d, hour: h, minute: mi, second: s)
    }

    public var description: String {
        String(format: "%04d-%02d-%02dT%02d:%02d", year, month, day, hour, minute) + (second == 0 ? "" : String(format: ":%02d", second))
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = LocalDateTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a local date-time: \(text)"))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A scheduled recording rule as the user gave it: what to record, when, and how to keep it.
public struct ScheduleRule: Codable, Sendable, Equatable {
    public var id: Int64?
    /// A catalogue station id or a stream URL.
    public var station: String
    public var programme: ProgrammeLabel?
    public var timing: RuleTiming
    /// IANA name; times are computed in it, so a weekly 21:00 stays 21:00 local across DST changes.
    public var timeZone: String
    public var padBefore: TimeSpan
    public var padAfter: TimeSpan
    /// copy, mp3, m4a, opus, flac.
    public var format: String
    /// An output template; nil uses the recordings directory's default.
    public var output: String?
    public var splitTracks: Bool
    /// Keep the newest N episodes' files; nil keeps everything.
    public var keep: Int?
    /// Keep the episodes that finished less than D days ago; nil keeps them however old.
    public var keepDays: Int?
    public var paused: Bool
    public var createdAt: Date

    public init(id: Int64? = nil, station: String, programme: ProgrammeLabel? = nil, timing: RuleTiming, timeZone: String,
                padBefore: TimeSpan = TimeSpan(seconds: 0), padAfter: TimeSpan = TimeSpan(seconds: 0), format: String = "copy",
                output: String? = nil, splitTracks: Bool = false, keep: Int? = nil, keepDays: Int? = nil, paused: Bool = false,
                createdAt: Date = Date()) {
        self.id = id; self.station = station; self.programme = programme; self.timing = timing; self.timeZone = timeZone
        self.padBefore = padBefore; self.padAfter = padAfter; self.format = format; self.output = output
        self.splitTracks = splitTracks; self.keep = keep; self.keepDays = keepDays; self.paused = paused; self.createdAt = createdAt
    }

    /// "Fri 22:00–00:00 (2h)", "2026-12-24T18:00 (1h)", "cron 0 21 * * 1-5 (1h)".
    public var whenText: String {
        switch timing {
        case .weekly(let slots): return slots.map(\.description).joined(separator: "; ")
        case .once(let at, let duration): return "\(at) (\(duration))"
        case .cron(let expression, let duration): return "cron \(expression.text) (\(duration))"
        case .guide(let selection): return "guide: \(selection.description)"
        }
    }
}

extension RuleTiming {
    /// A guide rule for `station`: its broadcasts whose title matches `titlePattern`, or of `series`,
    /// on the channel the guide lists the station under (mapped by hand, else the station's `guideID`).
    public static func guide(_ guide: GuideStore, station: String, guideID: String?, language: String?,
                             titlePattern: String?, series: String?) throws(ScheduleError) -> RuleTiming {
        do throws(GuideError) {
            guard let channel = try guide.channel(forStation: station, guideID: guideID) else {
                throw GuideError("no imported guide lists \(station) (import one with onair guide import, then: onair guide map CHANNEL \(station))")
            }
            return .guide(try GuideSelection(channel: channel, titlePattern: titlePattern, series: series, language: language))
        } catch {
            throw ScheduleError(error.description)
        }
    }
}
