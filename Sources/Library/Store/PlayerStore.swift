import Foundation
import GRDB
import Media
import Store

/// The player's memory in onair's database: favourite stations (in the order `n`/`p` step through),
/// what was played when (history), and where each recording was left (resume, heard).
public final class PlayerStore: Sendable {
    public struct Favourite: Equatable, Sendable {
        public var station: String
        public var name: String
    }

    public struct HistoryEntry: Equatable, Sendable {
        public var kind: String
        public var item: String
        public var name: String
        public var started: Date
        public var seconds: Double
    }

    public struct Position: Equatable, Sendable {
        public var seconds: Double
        public var heard: Bool
    }

    /// What a player was playing, shared by every player of the box (a Subsonic app on the phone, another
    /// on a laptop): the items in order (library references: `recording:12`, `episode:3`), the one playing
    /// and where in it, and which client saved it when.
    public struct PlayQueue: Equatable, Sendable {
        public var items: [String]
        public var current: String?
        public var seconds: Double
        public var changed: Date
        public var changedBy: String

        public init(items: [String], current: String?, seconds: Double, changed: Date, changedBy: String) {
            (self.items, self.current, self.seconds, self.changed, self.changedBy) = (items, current, seconds, changed, changedBy)
        }
    }

    private let database: OnairDatabase

    public init(database: OnairDatabase) throws(StoreError) {
        self.database = database
        try database.migrate { migrator in
            migrator.registerMigration("player-v1") { db in
                try db.execute(sql: """
                    CREATE TABLE player_favourite (
                        station TEXT PRIMARY KEY, name TEXT NOT NULL, added DATETIME NOT NULL);
                    CREATE TABLE player_history (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, item TEXT NOT NULL,
                        name TEXT NOT NULL, started DATETIME NOT NULL, seconds DOUBLE NOT NULL);
                    CREATE TABLE player_position (
                        file TEXT PRIMARY KEY, seconds DOUBLE NOT NULL, heard BOOLEAN NOT NULL, updated DATETIME NOT NULL);
                    """)
            }
            migrator.registerMigration("player-queue-v1") { db in
                // One row: the box has one listener's queue, as a Subsonic server keeps one per user.
                try db.execute(sql: """
                    CREATE TABLE player_queue (
                        id INTEGER PRIMARY KEY CHECK (id = 1), items TEXT NOT NULL, current TEXT,
                        seconds DOUBLE NOT NULL, changed DATETIME NOT NULL, changedBy TEXT NOT NULL);
                    """)
            }
        }
    }

    // MARK: Favourites

    /// Adds a station (or renames it if it is there already); false when it was there.
    @discardableResult
    public func addFavourite(station: String, name: String) throws(StoreError) -> Bool {
        try database.write { db in
            let existed = try Bool.fetchOne(db, sql: "SELECT 1 FROM player_favourite WHERE station = ?", arguments: [station]) ?? false
            try db.execute(sql: "INSERT INTO player_favourite (station, name, added) VALUES (?, ?, ?) "
                           + "ON CONFLICT(station) DO UPDATE SET name = excluded.name", arguments: [station, name, Date()])
            return !existed
        }
    }

    /// False when it was not a favourite.
    @discardableResult
    public func removeFavourite(station: String) throws(StoreError) -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM player_favourite WHERE station = ?", arguments: [station])
            return db.changesCount > 0
        }
    }

    public func favourites() throws(StoreError) -> [Favourite] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT station, name FROM player_favourite ORDER BY added, rowid").map {
                Favourite(station: $0["station"], name: $0["name"])
            }
        }
    }

    // MARK: History

    /// Lines of history kept: the oldest go as new ones come.
    static let historyKept = 10_000

    /// Notes something played: `kind` "station" or "recording", `item` its id or file.
    public func addHistory(kind: String, item: String, name: String, started: Date, seconds: Double) throws(StoreError) {
        try database.write { db in
            try db.execute(sql: "INSERT INTO player_history (kind, item, name, started, seconds) VALUES (?, ?, ?, ?, ?)",
                           arguments: [kind, item, name, started, seconds])
            try db.execute(sql: "DELETE FROM player_history WHERE id <= ?", arguments: [db.lastInsertedRowID - Int64(Self.historyKept)])
        }
    }

    /// The most recent first.
    public func history(limit: Int) throws(StoreError) -> [HistoryEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM player_history ORDER BY started DESC, id DESC LIMIT ?", arguments: [limit]).map {
                HistoryEntry(kind: $0["kind"], item: $0["item"], name: $0["name"], started: $0["started"], seconds: $0["seconds"])
            }
        }
    }

    // MARK: Positions

    public func position(of file: String) throws(StoreError) -> Position? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT seconds, heard FROM player_position WHERE file = ?", arguments: [file]).map {
                Position(seconds: $0["seconds"], heard: $0["heard"])
            }
        }
    }

    /// Every kept position, the most recently changed first: what "continue listening" offers.
    public func positions(limit: Int) throws(StoreError) -> [(file: String, position: Position, updated: Date)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT file, seconds, heard, updated FROM player_position ORDER BY updated DESC LIMIT ?", arguments: [limit]).map {
                (file: $0["file"], position: Position(seconds: $0["seconds"], heard: $0["heard"]), updated: $0["updated"])
            }
        }
    }

    /// Where a recording was left; `heard` once it was played to its end (it then starts from the top).
    public func savePosition(of file: String, seconds: Double, heard: Bool) throws(StoreError) {
        try database.write { db in
            try db.execute(sql: "INSERT INTO player_position (file, seconds, heard, updated) VALUES (?, ?, ?, ?) "
                           + "ON CONFLICT(file) DO UPDATE SET seconds = excluded.seconds, "
                           + "heard = excluded.heard OR player_position.heard, updated = excluded.updated",
                           arguments: [file, seconds, heard, Date()])
        }
    }
}

extension PlayerStore {
    // MARK: The play queue

    public func playQueue() throws(StoreError) -> PlayQueue? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT items, current, seconds, changed, changedBy FROM player_queue WHERE id = 1").map { row in
                let items = (try? JSONDecoder().decode([String].self, from: Data((row["items"] as String).utf8))) ?? []
                return PlayQueue(items: items, current: row["current"], seconds: row["seconds"], changed: row["changed"], changedBy: row["changedBy"])
            }
        }
    }

    /// Replaces the queue; an empty one clears it.
    public func savePlayQueue(_ queue: PlayQueue) throws(StoreError) {
        let items = String(decoding: (try? JSONEncoder().encode(queue.items)) ?? Data("[]".utf8), as: UTF8.self)
        try database.write { db in
            guard !queue.items.isEmpty else { try db.execute(sql: "DELETE FROM player_queue"); return }
            try db.execute(sql: "INSERT OR REPLACE INTO player_queue (id, items, current, seconds, changed, changedBy) VALUES (1, ?, ?, ?, ?, ?)",
                           arguments: [items, queue.current, queue.seconds, queue.changed, queue.changedBy])
        }
    }
}

extension PlayerStore: PositionMemory {
    /// A recording left part-way resumes there; one finished, or left in its last seconds, starts over.
    public func resumePoint(for file: String, duration: Double?) -> Double? {
        guard let stored = try? position(of: file), stored.seconds > 0 else { return nil }
        if let duration, stored.seconds >= duration - 1 { return nil }
        return stored.seconds
    }

    /// Saving is best effort: a database problem costs the resume point, not the playback.
    public func save(_ file: String, seconds: Double, heard: Bool) {
        try? savePosition(of: file, seconds: seconds, heard: heard)
    }
}
