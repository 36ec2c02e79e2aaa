import Foundation
import GRDB
import Store

/// A user's playlist.
public struct Playlist: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "library_playlist"
    public var id: Int64?
    public var name: String
    public var createdAt: Date

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An item in a playlist, at a position (1 is the first).
public struct PlaylistEntry: Codable, Sendable, Equatable {
    public var position: Int
    public var item: LibraryItem

    public init(position: Int, item: LibraryItem) { self.position = position; self.item = item }
}

/// A playlist item found by `search`.
public struct SearchHit: Codable, Sendable, Equatable {
    public var playlist: Int64
    public var playlistName: String
    public var position: Int
    public var item: LibraryItem
}

/// Playlists, likes and hidden items: tables of onair's database. Safe from any thread; GRDB
/// serialises access.
///
/// Hidden items leave every playlist when hidden and are not added again while hidden; liked items
/// form the system playlist "Liked", in the order they were liked.
public final class LibraryStore: Sendable {
    /// The system playlist of liked items, and the name no user playlist takes.
    public static let likedName = "Liked"
    /// What a playlist created without a name is called.
    public static let defaultName = "New playlist"

    public let database: OnairDatabase

    public init(database: OnairDatabase) throws(LibraryError) {
        self.database = database
        do {
            try database.migrate(Self.registerMigrations)
        } catch {
            throw LibraryError("library: \(error)")
        }
    }

    // MARK: Playlists

    /// Creates a playlist: an empty name becomes "New playlist", and a name taken (or "Liked") gets
    /// the first free number: "Jazz (2)".
    public func create(name: String) throws(LibraryError) -> Playlist {
        try access { db in
            var playlist = Playlist(name: try Self.freeName(name, db), createdAt: Date())
            try playlist.insert(db)
            return playlist
        }
    }

    /// Renames a playlist by the rule `create` names one by (its own name is not taken from it); nil
    /// if there is no such playlist.
    public func rename(playlist id: Int64, to name: String) throws(LibraryError) -> Playlist? {
        try access { db in
            guard var playlist = try Playlist.fetchOne(db, key: id) else { return nil }
            playlist.name = try Self.freeName(name, db, renaming: id)
            try playlist.update(db)
            return playlist
        }
    }

