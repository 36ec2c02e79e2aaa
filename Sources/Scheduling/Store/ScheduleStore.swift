import Foundation
import GRDB
import Store

/// The schedule's tables in onair's database: `rule` (what the user asked for) and `episode` (each
/// broadcast once it is due, with its status and why). Safe from any thread; GRDB serialises access,
/// and the database's busy timeout lets `onair schedule` write while the daemon runs.
public final class ScheduleStore: ScheduleStorage {
    public let database: OnairDatabase

    public init(database: OnairDatabase) throws(ScheduleError) {
        self.database = database
        do {
            try database.migrate(Self.registerMigrations)
        } catch {
            throw ScheduleError("schedule: \(error)")
        }
    }

    // MARK: Rules

    public func add(_ rule: ScheduleRule) throws(ScheduleError) -> ScheduleRule {
        try access { db in
            var saved = rule
            try saved.insert(db)
            return saved
        }
    }

    /// Every rule, oldest first.
    public func rules() throws(ScheduleError) -> [ScheduleRule] {
        try access(write: false) { db in try ScheduleRule.order(Column("id")).fetchAll(db) }
    }

    public func rule(id: Int64) throws(ScheduleError) -> ScheduleRule? {
        try access(write: false) { db in try ScheduleRule.fetchOne(db, key: id) }
    }

    /// Removes a rule and its episodes' rows (finished files stay, and stay in the recordings index).
    public func remove(ruleID: Int64) throws(ScheduleError) -> ScheduleRule? {
        try access { db in
            guard let rule = try ScheduleRule.fetchOne(db, key: ruleID) else { return nil }
            try rule.delete(db)
            return rule
        }
    }

    /// Pauses or resumes a rule; nil if there is no such rule.
    public func setPaused(ruleID: Int64, _ paused: Bool) throws(ScheduleError) -> ScheduleRule? {
        try access { db in
            guard var rule = try ScheduleRule.fetchOne(db, key: ruleID) else { return nil }
            rule.paused = paused
            try rule.update(db)
            return rule
        }
    }

    // MARK: Episodes

    @discardableResult
    public func episodes(of due: [DueOccurrence], creatingAs status: EpisodeStatus, reason: String?) throws(ScheduleError) -> [Episode] {
        guard !due.isEmpty else { return [] }
        return try access { db in
            try due.map { due in
                if let existing = try Episode.filter(Column("ruleID") == due.rule.id! && Column("programmeStart") == due.occurrence.start)
                    .fetchOne(db) { return existing }
                var episode = Episode(ruleID: due.rule.id!, station: due.rule.station, occurrence: due.occurrence, status: status, reason: reason)
                try episode.insert(db)
                return episode
            }
        }
    }

    public func episodes(status: EpisodeStatus) throws(ScheduleError) -> [Episode] {
        try access(write: false) { db in
            try Episode.filter(Column("status") == status.rawValue).order(Column("windowStart"), Column("id")).fetchAll(db)
        }
    }

    /// Episodes, newest first; of one rule if given.
    public func episodes(ruleID: Int64?, limit: Int) throws(ScheduleError) -> [Episode] {
        try access(write: false) { db in
            var request = Episode.order(Column("windowStart").desc, Column("id").desc)
            if let ruleID { request = request.filter(Column("ruleID") == ruleID) }
            return try request.limit(limit).fetchAll(db)
        }
    }

    public func episode(id: Int64) throws(ScheduleError) -> Episode? {
        try access(write: false) { db in try Episode.fetchOne(db, key: id) }
    }

    public func update(_ episodes: [Episode]) throws(ScheduleError) {
        guard !episodes.isEmpty else { return }
        let stamp = Date()
        try access { db in
            for var changed in episodes {
                changed.updatedAt = stamp
                try changed.update(db)
            }
        }
    }

    @discardableResult
    public func updateEpisode(id: Int64, _ change: (inout Episode) -> Void) throws(ScheduleError) -> Episode? {
        try access { db in
            guard var episode = try Episode.fetchOne(db, key: id) else { return nil }
            change(&episode)
            episode.updatedAt = Date()
            try episode.update(db)
            return episode
        }
    }

    public func delete(_ episode: Episode) throws(ScheduleError) {
        _ = try access { db in try episode.delete(db) }
    }

    /// Failed and missed episodes, newest first.
    public func recentFailures(limit: Int) throws(ScheduleError) -> [Episode] {
        try access(write: false) { db in
            try Episode.filter([EpisodeStatus.failed.rawValue, EpisodeStatus.missed.rawValue].contains(Column("status")))
                .order(Column("updatedAt").desc).limit(limit).fetchAll(db)
        }
    }

    /// A number that changes whenever another process commits to the database: a cheap way for the
    /// daemon to notice `onair schedule` changes.
    public func changeCounter() throws(ScheduleError) -> Int {
        try access(write: false) { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    private func access<T>(write: Bool = true, _ body: (Database) throws -> T) throws(ScheduleError) -> T {
        do {
            return write ? try database.write(body) : try database.read(body)
        } catch {
            throw ScheduleError("schedule: \(error)")
        }
    }

    private static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("schedule-v1") { db in
            try db.create(table: ScheduleRule.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("station", .text).notNull()
                t.column("programme", .jsonText)
                t.column("timing", .jsonText).notNull()
                t.column("timeZone", .text).notNull()
                t.column("padBefore", .jsonText).notNull()
                t.column("padAfter", .jsonText).notNull()
                t.column("format", .text).notNull()
                t.column("output", .text)
                t.column("splitTracks", .boolean).notNull()
                t.column("keep", .integer)
                t.column("paused", .boolean).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: Episode.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("ruleID", .integer).notNull().indexed().references(ScheduleRule.databaseTableName, onDelete: .cascade)
                t.column("station", .text).notNull()
                t.column("programmeStart", .datetime).notNull()
                t.column("programmeEnd", .datetime).notNull()
                t.column("windowStart", .datetime).notNull().indexed()
                t.column("windowEnd", .datetime).notNull()
                t.column("status", .text).notNull().indexed()
                t.column("reason", .text)
                t.column("late", .boolean).notNull()
                t.column("files", .jsonText).notNull()
                t.column("firstSampleAt", .datetime)
                t.column("updatedAt", .datetime).notNull()
                t.uniqueKey(["ruleID", "programmeStart"])
            }
        }
        migrator.registerMigration("schedule-v2-guide") { db in
            try db.alter(table: Episode.databaseTableName) { t in t.add(column: "broadcast", .jsonText) }
        }
        migrator.registerMigration("schedule-v3-keep-days") { db in
            try db.alter(table: ScheduleRule.databaseTableName) { t in t.add(column: "keepDays", .integer) }
        }
    }
}
