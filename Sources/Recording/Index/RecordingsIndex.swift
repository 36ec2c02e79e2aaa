import Foundation
import GRDB
import Store

/// A recording as the index holds it: the finished recording and its row id.
public struct IndexedRecording: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "recording"

    public var id: Int64?
    public var station: String
    public var stationName: String
    public var programme: String?
    public var programmeName: String?
    /// The broadcast's own title, description and episode number, from a programme guide.
    public var episodeTitle: String?
    public var episodeDescription: String?
    public var episodeNumber: String?
    public var startUTC: Date
    public var endUTC: Date
    public var startLocal: String
    public var endLocal: String
    public var timeZone: String
    public var file: String
    public var cueSheet: String?
    public var size: Int64
    public var duration: Double
    public var codec: String
    public var container: String
    /// JSON in the database (GRDB stores nested Codable values as JSON text).
    public var titles: [TimedTitle]
    public var gaps: [TimedGap]
    /// The known clips heard in it; nil for recordings indexed before onair told them.
    public var clips: [TimedClip]?
    public var source: String
    /// "cut-at-start" / "cut-at-end" for a track cut by the recording's start or end.
    public var partial: String?
    /// EBU R128 integrated loudness, LUFS (also in the file's ReplayGain or R128 tag, except in raw ADTS and WAV).
    public var loudness: Double?
    /// Marked to keep (`onair recordings keep`): retention never deletes it.
    public var kept = false

    public init(_ recording: FinishedRecording) {
        station = recording.station.id
        stationName = recording.station.name
        programme = recording.programme?.id
        programmeName = recording.programme?.name
        episodeTitle = recording.programme?.episodeTitle
        episodeDescription = recording.programme?.description
        episodeNumber = recording.programme?.episodeNumber
        startUTC = recording.start
        endUTC = recording.end
        startLocal = recording.startLocal
        endLocal = recording.endLocal
        timeZone = recording.timeZone
        file = recording.file
        cueSheet = recording.cueSheet
        size = recording.size
        duration = recording.duration
        codec = recording.codec
        container = recording.container
        titles = recording.titles
        gaps = recording.gaps
        clips = recording.clips
        source = recording.source
        partial = recording.track.flatMap { $0.completeness == .whole ? nil : $0.completeness.rawValue }
        loudness = recording.loudness
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// `gaps` with `gap` in its place by time; one already noted at the same place is not noted twice.
    static func gaps(_ gaps: [TimedGap], adding gap: TimedGap) -> [TimedGap] {
        guard !gaps.contains(where: { abs($0.at - gap.at) < 0.001 }) else { return gaps }
        return (gaps + [gap]).sorted { $0.at < $1.at }
    }

    /// Deletes the recording's file and cue sheet from disk; one already gone is no error. With `folder`
    /// (a request from the network), a file that is not inside that folder, symbolic links resolved, is
    /// left alone and the deletion refused: such a request never removes a file elsewhere on the box.
    public func deleteFiles(inside folder: URL? = nil) throws(RecordingError) {
        let files = [file, cueSheet].compactMap { $0 }
        if let folder {
            let root = folder.resolvingSymlinksInPath().standardizedFileURL.path + "/"
            for file in files where !URL(fileURLWithPath: file).resolvingSymlinksInPath().standardizedFileURL.path.hasPrefix(root) {
                throw RecordingError("\(URL(fileURLWithPath: file).lastPathComponent) is outside the recordings folder: "
                                     + "only `onair recordings remove` on the box deletes it")
            }
        }
        for file in files where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw RecordingError("cannot remove \(file): \(error.localizedDescription)")
            }
        }
    }
}

/// The recordings index, one entry per finished recording, wherever it is kept: `RecordingsIndex`
/// (the SQLite file) or `PostgresRecordingsIndex` (shared by several daemons).
public protocol RecordingsIndexing: Sendable {
    /// Adds a finished recording; one already indexed under the same file keeps its entry.
    @discardableResult
    func add(_ recording: FinishedRecording) throws(RecordingError) -> IndexedRecording
    /// Every recording, oldest first.
    func all() throws(RecordingError) -> [IndexedRecording]
    func recording(id: Int64) throws(RecordingError) -> IndexedRecording?
    /// Forgets a recording; returns what it was.
    func remove(id: Int64) throws(RecordingError) -> IndexedRecording?
    /// Marks a recording kept (retention never deletes it) or not; returns it, nil if there is none.
    func setKept(id: Int64, _ kept: Bool) throws(RecordingError) -> IndexedRecording?
    /// Notes a gap in the recording of `file` that its finaliser could not see: the time between an
    /// episode's parts (a daemon stopped or died mid-window), at the start of the later part.
    func addGap(_ gap: TimedGap, toRecordingOf file: String) throws(RecordingError)
    /// One page of the recordings of a station or programme (nil: any), newest first, and how many
    /// there are in all: what a list on a screen shows, without reading the whole index.
    func page(station: String?, programme: String?, limit: Int, offset: Int) throws(RecordingError)
        -> (total: Int, recordings: [RecordingListing])
    /// A number that changes whenever an entry is added, changed or removed, by this daemon or another (a
    /// trigger in the database counts): a page read after reading it is at least that new, so what was made
    /// of a page can be reused while the number stays.
    func revision() throws(RecordingError) -> Int64
}

