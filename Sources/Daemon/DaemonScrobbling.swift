import Engine
import Foundation
import RadioModel
import Recording
import Scheduling
import Scrobbling
import StreamInput

/// The stations whose songs the daemon scrobbles (`--scrobble-station`): each kept connected while the daemon runs,
/// with a `TitleScrobbler` on it, the listens sent by one `Scrobbler` to the account of `onair scrobble login`.
final class DaemonScrobbling: Sendable {
    private let stations: Stations
    private let wanted: [String]
    private let scrobbler: Scrobbler?
    private let lookup: @Sendable (String) throws -> StreamTarget
    private let log: @Sendable (DaemonEvent) -> Void
    private let memberships = Locked<[Stations.Membership]>([])

    /// Fails (a configuration error) when stations are named and no account is set, or the store cannot be opened.
    init(stations wanted: [String], on stations: Stations, dataDirectory: URL, lookup: @escaping @Sendable (String) throws -> StreamTarget,
         log: @escaping @Sendable (DaemonEvent) -> Void) throws(EngineError) {
        self.stations = stations
        self.wanted = wanted
        self.lookup = lookup
        self.log = log
        guard !wanted.isEmpty else { scrobbler = nil; return }
        let store: ScrobbleStore, account: ScrobbleStore.Account?
        do {
            store = try ScrobbleStore(dataDirectory: dataDirectory)
            account = try store.account()
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
        guard let account else {
            throw EngineError("--scrobble-station needs a ListenBrainz account: onair scrobble login TOKEN", kind: .configuration)
        }
        scrobbler = Scrobbler(store: store, account: account) { log(DaemonEvent(.scrobbling, message: $0)) }
    }

    /// Connects the stations; one that cannot be is one log line, the others go on.
    func start() {
        guard let scrobbler else { return }
        for name in wanted {
            do {
                let target = try lookup(name)
                let service = target.label.name
                let membership = try stations.join(target) { _ in [TitleScrobbler(service: service, scrobbler: scrobbler)] }
                memberships.withLock { $0.append(membership) }
                membership.start()
            } catch {
                log(DaemonEvent(.scrobbling, station: URLRedaction.redact(name), message: "not scrobbled: \(error)"))
            }
        }
    }

    func stop() {
        let joined = memberships.withLock { joined in defer { joined = [] }; return joined }
        joined.forEach(stations.leave)
        scrobbler?.waitUntilTried()
    }
}
