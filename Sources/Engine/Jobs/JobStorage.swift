import Foundation

/// Where the runtime jobs are kept: `JobStore` (the daemon's own SQLite file) or `PostgresJobStore`
/// (the database several daemons share, where each persisted job is run by the one daemon holding
/// its lease, and taken over by another when that daemon stops renewing it).
public protocol JobStorage: Sendable {
    /// Adds a job, run (and held) by this daemon; returns its id, which no other job had.
    func add(_ spec: JobSpec) throws -> Int64
    func remove(id: Int64) throws
    /// The persisted jobs no daemon runs, oldest first, now this daemon's to run: on start those it
    /// ran before it stopped, and with a shared database those of a daemon that stopped renewing its
    /// leases. `running`: the jobs this daemon runs already; `leaving`: jobs it let go of a moment ago
    /// (another daemon has their station open), not to be claimed again yet; `limit`: how many at most (nil: all).
    func claimPersisted(running: Set<Int64>, leaving: Set<Int64>, limit: Int?) throws -> [(id: Int64, spec: JobSpec)]
    /// Renews this daemon's leases on `ids`; returns those it no longer holds (another daemon took them).
    func renew(_ ids: Set<Int64>) throws -> Set<Int64>
    /// Gives a persisted job up as the daemon stops, for another daemon to run at once.
    func release(id: Int64) throws
}
