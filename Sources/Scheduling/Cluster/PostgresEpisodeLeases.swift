import Foundation
import PostgresNIO
import SharedStore

/// Leases in the shared PostgreSQL database: the `daemon` registry (one row per daemon process: its
/// identity, name, host, capacity and heartbeat) and one `station_lease` row per station being recorded.
/// A claim takes many due episodes in one transaction: they are locked with `FOR UPDATE SKIP LOCKED`, so
/// daemons claiming at once never wait on each other and never both win; every time comes from the database's clock, so daemons' clocks need not agree.
public final class PostgresEpisodeLeases: EpisodeLeases {
    public let identity: DaemonIdentity
    public var daemon: String { identity.owner }
    /// This daemon's earlier lives: registered with its name on its host by a process that is gone (or by
    /// a version before identities). Their episodes, leases and jobs are this daemon's to resume at once.
    public let predecessors: [String]
    /// Other live daemons with this one's name (fresh heartbeat), as a warning shows them.
    public let namesakes: [String]
    public let renewInterval: TimeInterval
    private let database: SharedDatabase
    private let maxStreams: Int
    private let length: TimeInterval
    private var mine: [String] { [daemon] + predecessors }

    /// `length`: how long a lease lasts unless renewed (renewed every fifth of it). `recordings`: this
    /// daemon's recordings folder, registered so that a daemon taking its episodes over on the same host
    /// finds the parts it left there.
    public init(database: SharedDatabase, identity: DaemonIdentity, maxStreams: Int, length: TimeInterval = 15,
                recordings: URL? = nil) throws(ScheduleError) {
        self.database = database
        self.identity = identity
        self.maxStreams = maxStreams
        self.length = length
        renewInterval = length / 5
        do {
            try database.migrate(Self.migrations)
            let sameName = try database.query("""
                SELECT name, label IS NULL, coalesce(host, ''), pid, heartbeat > now() - \(length) * interval '1 second',
                       EXTRACT(EPOCH FROM now() - heartbeat)::float8
                FROM daemon WHERE label = \(identity.name) OR (label IS NULL AND name = \(identity.name))
                """).map { try $0.decode((String, Bool, String, Int64, Bool, Double).self) }
            let earlierLives = sameName.filter { _, beforeIdentities, host, pid, _, _ in
                beforeIdentities || (host == identity.host && (pid == Int64(getpid()) || !Self.isRunning(pid)))
            }
            let earlierOwners = earlierLives.map(\.0)
            predecessors = earlierOwners
            namesakes = sameName.filter { owner, _, _, _, fresh, _ in fresh && !earlierOwners.contains(owner) }.map { owner, _, host, pid, _, age in
                "\(owner) on \(host), pid \(pid), heartbeat \(Int(age)) s ago"
            }
            try database.query("""
                INSERT INTO daemon (name, label, instance, host, max_streams, pid, started_at, heartbeat, load, recordings)
                VALUES (\(identity.owner), \(identity.name), \(identity.instance), \(identity.host), \(maxStreams), \(Int64(getpid())), now(), now(), 0,
                        \(recordings?.standardizedFileURL.path))
                """)
            // Daemons gone for a day that hold nothing are forgotten, so `onair status` lists the living.
            try database.query("""
                DELETE FROM daemon d WHERE heartbeat < now() - interval '1 day'
                    AND NOT EXISTS (SELECT 1 FROM station_lease l WHERE l.daemon = d.name AND l.expires > now())
                """)
        } catch {
            throw ScheduleError("cluster: \(error)")
        }
    }

    private static func isRunning(_ pid: Int64) -> Bool {
        kill(pid_t(truncatingIfNeeded: pid), 0) == 0 || errno == EPERM
    }

