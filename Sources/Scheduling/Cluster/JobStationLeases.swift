import Foundation
import RadioModel

/// The stations this daemon's runtime jobs use, held with the episodes' station leases. Sharing a
/// database, a station then has one connection in the cluster, whether an episode or a job opened it:
/// a job asked for a station another daemon holds is refused with that daemon's name, and the episodes
/// of a station a job holds here come to this daemon. The scheduler renews these leases with its own.
public final class JobStationLeases: Sendable {
    private let leases: any EpisodeLeases
    /// Per station: its lease, and how many jobs here use it.
    private let held = Locked<[String: (lease: StationLease, jobs: Int)]>([:])
    /// Whether an episode running here uses a lease (the scheduler's answer): the lease then stays when
    /// the station's last job ends.
    private let episodesUse = Locked<(@Sendable (StationLease) -> Bool)?>(nil)

    public init(leases: any EpisodeLeases) {
        self.leases = leases
    }

    /// Holds `station` for one more job; when another daemon holds it, that daemon (and nothing is held).
    public func hold(_ station: String) throws(ScheduleError) -> DaemonPlace? {
        let heldAlready = held.withLock { held -> Bool in
            guard held[station] != nil else { return false }
            held[station]!.jobs += 1
            return true
        }
        if heldAlready { return nil }
        let claim: StationClaim
        do {
            claim = try leases.claimStation(station)
        } catch {
            throw ScheduleError("cluster: \(error)")
        }
        switch claim {
        case .claimed(let lease):
            held.withLock { $0[station, default: (lease, 0)].jobs += 1 }
            return nil
        case .heldBy(let other):
            return other
        }
    }

    /// One job of `station` ended: with the last, the lease is given up, unless an episode here uses it.
    public func release(_ station: String) {
        let freed = held.withLock { held -> StationLease? in
            guard let entry = held[station] else { return nil }
            guard entry.jobs <= 1 else {
                held[station]!.jobs -= 1
                return nil
            }
            held[station] = nil
            return entry.lease
        }
        guard let freed, !(episodesUse.withLock { $0 }?(freed) ?? false) else { return }
        // It expires by itself otherwise.
        try? leases.release(freed)
    }

    /// The leases the jobs hold now, to renew.
    var current: Set<StationLease> { held.withLock { Set($0.values.map(\.lease)) } }

    func holds(_ lease: StationLease) -> Bool { held.withLock { $0[lease.station]?.lease == lease } }

    /// Leases another daemon took (this one was cut off past them): no longer held here.
    func forget(_ lost: Set<StationLease>) {
        held.withLock { held in held = held.filter { !lost.contains($0.value.lease) } }
    }

    /// Set by the scheduler that renews these leases.
    func setEpisodesUse(_ check: @escaping @Sendable (StationLease) -> Bool) {
        episodesUse.withLock { $0 = check }
    }
}
