import GRDB
import Store

/// The clip tables in onair's database, migrated together whichever of their stores opens them first.
extension OnairDatabase {
    func migrateClipTables() throws(ClipError) {
        do {
            try migrate { migrator in
                migrator.registerMigration("clips-v1") { db in
                    try db.create(table: "clip") { t in
                        t.autoIncrementedPrimaryKey("id")
                        t.column("name", .text).notNull().unique()
                        t.column("kind", .text).notNull()
                        t.column("seconds", .double).notNull()
                        t.column("fingerprint", .blob).notNull()
                        t.column("addedAt", .datetime).notNull()
                    }
                }
                migrator.registerMigration("clips-v2-airings") { db in
                    try db.create(table: "airing") { t in
                        t.autoIncrementedPrimaryKey("id")
                        t.column("clip", .text).notNull().indexed()
                        t.column("kind", .text).notNull()
                        t.column("station", .text).notNull()
                        t.column("start", .datetime).notNull().indexed()
                        t.column("end", .datetime).notNull()
                        t.column("mediaTime", .double).notNull()
                        t.column("offset", .double).notNull()
                        t.column("score", .double).notNull()
                        t.column("partial", .boolean).notNull()
                    }
                }
                migrator.registerMigration("clips-v3-revision") { db in
                    try db.execute(sql: OnairDatabase.revisionCounter(for: "clip"))
                }
                migrator.registerMigration("clips-v4-learned") { db in
                    try db.alter(table: "clip") { t in t.add(column: "learned", .boolean).notNull().defaults(to: false) }
                }
            }
        } catch {
            throw ClipError("clips: \(error)")
        }
    }

    /// `body` in a write transaction; a database failure (or a `StoreError` thrown by `body`, which comes out as
    /// it went in) is a `ClipError` with its words.
    func clipTables<T>(_ body: (Database) throws -> T) throws(ClipError) -> T {
        do {
            return try write(body)
        } catch {
            throw ClipError(error.description)
        }
    }
}
