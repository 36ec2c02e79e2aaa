import Foundation
import PostgresNIO
import RadioModel
import SharedStore

/// The clip tables in the PostgreSQL database daemons share, migrated together whichever store opens them first.
private func migrateClipTables(_ database: SharedDatabase) throws(ClipError) {
    do {
        try database.migrate([
            ("clips-v1", [
                """
                CREATE TABLE clip (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, seconds DOUBLE PRECISION NOT NULL,
                                   fingerprint BYTEA NOT NULL, added_at TIMESTAMPTZ NOT NULL)
                """,
                """
                CREATE TABLE airing (id BIGSERIAL PRIMARY KEY, clip TEXT NOT NULL, kind TEXT NOT NULL, station TEXT NOT NULL,
                                     start_utc TIMESTAMPTZ NOT NULL, end_utc TIMESTAMPTZ NOT NULL, media_time DOUBLE PRECISION NOT NULL,
                                     clip_offset DOUBLE PRECISION NOT NULL, score DOUBLE PRECISION NOT NULL, partial BOOLEAN NOT NULL)
                """,
                "CREATE INDEX airing_start ON airing (start_utc)",
                // Counted per statement: every daemon sees a clip another added.
                "CREATE TABLE clip_revision (id INT PRIMARY KEY CHECK (id = 1), revision BIGINT NOT NULL)",
                "INSERT INTO clip_revision VALUES (1, 0)",
                """
                CREATE FUNCTION onair_clip_changed() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN UPDATE clip_revision SET revision = revision + 1; RETURN NULL; END $$
                """,
                "CREATE TRIGGER clip_changed AFTER INSERT OR UPDATE OR DELETE ON clip FOR EACH STATEMENT EXECUTE FUNCTION onair_clip_changed()",
            ]),
            ("clips-v2-learned", ["ALTER TABLE clip ADD COLUMN learned BOOLEAN NOT NULL DEFAULT false"]),
        ])
    } catch {
        throw ClipError("clips: \(error)")
    }
}

/// `body` in a transaction; a database failure is a `ClipError` with its words.
private func access<T>(_ database: SharedDatabase, _ body: (PostgresSession) throws -> T) throws(ClipError) -> T {
    do {
        return try database.transaction(body)
    } catch {
        throw ClipError("clips: \(error)")
    }
}

/// The reference clips in the database daemons share: a clip added on any of them is listened for by all.
public final class PostgresClipLibrary: ClipLibraryStorage {
    public let database: SharedDatabase

    public init(database: SharedDatabase) throws(ClipError) {
        self.database = database
        try migrateClipTables(database)
    }

    @discardableResult
    public func add(name: String, kind: ReferenceClip.Kind, seconds: Double, fingerprint: Fingerprint) throws(ClipError) -> ReferenceClip {
        let name = try ReferenceClip.checkedName(name)
        let id = try access(database) { session in
            try session.query("""
                INSERT INTO clip (name, kind, seconds, fingerprint, added_at) VALUES (\(name), \(kind.rawValue), \(seconds), \(fingerprint.data), \(Date()))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """).first.map { try $0.decode(Int64.self) }
        }
        guard let id else {
            throw ClipError("a clip named \"\(name)\" is already in the library (onair clips remove \"\(name)\" first)", reason: .nameTaken)
        }
        return ReferenceClip(id: id, name: name, kind: kind, seconds: seconds, fingerprint: fingerprint)
    }

    public func all() throws(ClipError) -> [ReferenceClip] {
        let rows = try access(database) { session in
            try session.query("SELECT id, name, kind, seconds, fingerprint, learned FROM clip ORDER BY id").map { try $0.decode(Row.self) }
        }
        return try rows.map(Self.clip)
    }

    public func remove(_ nameOrID: String) throws(ClipError) -> ReferenceClip? {
        let nameOrID = nameOrID.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !nameOrID.contains("\0") else { return nil }
        return try remove { session in
            try session.query("SELECT id FROM clip WHERE name = \(nameOrID) OR id::text = \(nameOrID) ORDER BY name = \(nameOrID) DESC LIMIT 1")
        }
    }

    public func remove(id: Int64) throws(ClipError) -> ReferenceClip? {
        try remove { session in try session.query("SELECT id FROM clip WHERE id = \(id)") }
    }

