import Foundation
import PostgresNIO
import SharedStore

/// The recordings index in a PostgreSQL database several daemons share: each entry as JSON, with
/// the columns it is looked up and ordered by.
public final class PostgresRecordingsIndex: RecordingsIndexing {
    public let database: SharedDatabase

    public init(database: SharedDatabase) throws(RecordingError) {
        self.database = database
        do {
            try database.migrate([
                ("recording-v1", [
                    """
                    CREATE TABLE recording (id BIGSERIAL PRIMARY KEY, file TEXT NOT NULL UNIQUE, station TEXT NOT NULL,
                                            start_utc TIMESTAMPTZ NOT NULL, record TEXT NOT NULL)
                    """,
                    "CREATE INDEX recording_start ON recording (start_utc)",
                ]),
                // Entries written before recordings could be kept say so, as the decoder needs.
                ("recording-v2-kept", [#"UPDATE recording SET record = jsonb_set(record::jsonb, '{kept}', 'false')::text"#]),
                // Counted per statement: a daemon's change is seen by every daemon's cached pages.
                ("recording-v3-revision", [
                    "CREATE TABLE recording_revision (id INT PRIMARY KEY CHECK (id = 1), revision BIGINT NOT NULL)",
                    "INSERT INTO recording_revision VALUES (1, 0)",
                    """
                    CREATE FUNCTION onair_recording_changed() RETURNS trigger LANGUAGE plpgsql
                    AS $$ BEGIN UPDATE recording_revision SET revision = revision + 1; RETURN NULL; END $$
                    """,
                    """
                    CREATE TRIGGER recording_changed AFTER INSERT OR UPDATE OR DELETE ON recording
                    FOR EACH STATEMENT EXECUTE FUNCTION onair_recording_changed()
                    """,
                ]),
            ])
        } catch {
            throw RecordingError("recordings index: \(error)")
        }
    }

    @discardableResult
    public func add(_ recording: FinishedRecording) throws(RecordingError) -> IndexedRecording {
        try access { session in
            let entry = IndexedRecording(recording)
            let record = try Self.record(entry)
            // Two daemons finishing the same journal (a takeover): the first entry stays.
            try session.query("""
                INSERT INTO recording (file, station, start_utc, record) VALUES (\(entry.file), \(entry.station), \(entry.startUTC), \(record))
                ON CONFLICT (file) DO NOTHING
                """)
            return try session.query("SELECT id, record FROM recording WHERE file = \(entry.file)").first.map(Self.entry)!
        }
    }

    public func revision() throws(RecordingError) -> Int64 {
        try access { session in try session.query("SELECT revision FROM recording_revision").first.map { try $0.decode(Int64.self) } ?? 0 }
    }

    public func all() throws(RecordingError) -> [IndexedRecording] {
        try access { session in try session.query("SELECT id, record FROM recording ORDER BY start_utc, id").map(Self.entry) }
    }

    public func recording(id: Int64) throws(RecordingError) -> IndexedRecording? {
        try access { session in try session.query("SELECT id, record FROM recording WHERE id = \(id)").first.map(Self.entry) }
    }

    public func remove(id: Int64) throws(RecordingError) -> IndexedRecording? {
        try access { session in try session.query("DELETE FROM recording WHERE id = \(id) RETURNING id, record").first.map(Self.entry) }
    }

    public func setKept(id: Int64, _ kept: Bool) throws(RecordingError) -> IndexedRecording? {
        try access { session in
            try session.query("""
                UPDATE recording SET record = jsonb_set(record::jsonb, '{kept}', to_jsonb(\(kept)::boolean))::text WHERE id = \(id) RETURNING id, record
                """).first.map(Self.entry)
        }
    }

    public func addGap(_ gap: TimedGap, toRecordingOf file: String) throws(RecordingError) {
        try access { session in
            guard var entry = try session.query("SELECT id, record FROM recording WHERE file = \(file) FOR UPDATE").first.map(Self.entry) else {
                return
            }
            entry.gaps = IndexedRecording.gaps(entry.gaps, adding: gap)
            try session.query("UPDATE recording SET record = \(try Self.record(entry)) WHERE id = \(entry.id!)")
        }
    }

    public func page(station: String?, programme: String?, limit: Int, offset: Int) throws(RecordingError)
        -> (total: Int, recordings: [RecordingListing]) {
        // PostgreSQL refuses a NUL in text, and no station or programme id holds one: such a filter
        // (an API query's) matches nothing, as in SQLite, rather than failing.
        guard ![station, programme].contains(where: { $0?.contains("\0") == true }) else { return (0, []) }
        return try access { session in
            // The programme is read from the entry's JSON: the table keeps as columns only what every lookup needs.
            let total = try session.query("""
                SELECT count(*) FROM recording WHERE (\(station)::text IS NULL OR station = \(station))
                AND (\(programme)::text IS NULL OR record::jsonb->>'programme' = \(programme))
                """).first.map { try $0.decode(Int.self) } ?? 0
            // The entry without its titles and gaps (a list needs only how many gaps), which the server drops.
            let page = try session.query("""
                SELECT id, jsonb_set(jsonb_set(record::jsonb, '{titles}', '[]'), '{gaps}', '[]')::text,
                jsonb_array_length(record::jsonb->'gaps') FROM recording
                WHERE (\(station)::text IS NULL OR station = \(station))
                AND (\(programme)::text IS NULL OR record::jsonb->>'programme' = \(programme))
                ORDER BY start_utc DESC, id DESC LIMIT \(limit) OFFSET \(offset)
                """).map { row in
                    let (id, record, gapCount) = try row.decode((Int64, String, Int).self)
                    var listing = try JSONDecoder().decode(IndexedRecording.self, from: Data(record.utf8)).listing
                    (listing.id, listing.gapCount) = (id, gapCount)
                    return listing
                }
            return (total, page)
        }
    }

    private func access<T>(_ body: (PostgresSession) throws -> T) throws(RecordingError) -> T {
        do {
            return try database.transaction(body)
        } catch {
            throw RecordingError("recordings index: \(error)")
        }
    }

    private static func record(_ entry: IndexedRecording) throws -> String {
        String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
    }

    private static func entry(_ row: PostgresRow) throws -> IndexedRecording {
        let (id, record) = try row.decode((Int64, String).self)
        var entry = try JSONDecoder().decode(IndexedRecording.self, from: Data(record.utf8))
        entry.id = id
        return entry
    }
}
