import Foundation
import GRDB
import Store

/// The jobs' table in onair's database: every job the daemon runs has a row, which gives it an id
/// no other job had (rows are never reused); a `persist`ed one stays when the daemon stops and is
/// started again with it, the others are removed when they stop. The jobs are this daemon's alone:
/// there are no leases to renew or give up.
public final class JobStore: JobStorage {

    private let database: OnairDatabase

    public init(database: OnairDatabase) throws {
        self.database = database
        try database.migrate { migrator in
            migrator.registerMigration("jobs-v1") { db in
                try db.create(table: JobRow.databaseTableName) { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("spec", .jsonText).notNull()
                    t.column("persist", .boolean).notNull()
                    t.column("createdAt", .datetime).notNull()
                }
            }
        }
    }

    /// Adds a job; returns its id.
    public func add(_ spec: JobSpec) throws -> Int64 {
        try database.write { db in
            var row = JobRow(id: nil, spec: spec, persist: spec.persist, createdAt: Date())
            try row.insert(db)
            return row.id!
        }
    }

    public func remove(id: Int64) throws {
        _ = try database.write { db in try JobRow.deleteOne(db, key: id) }
    }

    /// The persisted jobs not running yet, oldest first; rows of jobs that were not to persist (a crashed daemon's) go.
    public func claimPersisted(running: Set<Int64>, leaving: Set<Int64>, limit: Int?) throws -> [(id: Int64, spec: JobSpec)] {
        try database.write { db in
            try JobRow.filter(Column("persist") == false && !running.contains(Column("id"))).deleteAll(db)
            return try JobRow.filter(!running.union(leaving).contains(Column("id"))).order(Column("id")).limit(limit ?? -1).fetchAll(db)
                .map { ($0.id!, $0.spec) }
        }
    }

    public func renew(_ ids: Set<Int64>) throws -> Set<Int64> { [] }

    public func release(id: Int64) throws {}
}

private struct JobRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "job"
    var id: Int64?
    var spec: JobSpec
    var persist: Bool
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