    public func claim(_ episodes: [Episode]) throws -> [Int64: StationLease] {
        guard !episodes.isEmpty else { return [:] }
        return try database.transaction { session -> [Int64: StationLease] in
            // Episodes another daemon is claiming at this moment are skipped, never waited for.
            let locked = Dictionary(try session.query("""
                SELECT id, station FROM episode WHERE id = ANY(\(episodes.map { $0.id! })) AND status IN ('scheduled', 'recording')
                FOR UPDATE SKIP LOCKED
                """).map { try $0.decode((Int64, String).self) }, uniquingKeysWith: { first, _ in first })
            guard !locked.isEmpty else { return [:] }
            // Locked in one order by every daemon, so that two claiming stations at once never deadlock.
            let current = Dictionary(try session.query("""
                SELECT station, daemon, expires > now() FROM station_lease WHERE station = ANY(\(Array(Set(locked.values)).sorted()))
                ORDER BY station FOR UPDATE
                """).map { row -> (String, (holder: String, live: Bool)) in
                let (station, holder, live) = try row.decode((String, String, Bool).self)
                return (station, (holder, live))
            }, uniquingKeysWith: { first, _ in first })
            var room = maxStreams - Int(try session.query("""
                SELECT count(*) FROM station_lease WHERE daemon = \(daemon) AND expires > now()
                """).first!.decode(Int64.self))
            var stations: [String] = []
            for episode in episodes {
                guard let station = locked[episode.id!], !stations.contains(station) else { continue }
                if let (holder, live) = current[station], live, !mine.contains(holder) { continue }
                if current[station]?.holder != daemon {
                    guard room > 0 else { continue }
                    room -= 1
                }
                stations.append(station)
            }
            guard !stations.isEmpty else { return [:] }
            let epochs = try writeLeases(stations, session)
            let claimed = locked.filter { epochs[$0.value] != nil }
            try session.query("""
                UPDATE episode e SET daemon = \(daemon), epoch = l.epoch FROM station_lease l
                WHERE e.id = ANY(\(Array(claimed.keys))) AND l.station = e.station
                """)
            return claimed.mapValues { StationLease(station: $0, epoch: epochs[$0]!) }
        }
    }

    public func claimStation(_ station: String) throws -> StationClaim {
        try database.transaction { session -> StationClaim in
            let holder = { () throws -> DaemonPlace? in
                try session.query("""
                    SELECT coalesce(d.label, l.daemon), coalesce(d.host, ''), d.recordings FROM station_lease l LEFT JOIN daemon d ON d.name = l.daemon
                    WHERE l.station = \(station) AND l.expires > now() AND NOT l.daemon = ANY(\(self.mine))
                    """).first.map { row in
                    let (name, host, recordings) = try row.decode((String, String, String?).self)
                    return DaemonPlace(name: name, host: host, recordings: recordings)
                }
            }
            if let other = try holder() { return .heldBy(other) }
            if let epoch = try writeLeases([station], session)[station] { return .claimed(StationLease(station: station, epoch: epoch)) }
            // Another daemon wrote it meanwhile.
            return .heldBy(try holder() ?? DaemonPlace(name: "another daemon", host: "", recordings: nil))
        }
    }

    /// Writes this daemon's lease on each of `stations` (renewed if it is this daemon's, a higher epoch
    /// if it was another's and expired); the epochs of those written.
    private func writeLeases(_ stations: [String], _ session: PostgresSession) throws -> [String: Int64] {
        Dictionary(try session.query("""
            INSERT INTO station_lease (station, daemon, epoch, expires)
            SELECT station, \(daemon), 1, now() + \(length) * interval '1 second' FROM unnest(\(stations)::text[]) AS station
            ON CONFLICT (station) DO UPDATE SET daemon = EXCLUDED.daemon, expires = EXCLUDED.expires,
                epoch = CASE WHEN station_lease.daemon = EXCLUDED.daemon THEN station_lease.epoch ELSE station_lease.epoch + 1 END
            -- A live lease another daemon wrote while this transaction ran (its row was not there to lock)
            -- stays that daemon's: this claim leaves the station.
            WHERE station_lease.expires <= now() OR station_lease.daemon = ANY(\(mine))
            RETURNING station, epoch
            """).map { try $0.decode((String, Int64).self) }, uniquingKeysWith: { first, _ in first })
    }

    public func orphaned() throws -> [OrphanedEpisode] {
        try database.transaction { session in
            let own = Set(try session.query("""
                SELECT id FROM episode WHERE status = 'recording' AND daemon = ANY(\(mine))
                """).map { try $0.decode(Int64.self) })
            let holders = Dictionary(try session.query("""
                SELECT e.id, coalesce(d.label, d.name), coalesce(d.host, ''), d.recordings
                FROM episode e JOIN daemon d ON d.name = e.daemon WHERE e.status = 'recording'
                """).map { row -> (Int64, DaemonPlace) in
                let (id, name, host, recordings) = try row.decode((Int64, String, String, String?).self)
                return (id, DaemonPlace(name: name, host: host, recordings: recordings))
            }, uniquingKeysWith: { first, _ in first })
            return try session.query("""
                SELECT e.id, e.record FROM episode e LEFT JOIN station_lease l ON l.station = e.station
                WHERE e.status = 'recording' AND (l.station IS NULL OR l.expires <= now() OR e.daemon = ANY(\(mine)))
                ORDER BY e.window_start, e.id
                """).map(PostgresScheduleStore.episode).map {
                OrphanedEpisode(episode: $0, wasOwn: own.contains($0.id!), holder: holders[$0.id!])
            }
        }
    }

