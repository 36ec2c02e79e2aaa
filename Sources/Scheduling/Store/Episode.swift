import Foundation
import GRDB
import Guide
import Recording
import RadioModel

/// Where an episode stands.
public enum EpisodeStatus: String, Codable, Sendable, CaseIterable {
    case scheduled, recording, done, failed, missed
}

/// One broadcast of a rule, once it is near enough to be recorded (or was missed).
public struct Episode: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "episode"

    public var id: Int64?
    public var ruleID: Int64
    public var station: String
    /// The programme's own times.
    public var programmeStart: Date
    public var programmeEnd: Date
    /// What is recorded: the programme with its pads.
    public var windowStart: Date
    public var windowEnd: Date
    public var status: EpisodeStatus
    /// Why it failed or was missed; notes such as "started late".
    public var reason: String?
    /// Started after its window opened (a restart, a clock jump).
    public var late: Bool
    /// Finished files of this episode (more than one after a restart, or with split tracks).
    public var files: [String]
    /// The stream's wall-clock time of the first sample recorded (HLS program-date-time, or arrival).
    public var firstSampleAt: Date?
    public var updatedAt: Date
    /// What the programme guide says of this broadcast, for a rule that follows a guide.
    public var broadcast: BroadcastDetails?

    public init(ruleID: Int64, station: String, occurrence: Occurrence, status: EpisodeStatus = .scheduled, reason: String? = nil) {
        self.ruleID = ruleID
        self.station = station
        programmeStart = occurrence.start
        programmeEnd = occurrence.end
        windowStart = occurrence.window.start
        windowEnd = occurrence.window.end
        self.status = status
        self.reason = reason
        late = false
        files = []
        updatedAt = Date()
        broadcast = occurrence.broadcast
    }

    public var window: DateInterval { DateInterval(start: windowStart, end: windowEnd) }

    /// How the recording names its programme: the guide's broadcast (title, sub-title, description,
    /// episode number), else the rule's catalogue programme.
    public func programme(of rule: ScheduleRule) -> ProgrammeLabel? {
        guard let broadcast else { return rule.programme }
        let slug = Slug.make(broadcast.title)
        return ProgrammeLabel(id: slug.isEmpty ? "guide-\(broadcast.channel)" : slug, name: broadcast.title,
                              episodeTitle: broadcast.subTitle, description: broadcast.description, episodeNumber: broadcast.episode)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension ScheduleRule: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "rule"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
