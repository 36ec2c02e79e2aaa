import Foundation
import PostgresNIO
import SharedStore

/// The runtime jobs in the PostgreSQL database several daemons share. Each row carries its lease:
/// the daemon running the job and until when, renewed every few seconds. A persisted job whose lease
/// ran out (its daemon was killed, cut off, or stopped and gave it up) is claimed by another daemon
/// with `FOR UPDATE SKIP LOCKED`, so one daemon alone runs it; one not persisted goes with its daemon.
/// Every time comes from the database's clock.
public final class PostgresJobStore: JobStorage {
    private let database: SharedDatabase
    private let daemon: String
    /// `daemon` and its earlier lives (`PostgresEpisodeLeases.predecessors`), whose jobs are its own.
    private let mine: [String]
    private let length: TimeInterval

    /// `daemon`: the lease holder's key (`DaemonIdentity.owner`). `length`: how long a lease lasts unless
    /// renewed: as long as the episodes' leases, renewed with them.
    public init(database: SharedDatabase, daemon: String, predecessors: [String] = [], length: TimeInterval = 15) throws {
        self.database = database
        self.daemon = daemon
        mine = [daemon] + predecessors
        self.length = length
        try database.migrate([
            ("jobs-v1", [
                """
                CREATE TABLE job (id BIGSERIAL PRIMARY KEY, spec TEXT NOT NULL, persist BOOLEAN NOT NULL,
                                  created_at TIMESTAMPTZ NOT NULL DEFAULT now(), daemon TEXT, expires TIMESTAMPTZ)
                """,
            ]),
        ])
    }

    public func add(_ spec: JobSpec) throws -> Int64 {
        let json = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        return try database.query("""
            INSERT INTO job (spec, persist, daemon, expires) VALUES (\(json), \(spec.persist), \(daemon), now() + \(length) * interval '1 second')
            RETURNING id
            """).first!.decode(Int64.self)
    }

    public func remove(id: Int64) throws {
        try database.query("DELETE FROM job WHERE id = \(id)")
    }

    public func claimPersisted(running: Set<Int64>, leaving: Set<Int64>, limit: Int?) throws -> [(id: Int64, spec: JobSpec)] {
        let running = Array(running), leaving = Array(leaving)
        return try database.transaction { session in
            // Unheld: the jobs of a daemon that is gone, and this daemon's own from before it restarted.
            try session.query("""
                DELETE FROM job WHERE NOT persist AND (daemon IS NULL OR expires <= now() OR (daemon = ANY(\(mine)) AND NOT id = ANY(\(running))))
                """)
            return try session.query("""
                UPDATE job SET daemon = \(daemon), expires = now() + \(length) * interval '1 second'
                WHERE id IN (SELECT id FROM job WHERE persist AND (daemon IS NULL OR expires <= now() OR (daemon = ANY(\(mine)) AND NOT id = ANY(\(running))))
                                                      AND NOT id = ANY(\(leaving))
                             ORDER BY id LIMIT \(limit.map(Int64.init)) FOR UPDATE SKIP LOCKED)
                RETURNING id, spec
                """).map { row in
                let (id, spec) = try row.decode((Int64, String).self)
                return (id, try JSONDecoder().decode(JobSpec.self, from: Data(spec.utf8)))
            }.sorted { $0.id < $1.id }
        }
    }

    public func renew(_ ids: Set<Int64>) throws -> Set<Int64> {
        let renewed = try database.query("""
            UPDATE job SET expires = now() + \(length) * interval '1 second' WHERE daemon = \(daemon) AND id = ANY(\(Array(ids)))
            RETURNING id
            """).map { try $0.decode(Int64.self) }
        return ids.subtracting(renewed)
    }

    public func release(id: Int64) throws {
        try database.query("UPDATE job SET daemon = NULL, expires = NULL WHERE id = \(id) AND daemon = \(daemon)")
    }
}