    public func renew(_ leases: Set<StationLease>) throws -> Set<StationLease> {
        try database.transaction { session in
            var lost: Set<StationLease> = []
            for lease in leases {
                let renewed = try session.query("""
                    UPDATE station_lease SET expires = now() + \(length) * interval '1 second'
                    WHERE station = \(lease.station) AND daemon = \(daemon) AND epoch = \(lease.epoch) RETURNING epoch
                    """)
                if renewed.isEmpty { lost.insert(lease) }
            }
            try session.query("UPDATE daemon SET heartbeat = now(), load = \(Int64(leases.count - lost.count)) WHERE name = \(daemon)")
            return lost
        }
    }

    public func holds(_ lease: StationLease) throws -> Bool {
        try !database.query("""
            SELECT 1 FROM station_lease WHERE station = \(lease.station) AND daemon = \(daemon) AND epoch = \(lease.epoch)
            """).isEmpty
    }

    public func release(_ lease: StationLease) throws {
        try database.query("DELETE FROM station_lease WHERE station = \(lease.station) AND daemon = \(daemon) AND epoch = \(lease.epoch)")
    }

    /// What `onair status` shows of the cluster.
    public static func cluster(in database: SharedDatabase) throws -> ClusterStatus {
        // Asked before any daemon has started: the tables are there, empty.
        try database.migrate(migrations)
        return try database.transaction { session in
            let daemons = try session.query("""
                SELECT coalesce(d.label, d.name), coalesce(d.instance, ''), coalesce(d.host, ''), d.max_streams, d.pid,
                       EXTRACT(EPOCH FROM now() - d.heartbeat)::float8,
                       (SELECT count(*) FROM station_lease l WHERE l.daemon = d.name AND l.expires > now())
                FROM daemon d ORDER BY 1, d.started_at
                """).map { row in
                let (name, instance, host, maxStreams, pid, age, leases) = try row.decode((String, String, String, Int64, Int64, Double, Int64).self)
                return ClusterStatus.Daemon(name: name, instance: instance, host: host, maxStreams: Int(maxStreams), pid: Int32(pid),
                                            heartbeatAge: age, leases: Int(leases))
            }
            let leases = try session.query("""
                SELECT l.station, coalesce(d.label, l.daemon), coalesce(d.instance, ''), l.epoch, EXTRACT(EPOCH FROM l.expires - now())::float8
                FROM station_lease l LEFT JOIN daemon d ON d.name = l.daemon ORDER BY l.station
                """).map { row in
                let (station, daemon, instance, epoch, remaining) = try row.decode((String, String, String, Int64, Double).self)
                return ClusterStatus.Lease(station: station, daemon: daemon, instance: instance, epoch: epoch, expiresIn: remaining)
            }
            return ClusterStatus(database: database.location.description, daemons: daemons, leases: leases)
        }
    }

    private static let migrations: [(identifier: String, statements: [PostgresQuery])] = [
        ("cluster-v1", [
            """
            CREATE TABLE daemon (name TEXT PRIMARY KEY, max_streams BIGINT NOT NULL, pid BIGINT NOT NULL,
                                 started_at TIMESTAMPTZ NOT NULL, heartbeat TIMESTAMPTZ NOT NULL, load BIGINT NOT NULL)
            """,
            """
            CREATE TABLE station_lease (station TEXT PRIMARY KEY, daemon TEXT NOT NULL, epoch BIGINT NOT NULL,
                                        expires TIMESTAMPTZ NOT NULL)
            """,
        ]),
        // A daemon's row, and the `daemon` of its leases, episodes and jobs, name its identity (`name/instance`);
        // rows from before keep a NULL label and are known by their name.
        ("cluster-v2-identity", ["ALTER TABLE daemon ADD COLUMN label TEXT, ADD COLUMN instance TEXT, ADD COLUMN host TEXT"]),
        ("cluster-v3-recordings", ["ALTER TABLE daemon ADD COLUMN recordings TEXT"]),
    ]
}

/// The daemons sharing a database, their load and the stations' leases.
public struct ClusterStatus: Codable, Sendable {
    public struct Daemon: Codable, Sendable {
        /// Its `--name`; `instance` tells apart daemons given the same one.
        public var name: String
        public var instance: String
        public var host: String
        public var maxStreams: Int
        public var pid: Int32
        /// Seconds since its last heartbeat.
        public var heartbeatAge: Double
        /// Stations it holds a live lease on.
        public var leases: Int
    }

    public struct Lease: Codable, Sendable {
        public var station: String
        /// The holder's `--name` and instance.
        public var daemon: String
        public var instance: String
        public var epoch: Int64
        /// Seconds until it expires (negative: expired).
        public var expiresIn: Double
    }

    public var database: String
    public var daemons: [Daemon]
    public var leases: [Lease]
}
