import Engine
import Foundation
import RadioModel
import Recording
import Scheduling
import Scrobbling
import StreamInput

/// What the daemon scrobbles to the account of `onair scrobble login`: the songs of the stations of `--scrobble-station`,
/// each kept connected while the daemon runs with a `TitleScrobbler` on it, and what its clients say they heard (a
/// Subsonic app's scrobble). One `Scrobbler` sends them all, made when the first listen comes and again when the
/// account changed; with no account, what clients heard is not sent.
final class DaemonScrobbling: Sendable {
    private let stations: Stations
    private let wanted: [String]
    private let store: Result<ScrobbleStore, ScrobbleError>
    private let scrobbler = Locked<Scrobbler?>(nil)
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
        store = Result { () throws(ScrobbleError) in try ScrobbleStore(dataDirectory: dataDirectory) }
        guard !wanted.isEmpty else { return }
        do {
            guard try sender() != nil else {
                throw EngineError("--scrobble-station needs a ListenBrainz account: onair scrobble login TOKEN", kind: .configuration)
            }
        } catch let error as EngineError {
            throw error
        } catch {
            throw EngineError("\(error)", kind: .configuration)
        }
    }

    /// The scrobbler for the account as it is now; nil when there is none.
    private func sender() throws -> Scrobbler? {
        guard let account = try store.get().account() else { return nil }
        let store = try store.get()
        return scrobbler.withLock { scrobbler in
            if let current = scrobbler, current.account == account { return current }
            scrobbler?.waitUntilTried()
            let made = Scrobbler(store: store, account: account) { [log] in log(DaemonEvent(.scrobbling, message: $0)) }
            scrobbler = made
            return made
        }
    }

    /// A listen a client of the daemon heard: sent in its turn when an account is set. Blocking (the database).
    func heard(_ listen: Listen) {
        do { try sender()?.heard(listen) } catch { log(DaemonEvent(.scrobbling, message: "not scrobbled: \(error)")) }
    }

    /// What a client plays now, when an account is set. Blocking (the database).
    func playingNow(_ listen: Listen) {
        do { try sender()?.playingNow(listen) } catch { log(DaemonEvent(.scrobbling, message: "not scrobbled: \(error)")) }
    }

    /// Connects the stations; one that cannot be is one log line, the others go on.
    func start() {
        guard !wanted.isEmpty, let scrobbler = try? sender() else { return }
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
        scrobbler.withLock { $0 }?.waitUntilTried()
    }
}
