import Foundation
import PostgresNIO
import SharedStore

/// The schedule's tables in a PostgreSQL database several daemons share. Each row keeps the record
/// as JSON beside the columns that are queried, claimed or locked (`status`, the window, the station,
/// and the lease's `daemon` and `epoch`, which `PostgresEpisodeLeases` owns).
public final class PostgresScheduleStore: ScheduleStorage {
    public let database: SharedDatabase

    public init(database: SharedDatabase) throws(ScheduleError) {
        self.database = database
        do {
            try database.migrate(Self.migrations)
        } catch {
            throw ScheduleError("schedule: \(error)")
        }
    }

    // MARK: Rules

    public func add(_ rule: ScheduleRule) throws(ScheduleError) -> ScheduleRule {
        try access { session in
            let id = try session.query("""
                INSERT INTO rule (paused, record) VALUES (\(rule.paused), \(try Self.json(rule))) RETURNING id
                """).first!.decode(Int64.self)
            try Self.noteRuleChange(session)
            var saved = rule
            saved.id = id
            return saved
        }
    }

    public func rules() throws(ScheduleError) -> [ScheduleRule] {
        try access { session in try session.query("SELECT id, record FROM rule ORDER BY id").map(Self.rule) }
    }

    public func rule(id: Int64) throws(ScheduleError) -> ScheduleRule? {
        try access { session in try session.query("SELECT id, record FROM rule WHERE id = \(id)").first.map(Self.rule) }
    }

    public func remove(ruleID: Int64) throws(ScheduleError) -> ScheduleRule? {
        try access { session in
            let removed = try session.query("DELETE FROM rule WHERE id = \(ruleID) RETURNING id, record").first.map(Self.rule)
            try Self.noteRuleChange(session)
            return removed
        }
    }

    public func setPaused(ruleID: Int64, _ paused: Bool) throws(ScheduleError) -> ScheduleRule? {
        try access { session in
            guard var rule = try session.query("SELECT id, record FROM rule WHERE id = \(ruleID) FOR UPDATE").first.map(Self.rule) else {
                return nil
            }
            rule.paused = paused
            try session.query("UPDATE rule SET paused = \(paused), record = \(try Self.json(rule)) WHERE id = \(ruleID)")
            try Self.noteRuleChange(session)
            return rule
        }
    }

    // MARK: Episodes

    @discardableResult
    public func episodes(of due: [DueOccurrence], creatingAs status: EpisodeStatus, reason: String?) throws(ScheduleError) -> [Episode] {
        guard !due.isEmpty else { return [] }
        return try access { session in
            try due.map { due in
                let episode = Episode(ruleID: due.rule.id!, station: due.rule.station, occurrence: due.occurrence, status: status, reason: reason)
                // Several daemons create the same due episode at once: the first insert wins, the others read it.
                try session.query("""
                    INSERT INTO episode (rule_id, station, programme_start, window_start, window_end, status, updated_at, record)
                    VALUES (\(episode.ruleID), \(episode.station), \(episode.programmeStart), \(episode.windowStart), \(episode.windowEnd),
                            \(episode.status.rawValue), \(episode.updatedAt), \(try Self.json(episode)))
                    ON CONFLICT (rule_id, programme_start) DO NOTHING
                    """)
                return try session.query("""
                    SELECT id, record FROM episode WHERE rule_id = \(episode.ruleID) AND programme_start = \(episode.programmeStart)
                    """).first.map(Self.episode)!
            }
        }
    }

    public func episodes(status: EpisodeStatus) throws(ScheduleError) -> [Episode] {
        try access { session in
            try session.query("SELECT id, record FROM episode WHERE status = \(status.rawValue) ORDER BY window_start, id").map(Self.episode)
        }
    }

    public func episodes(ruleID: Int64?, limit: Int) throws(ScheduleError) -> [Episode] {
        try access { session in
            try session.query("""
                SELECT id, record FROM episode WHERE \(ruleID == nil) OR rule_id = \(ruleID ?? 0)
                ORDER BY window_start DESC, id DESC LIMIT \(limit)
                """).map(Self.episode)
        }
    }

