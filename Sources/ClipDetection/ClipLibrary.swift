import Foundation
import GRDB
import Store

/// The reference clips in the data directory's SQLite file (`clips` migrations): each with its name, kind, length and
/// fingerprint. What `onair clips` edits and what the matchers are built from.
public final class ClipLibrary: ClipLibraryStorage {
    public let database: OnairDatabase

    public init(database: OnairDatabase) throws(ClipError) {
        self.database = database
        try database.migrateClipTables()
    }

    @discardableResult
    public func add(name: String, kind: ReferenceClip.Kind, seconds: Double, fingerprint: Fingerprint) throws(ClipError) -> ReferenceClip {
        let name = try ReferenceClip.checkedName(name)
        guard let id = try database.clipTables({ db in try Self.insert(name, kind, seconds, fingerprint, learned: false, db) }) else {
            throw ClipError("a clip named \"\(name)\" is already in the library (onair clips remove \"\(name)\" first)", reason: .nameTaken)
        }
        return ReferenceClip(id: id, name: name, kind: kind, seconds: seconds, fingerprint: fingerprint)
    }

    public func all() throws(ClipError) -> [ReferenceClip] {
        try database.clipTables { db in try Row.fetchAll(db, sql: "SELECT id, name, kind, seconds, fingerprint, learned FROM clip ORDER BY id").map(Self.clip) }
    }

    public func remove(_ nameOrID: String) throws(ClipError) -> ReferenceClip? {
        let nameOrID = nameOrID.trimmingCharacters(in: .whitespacesAndNewlines)
        return try remove(where: "name = ? OR CAST(id AS TEXT) = ? ORDER BY name = ? DESC", [nameOrID, nameOrID, nameOrID])
    }

    public func remove(id: Int64) throws(ClipError) -> ReferenceClip? {
        try remove(where: "id = ?", [id])
    }

    private func remove(where condition: String, _ arguments: StatementArguments) throws(ClipError) -> ReferenceClip? {
        try database.clipTables { db in
            let row = try Row.fetchOne(db, sql: "SELECT id, name, kind, seconds, fingerprint, learned FROM clip WHERE \(condition) LIMIT 1",
                                       arguments: arguments)
            guard let clip = try row.map(Self.clip) else { return nil }
            try db.execute(sql: "DELETE FROM clip WHERE id = ?", arguments: [clip.id])
            return clip
        }
    }

    public func learn(_ track: LearnedTrack, keepingAtMost most: Int) throws(ClipError) -> ReferenceClip? {
        guard (try? ReferenceClip.checkedName(track.title)) == track.title else { return nil }
        let id = try database.clipTables { db -> Int64? in
            guard let id = try Self.insert(track.title, .song, track.seconds, track.fingerprint, learned: true, db) else { return nil }
            try db.execute(sql: "DELETE FROM clip WHERE learned AND id NOT IN (SELECT id FROM clip WHERE learned ORDER BY id DESC LIMIT ?)",
                           arguments: [max(1, most)])
            return id
        }
        return id.map { ReferenceClip(id: $0, name: track.title, kind: .song, seconds: track.seconds, fingerprint: track.fingerprint, learned: true) }
    }

    /// Adds the clip in one statement; nil when a clip has that name already.
    private static func insert(_ name: String, _ kind: ReferenceClip.Kind, _ seconds: Double, _ fingerprint: Fingerprint, learned: Bool,
                               _ db: Database) throws -> Int64? {
        try db.execute(sql: "INSERT INTO clip (name, kind, seconds, fingerprint, addedAt, learned) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
                       arguments: [name, kind.rawValue, seconds, fingerprint.data, Date(), learned])
        return db.changesCount > 0 ? db.lastInsertedRowID : nil
    }

    public func revision() throws(ClipError) -> Int64 {
        try database.clipTables { db in try Int64.fetchOne(db, sql: "SELECT revision FROM clip_revision") ?? 0 }
    }

    private static func clip(_ row: Row) throws -> ReferenceClip {
        let kindName: String = row["kind"]
        guard let kind = ReferenceClip.Kind(rawValue: kindName) else { throw ClipError("a clip of unknown kind \"\(kindName)\"") }
        return ReferenceClip(id: row["id"], name: row["name"], kind: kind, seconds: row["seconds"],
                             fingerprint: try Fingerprint(data: row["fingerprint"]), learned: row["learned"])
    }
}