/// The recordings index in the `recording` table of onair's SQLite database.
/// Safe to use from any thread; GRDB serialises access.
public final class RecordingsIndex: RecordingsIndexing {
    public let database: OnairDatabase

    /// Opens the index in `database`, creating its table if needed.
    public init(database: OnairDatabase) throws(RecordingError) {
        self.database = database
        do {
            try database.migrate(Self.registerMigrations)
        } catch {
            throw RecordingError("recordings index: \(error)")
        }
    }

    /// Opens onair's database in `directory` and the index in it.
    public convenience init(directory: URL) throws(RecordingError) {
        do {
            try self.init(database: try OnairDatabase(directory: directory))
        } catch let error as RecordingError {
            throw error
        } catch {
            throw RecordingError("recordings index: \(error)")
        }
    }

    /// Adds a finished recording; one already indexed under the same file keeps its entry.
    @discardableResult
    public func add(_ recording: FinishedRecording) throws(RecordingError) -> IndexedRecording {
        try access { db in
            if let existing = try IndexedRecording.filter(Column("file") == recording.file).fetchOne(db) { return existing }
            var entry = IndexedRecording(recording)
            try entry.insert(db)
            return entry
        }
    }

    /// Every recording, oldest first.
    public func all() throws(RecordingError) -> [IndexedRecording] {
        try access { db in try IndexedRecording.order(Column("startUTC"), Column("id")).fetchAll(db) }
    }

    public func page(station: String? = nil, programme: String? = nil, limit: Int, offset: Int) throws(RecordingError)
        -> (total: Int, recordings: [RecordingListing]) {
        try access { db in
            var chosen = IndexedRecording.all()
            if let station { chosen = chosen.filter(Column("station") == station) }
            if let programme { chosen = chosen.filter(Column("programme") == programme) }
            let total = try chosen.fetchCount(db)
            let page = try chosen.select(RecordingListing.selection, as: RecordingListing.self)
                .order(Column("startUTC").desc, Column("id").desc).limit(limit, offset: offset).fetchAll(db)
            return (total, page)
        }
    }

    public func recording(id: Int64) throws(RecordingError) -> IndexedRecording? {
        try access { db in try IndexedRecording.fetchOne(db, key: id) }
    }

    public func revision() throws(RecordingError) -> Int64 {
        do {
            return try database.read { db in try Int64.fetchOne(db, sql: "SELECT revision FROM recording_revision") ?? 0 }
        } catch {
            throw RecordingError("recordings index: \(error)")
        }
    }

    /// Forgets a recording; returns what it was.
    public func remove(id: Int64) throws(RecordingError) -> IndexedRecording? {
        try access { db in
            guard let entry = try IndexedRecording.fetchOne(db, key: id) else { return nil }
            try entry.delete(db)
            return entry
        }
    }

    public func setKept(id: Int64, _ kept: Bool) throws(RecordingError) -> IndexedRecording? {
        try access { db in
            guard var entry = try IndexedRecording.fetchOne(db, key: id) else { return nil }
            entry.kept = kept
            try entry.update(db)
            return entry
        }
    }

    public func addGap(_ gap: TimedGap, toRecordingOf file: String) throws(RecordingError) {
        try access { db in
            guard var entry = try IndexedRecording.filter(Column("file") == file).fetchOne(db) else { return }
            entry.gaps = IndexedRecording.gaps(entry.gaps, adding: gap)
            try entry.update(db)
        }
    }

    private func access<T>(_ body: (Database) throws -> T) throws(RecordingError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw RecordingError("recordings index: \(error)")
        }
    }

    private static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("recording-v1") { db in
            try db.create(table: IndexedRecording.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("station", .text).notNull().indexed()
                t.column("stationName", .text).notNull()
                t.column("programme", .text).indexed()
                t.column("programmeName", .text)
                t.column("startUTC", .datetime).notNull().indexed()
                t.column("endUTC", .datetime).notNull()
                t.column("startLocal", .text).notNull()
                t.column("endLocal", .text).notNull()
                t.column("timeZone", .text).notNull()
                t.column("file", .text).notNull().unique()
                t.column("cueSheet", .text)
                t.column("size", .integer).notNull()
                t.column("duration", .double).notNull()
                t.column("codec", .text).notNull()
                t.column("container", .text).notNull()
                t.column("titles", .jsonText).notNull()
                t.column("gaps", .jsonText).notNull()
                t.column("source", .text).notNull()
                t.column("partial", .text)
            }
        }
        migrator.registerMigration("recording-v2-guide") { db in
            try db.alter(table: IndexedRecording.databaseTableName) { t in
                t.add(column: "episodeTitle", .text)
                t.add(column: "episodeDescription", .text)
                t.add(column: "episodeNumber", .text)
            }
        }
        migrator.registerMigration("recording-v3-loudness") { db in
            try db.alter(table: IndexedRecording.databaseTableName) { t in
                t.add(column: "loudness", .double)
            }
        }
        migrator.registerMigration("recording-v4-kept") { db in
            try db.alter(table: IndexedRecording.databaseTableName) { t in
                t.add(column: "kept", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("recording-v5-revision") { db in
            try db.execute(sql: OnairDatabase.revisionCounter(for: IndexedRecording.databaseTableName))
        }
        migrator.registerMigration("recording-v6-clips") { db in
            try db.alter(table: IndexedRecording.databaseTableName) { t in
                t.add(column: "clips", .jsonText)
            }
        }
    }
}