    /// `name` trimmed ("New playlist" when empty), or with the first free number when another playlist
    /// (or "Liked") has it: "Jazz (2)".
    private static func freeName(_ name: String, _ db: Database, renaming id: Int64? = nil) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let base = trimmed.isEmpty ? defaultName : trimmed
        let taken = Set(try String.fetchAll(db, sql: "SELECT name FROM library_playlist WHERE id IS NOT ?", arguments: [id]))
            .union([likedName])
        var candidate = base, number = 2
        while taken.contains(candidate) {
            candidate = "\(base) (\(number))"
            number += 1
        }
        return candidate
    }

    /// Every playlist, oldest first, with how many items each holds.
    public func playlists() throws(LibraryError) -> [(playlist: Playlist, count: Int)] {
        try access(write: false) { db in
            try Playlist.order(Column("id")).fetchAll(db).map { playlist in
                (playlist, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM library_playlist_item WHERE playlist = ?",
                                            arguments: [playlist.id]) ?? 0)
            }
        }
    }

    public func playlist(id: Int64) throws(LibraryError) -> Playlist? {
        try access(write: false) { db in try Playlist.fetchOne(db, key: id) }
    }

    /// Deletes a playlist and its items; nil if there was none.
    public func delete(playlist id: Int64) throws(LibraryError) -> Playlist? {
        try access { db in
            guard let playlist = try Playlist.fetchOne(db, key: id) else { return nil }
            try playlist.delete(db)
            return playlist
        }
    }

    // MARK: Items

    /// A playlist's items in order; nil if there is no such playlist.
    public func entries(of id: Int64) throws(LibraryError) -> [PlaylistEntry]? {
        try access(write: false) { db in
            guard try Playlist.exists(db, key: id) else { return nil }
            return try Self.items(db, playlist: id).enumerated().map { PlaylistEntry(position: $0 + 1, item: $1) }
        }
    }

    /// Appends items (a programme's episodes already expanded by the caller); hidden ones are left out.
    /// Returns those added; nil if there is no such playlist.
    public func append(_ items: [LibraryItem], to id: Int64) throws(LibraryError) -> [LibraryItem]? {
        try access { db in
            guard try Playlist.exists(db, key: id) else { return nil }
            let hidden = try Self.hiddenReferences(db)
            let added = items.filter { !hidden.contains($0.reference) }
            var position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), 0) FROM library_playlist_item WHERE playlist = ?",
                                            arguments: [id]) ?? 0
            for item in added {
                position += 1
                try db.execute(sql: "INSERT INTO library_playlist_item (playlist, position, kind, ref, title) VALUES (?, ?, ?, ?, ?)",
                               arguments: [id, position, item.kind.rawValue, item.ref, item.title])
            }
            return added
        }
    }

    /// Removes the item at `position` (1-based); nil if there is none.
    public func remove(position: Int, from id: Int64) throws(LibraryError) -> LibraryItem? {
        try access { db in
            var items = try Self.items(db, playlist: id)
            guard items.indices.contains(position - 1) else { return nil }
            let removed = items.remove(at: position - 1)
            try Self.rewrite(db, playlist: id, items)
            return removed
        }
    }

    /// Moves the item at `from` to `to` (both 1-based); false if either is out of range.
    public func move(from: Int, to: Int, in id: Int64) throws(LibraryError) -> Bool {
        try access { db in
            var items = try Self.items(db, playlist: id)
            guard items.indices.contains(from - 1), items.indices.contains(to - 1) else { return false }
            items.insert(items.remove(at: from - 1), at: to - 1)
            try Self.rewrite(db, playlist: id, items)
            return true
        }
    }

    /// Playlists whose name, and items whose title or reference, contain `text` (case and accents ignored).
    public func search(_ text: String) throws(LibraryError) -> (playlists: [Playlist], items: [SearchHit]) {
        func matches(_ candidate: String) -> Bool {
            candidate.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
        let lists = try playlists().map(\.playlist)
        var hits: [SearchHit] = []
        for playlist in lists {
            for entry in try entries(of: playlist.id!) ?? [] where matches(entry.item.title) || matches(entry.item.ref) {
                hits.append(SearchHit(playlist: playlist.id!, playlistName: playlist.name, position: entry.position, item: entry.item))
            }
        }
        return (lists.filter { matches($0.name) }, hits)
    }

    // MARK: Likes and hidden items

    /// Likes or unlikes an item; false if it was so already.
    public func setLiked(_ item: LibraryItem, _ liked: Bool) throws(LibraryError) -> Bool {
        try mark(item, .liked, liked)
    }

    /// Hides or shows an item; hiding takes it out of every playlist. False if it was so already.
    public func setHidden(_ item: LibraryItem, _ hidden: Bool) throws(LibraryError) -> Bool {
        let changed = try mark(item, .hidden, hidden)
        if hidden {
            try access { db in
                for id in try Int64.fetchAll(db, sql: "SELECT DISTINCT playlist FROM library_playlist_item WHERE kind = ? AND ref = ?",
                                             arguments: [item.kind.rawValue, item.ref]) {
                    try Self.rewrite(db, playlist: id, try Self.items(db, playlist: id).filter { $0.reference != item.reference })
                }
            }
        }
        return changed
    }

    /// The liked items, in the order they were liked (hidden ones left out).
    public func liked() throws(LibraryError) -> [LibraryItem] {
        try access(write: false) { db in
            try Row.fetchAll(db, sql: "SELECT kind, ref, title FROM library_mark WHERE liked AND NOT hidden ORDER BY likedAt, rowid")
                .compactMap(Self.item)
        }
    }

    /// The hidden items, by kind and reference.
    public func hidden() throws(LibraryError) -> [LibraryItem] {
        try access(write: false) { db in
            try Row.fetchAll(db, sql: "SELECT kind, ref, title FROM library_mark WHERE hidden ORDER BY kind, ref").compactMap(Self.item)
        }
    }

    /// "kind:ref" of every hidden item.
    public func hiddenReferences() throws(LibraryError) -> Set<String> {
        try access(write: false) { db in try Self.hiddenReferences(db) }
    }

    private enum Mark { case liked, hidden }

    private func mark(_ item: LibraryItem, _ which: Mark, _ value: Bool) throws(LibraryError) -> Bool {
        try access { db in
            let arguments: StatementArguments = [item.kind.rawValue, item.ref]
            let row = try Row.fetchOne(db, sql: "SELECT liked, hidden FROM library_mark WHERE kind = ? AND ref = ?", arguments: arguments)
            guard (row?[which == .liked ? "liked" : "hidden"] ?? false) != value else { return false }
            try db.execute(sql: """
                INSERT INTO library_mark (kind, ref, title, liked, hidden) VALUES (?, ?, ?, 0, 0)
                ON CONFLICT(kind, ref) DO UPDATE SET title = excluded.title
                """, arguments: [item.kind.rawValue, item.ref, item.title])
            switch which {
            case .liked:
                try db.execute(sql: "UPDATE library_mark SET liked = ?, likedAt = ? WHERE kind = ? AND ref = ?",
                               arguments: [value, Date()] + arguments)
            case .hidden:
                try db.execute(sql: "UPDATE library_mark SET hidden = ? WHERE kind = ? AND ref = ?", arguments: [value] + arguments)
            }
            return true
        }
    }

    // MARK: Database

    private static func items(_ db: Database, playlist: Int64) throws -> [LibraryItem] {
        try Row.fetchAll(db, sql: "SELECT kind, ref, title FROM library_playlist_item WHERE playlist = ? ORDER BY position",
                         arguments: [playlist]).compactMap(item)
    }

    private static func item(_ row: Row) -> LibraryItem? {
        ItemKind(rawValue: row["kind"]).map { LibraryItem(kind: $0, ref: row["ref"], title: row["title"]) }
    }

    private static func rewrite(_ db: Database, playlist: Int64, _ items: [LibraryItem]) throws {
        try db.execute(sql: "DELETE FROM library_playlist_item WHERE playlist = ?", arguments: [playlist])
        for (index, item) in items.enumerated() {
            try db.execute(sql: "INSERT INTO library_playlist_item (playlist, position, kind, ref, title) VALUES (?, ?, ?, ?, ?)",
                           arguments: [playlist, index + 1, item.kind.rawValue, item.ref, item.title])
        }
    }

    private static func hiddenReferences(_ db: Database) throws -> Set<String> {
        Set(try Row.fetchAll(db, sql: "SELECT kind, ref FROM library_mark WHERE hidden").map { "\($0["kind"] as String):\($0["ref"] as String)" })
    }

    private func access<T>(write: Bool = true, _ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return write ? try database.write(body) : try database.read(body)
        } catch {
            throw LibraryError("library: \(error)")
        }
    }

    private static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("library-v1") { db in
            try db.execute(sql: """
                CREATE TABLE library_playlist (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, createdAt DATETIME NOT NULL);
                CREATE TABLE library_playlist_item (
                    playlist INTEGER NOT NULL REFERENCES library_playlist(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL, title TEXT NOT NULL,
                    PRIMARY KEY (playlist, position));
                CREATE INDEX library_playlist_item_ref ON library_playlist_item (kind, ref);
                CREATE TABLE library_mark (
                    kind TEXT NOT NULL, ref TEXT NOT NULL, title TEXT NOT NULL,
                    liked BOOLEAN NOT NULL, hidden BOOLEAN NOT NULL, likedAt DATETIME,
                    PRIMARY KEY (kind, ref));
                """)
        }
    }
}
