import Foundation
import GRDB
import RadioModel
import Store

/// Every airing of a clip that was heard, in the data directory's SQLite file (`clips-v2-airings`).
public final class AiringLog: AiringStorage {
    public let database: OnairDatabase

    public init(database: OnairDatabase) throws(ClipError) {
        self.database = database
        try database.migrateClipTables()
    }

    public func add(_ sighting: ClipSighting) throws(ClipError) {
        try database.clipTables { db in
            try db.execute(sql: """
                INSERT INTO airing (clip, kind, station, start, "end", mediaTime, "offset", score, partial) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [sighting.clip, sighting.kind, sighting.station, sighting.start, sighting.end, sighting.mediaTime,
                                 sighting.offset, sighting.score, sighting.partial])
        }
    }

    public func airings(clip: String?, kind: String?, station: String?, since: Date?, until: Date?, limit: Int?) throws(ClipError) -> [ClipSighting] {
        try database.clipTables { db in
            var conditions: [String] = [], arguments: StatementArguments = []
            if let clip { conditions.append("clip = ?"); arguments += [clip] }
            if let kind { conditions.append("kind = ?"); arguments += [kind] }
            if let station { conditions.append("station = ?"); arguments += [station] }
            if let since { conditions.append("start >= ?"); arguments += [since] }
            if let until { conditions.append("start < ?"); arguments += [until] }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let newest = "SELECT * FROM airing \(filter) ORDER BY start DESC, id DESC" + (limit.map { " LIMIT \(max(0, $0))" } ?? "")
            return try Row.fetchAll(db, sql: "SELECT * FROM (\(newest)) ORDER BY start, id", arguments: arguments).map { row in
                ClipSighting(clip: row["clip"], kind: row["kind"], station: row["station"], start: row["start"], end: row["end"],
                             mediaTime: row["mediaTime"], offset: row["offset"], score: row["score"], partial: row["partial"])
            }
        }
    }
}
