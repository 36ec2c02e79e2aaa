import Foundation

/// A daemon's right to record a station's episodes, until it stops renewing it. `epoch` grows each
/// time the station passes to another daemon: a daemon writes an episode's outcome only while its
/// epoch is still the station's (fencing), so one that was paused or cut off past its lease cannot
/// overwrite the work of the daemon that took over.
public struct StationLease: Sendable, Hashable {
    public let station: String
    public let epoch: Int64

    public init(station: String, epoch: Int64) {
        self.station = station
        self.epoch = epoch
    }
}

/// How several daemons share a schedule: each claims an episode with its station's lease (all of a
/// station's episodes on one daemon, so one upstream connection per station), renews what it holds,
/// and takes over the episodes of a daemon whose leases expired.
public protocol EpisodeLeases: Sendable {
    /// This daemon's name, as `onair status` shows it.
    var daemon: String { get }
    /// How often `renew` is due: a fraction of the lease's length.
    var renewInterval: TimeInterval { get }
    /// Claims as many of `episodes` (scheduled, or recording under an expired lease) as this daemon may,
    /// with their stations' leases, in one transaction: not those another daemon is claiming or has
    /// claimed, nor those of a station another daemon holds, nor new stations past `--max-streams`
    /// (taken in the order given). The leases, by episode id.
    func claim(_ episodes: [Episode]) throws -> [Int64: StationLease]
    /// Takes `station`'s lease for a runtime job: when it is free, expired or this daemon's already. Else
    /// the daemon holding it, which the job is to be asked of.
    func claimStation(_ station: String) throws -> StationClaim
    /// Episodes still marked recording whose station's lease has expired: their daemon is gone (or
    /// cut off); the rest of an open window is to be recorded by another, a closed one is closed.
    /// Also this daemon's own (`wasOwn`: it claimed them last), lease or not: those it does not run
    /// (the caller skips the others) were its own before it restarted, and are resumed at once rather
    /// than when that lease runs out.
    func orphaned() throws -> [OrphanedEpisode]
    /// Renews the leases (and the daemon's heartbeat, with its load); returns those it no longer holds.
    func renew(_ leases: Set<StationLease>) throws -> Set<StationLease>
    /// Whether the lease is still this daemon's: checked before an episode's outcome is written.
    func holds(_ lease: StationLease) throws -> Bool
    /// Gives a station up once none of its episodes runs here.
    func release(_ lease: StationLease) throws
}

extension EpisodeLeases {
    /// Claims one episode; nil if another daemon has it or its station, or this daemon is full.
    public func claim(_ episode: Episode) throws -> StationLease? {
        try claim([episode])[episode.id!]
    }
}

/// What claiming a station for a runtime job came to.
public enum StationClaim: Sendable, Equatable {
    case claimed(StationLease)
    case heldBy(DaemonPlace)
}

/// An episode left recording by a daemon that stopped renewing its lease.
public struct OrphanedEpisode: Sendable {
    public var episode: Episode
    /// This daemon (or an earlier life of it) claimed it last.
    public var wasOwn: Bool
    /// The daemon that claimed it last, where the database still knows it: the part it was writing
    /// is in its recordings folder unless the rule's template put it elsewhere.
    public var holder: DaemonPlace?

    public init(episode: Episode, wasOwn: Bool, holder: DaemonPlace? = nil) {
        self.episode = episode; self.wasOwn = wasOwn; self.holder = holder
    }
}

/// Where a daemon keeps its files, as it registered them.
public struct DaemonPlace: Sendable, Equatable {
    /// Its `--name`.
    public var name: String
    public var host: String
    /// Its recordings folder (absolute), if it registered one.
    public var recordings: String?

    public init(name: String, host: String, recordings: String?) {
        self.name = name; self.host = host; self.recordings = recordings
    }
}