    public func learn(_ track: LearnedTrack, keepingAtMost most: Int) throws(ClipError) -> ReferenceClip? {
        guard (try? ReferenceClip.checkedName(track.title)) == track.title else { return nil }
        let id = try access(database) { session -> Int64? in
            guard let id = try session.query("""
                INSERT INTO clip (name, kind, seconds, fingerprint, added_at, learned)
                VALUES (\(track.title), 'song', \(track.seconds), \(track.fingerprint.data), \(Date()), true)
                ON CONFLICT (name) DO NOTHING RETURNING id
                """).first.map({ try $0.decode(Int64.self) }) else { return nil }
            try session.query("""
                DELETE FROM clip WHERE learned AND id NOT IN (SELECT id FROM clip WHERE learned ORDER BY id DESC LIMIT \(max(1, most)))
                """)
            return id
        }
        return id.map { ReferenceClip(id: $0, name: track.title, kind: .song, seconds: track.seconds, fingerprint: track.fingerprint, learned: true) }
    }

    public func revision() throws(ClipError) -> Int64 {
        try access(database) { session in try session.query("SELECT revision FROM clip_revision").first.map { try $0.decode(Int64.self) } ?? 0 }
    }

    private func remove(_ find: @escaping (PostgresSession) throws -> [PostgresRow]) throws(ClipError) -> ReferenceClip? {
        let row = try access(database) { session -> Row? in
            guard let id = try find(session).first.map({ try $0.decode(Int64.self) }) else { return nil }
            return try session.query("DELETE FROM clip WHERE id = \(id) RETURNING id, name, kind, seconds, fingerprint, learned").first
                .map { try $0.decode(Row.self) }
        }
        return try row.map(Self.clip)
    }

    /// id, name, kind, seconds, fingerprint, learned.
    private typealias Row = (Int64, String, String, Double, Data, Bool)

    private static func clip(_ row: Row) throws(ClipError) -> ReferenceClip {
        guard let kind = ReferenceClip.Kind(rawValue: row.2) else { throw ClipError("a clip of unknown kind \"\(row.2)\"") }
        return ReferenceClip(id: row.0, name: row.1, kind: kind, seconds: row.3, fingerprint: try Fingerprint(data: row.4), learned: row.5)
    }
}

/// The airings heard by every daemon sharing the database.
public final class PostgresAiringLog: AiringStorage {
    public let database: SharedDatabase

    public init(database: SharedDatabase) throws(ClipError) {
        self.database = database
        try migrateClipTables(database)
    }

    public func add(_ sighting: ClipSighting) throws(ClipError) {
        try access(database) { session in
            _ = try session.query("""
                INSERT INTO airing (clip, kind, station, start_utc, end_utc, media_time, clip_offset, score, partial)
                VALUES (\(sighting.clip), \(sighting.kind), \(sighting.station), \(sighting.start), \(sighting.end), \(sighting.mediaTime),
                        \(sighting.offset), \(sighting.score), \(sighting.partial))
                """)
        }
    }

    public func airings(clip: String?, kind: String?, station: String?, since: Date?, until: Date?, limit: Int?) throws(ClipError) -> [ClipSighting] {
        // No clip, kind or station holds a NUL, which PostgreSQL refuses in text: such a filter matches nothing.
        guard ![clip, kind, station].contains(where: { $0?.contains("\0") == true }) else { return [] }
        let limit = limit.map { max(0, $0) } ?? Int.max
        return try access(database) { session in
            try session.query("""
                SELECT clip, kind, station, start_utc, end_utc, media_time, clip_offset, score, partial FROM (
                  SELECT * FROM airing WHERE (\(clip)::text IS NULL OR clip = \(clip)) AND (\(kind)::text IS NULL OR kind = \(kind))
                  AND (\(station)::text IS NULL OR station = \(station)) AND (\(since)::timestamptz IS NULL OR start_utc >= \(since))
                  AND (\(until)::timestamptz IS NULL OR start_utc < \(until))
                  ORDER BY start_utc DESC, id DESC LIMIT \(limit)) AS newest ORDER BY start_utc, id
                """).map { row in
                let (clip, kind, station, start, end, mediaTime, offset, score, partial) =
                    try row.decode((String, String, String, Date, Date, Double, Double, Double, Bool).self)
                return ClipSighting(clip: clip, kind: kind, station: station, start: start, end: end, mediaTime: mediaTime, offset: offset,
                                    score: score, partial: partial)
            }
        }
    }
}