    public func episode(id: Int64) throws(ScheduleError) -> Episode? {
        try access { session in try session.query("SELECT id, record FROM episode WHERE id = \(id)").first.map(Self.episode) }
    }

    public func update(_ episodes: [Episode]) throws(ScheduleError) {
        guard !episodes.isEmpty else { return }
        try access { session in for episode in episodes { try Self.write(episode, session) } }
    }

    @discardableResult
    public func updateEpisode(id: Int64, _ change: (inout Episode) -> Void) throws(ScheduleError) -> Episode? {
        try access { session in
            guard var episode = try session.query("SELECT id, record FROM episode WHERE id = \(id) FOR UPDATE").first.map(Self.episode) else {
                return nil
            }
            change(&episode)
            return try Self.write(episode, session)
        }
    }

    /// Writes the episode, stamping the time of the change.
    @discardableResult
    private static func write(_ episode: Episode, _ session: PostgresSession) throws -> Episode {
        var changed = episode
        changed.updatedAt = Date()
        try session.query("""
            UPDATE episode SET status = \(changed.status.rawValue), updated_at = \(changed.updatedAt), record = \(try json(changed))
            WHERE id = \(changed.id!)
            """)
        return changed
    }

    public func delete(_ episode: Episode) throws(ScheduleError) {
        try access { session in try session.query("DELETE FROM episode WHERE id = \(episode.id!)") }
    }

    public func recentFailures(limit: Int) throws(ScheduleError) -> [Episode] {
        try access { session in
            try session.query("""
                SELECT id, record FROM episode WHERE status IN ('failed', 'missed') ORDER BY updated_at DESC LIMIT \(limit)
                """).map(Self.episode)
        }
    }

    public func changeCounter() throws(ScheduleError) -> Int {
        try access { session in try Int(session.query("SELECT changes FROM rule_changes").first!.decode(Int64.self)) }
    }

    // MARK: Rows

    @discardableResult
    private func access<T>(_ body: (PostgresSession) throws -> T) throws(ScheduleError) -> T {
        do {
            return try database.transaction(body)
        } catch {
            throw ScheduleError("schedule: \(error)")
        }
    }

    private static func noteRuleChange(_ session: PostgresSession) throws {
        try session.query("UPDATE rule_changes SET changes = changes + 1")
    }

    static func json<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    private static func rule(_ row: PostgresRow) throws -> ScheduleRule {
        let (id, record) = try row.decode((Int64, String).self)
        var rule = try JSONDecoder().decode(ScheduleRule.self, from: Data(record.utf8))
        rule.id = id
        return rule
    }

    static func episode(_ row: PostgresRow) throws -> Episode {
        let (id, record) = try row.decode((Int64, String).self)
        var episode = try JSONDecoder().decode(Episode.self, from: Data(record.utf8))
        episode.id = id
        return episode
    }

    private static let migrations: [(identifier: String, statements: [PostgresQuery])] = [
        ("schedule-v1", [
            "CREATE TABLE rule (id BIGSERIAL PRIMARY KEY, paused BOOLEAN NOT NULL, record TEXT NOT NULL)",
            // What `changeCounter` reads: bumped by every change to the rules.
            "CREATE TABLE rule_changes (changes BIGINT NOT NULL)",
            "INSERT INTO rule_changes VALUES (0)",
            """
            CREATE TABLE episode (
                id BIGSERIAL PRIMARY KEY, rule_id BIGINT NOT NULL REFERENCES rule (id) ON DELETE CASCADE,
                station TEXT NOT NULL, programme_start TIMESTAMPTZ NOT NULL,
                window_start TIMESTAMPTZ NOT NULL, window_end TIMESTAMPTZ NOT NULL,
                status TEXT NOT NULL, updated_at TIMESTAMPTZ NOT NULL, record TEXT NOT NULL,
                daemon TEXT, epoch BIGINT,
                UNIQUE (rule_id, programme_start))
            """,
            "CREATE INDEX episode_status ON episode (status, window_start)",
        ]),
    ]
}
