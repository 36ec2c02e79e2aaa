import Daemon
import Engine
import Foundation
import HTTPRelay
import HTTPServing
import Hummingbird
import Outputs
import RadioModel

/// `/live/STATION`: a station's live audio, as the station sends it, for a browser's `<audio>` or any
/// player. The first listener joins the station's one upstream connection (shared with its episodes
/// and jobs, `Stations`); the mount leaves it a while after its last listener has gone, so a player
/// that reconnects or a page that reloads finds it still running.
public final class LiveMounts: Sendable {
    /// Seconds a mount without listeners stays on its station.
    static let linger = 10.0

    private struct Served: Sendable {
        let mount: HTTPRelayMount
        let membership: Stations.Membership
    }

    private let facade: DaemonFacade
    private let served = Locked<[String: Served]>([:])

    init(facade: DaemonFacade) {
        self.facade = facade
    }

    func add(to router: Router<ClientRequestContext>) {
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/live/{station}", method: method) { [self] request, context in
                let id = context.parameters.get("station") ?? ""
                let mount = try await facade.perform { daemon in try self.mount(for: id, daemon) }
                return await RelayListener.response(to: request, mount: mount, channel: context.channel, peer: nil)
            }
        }
    }

    /// Leaves every station (the server is stopping).
    func stopAll() {
        let all = served.withLock { served in defer { served = [:] }; return Array(served.values) }
        for running in all { facade.leaveNow(running.membership) }
    }

    /// Stations whose mount is served now.
    var stationsServed: [String] { served.current.keys.sorted() }

    /// The station's mount, joining its connection when it has none (or the one it had has ended).
    private func mount(for id: String, _ daemon: BlockingDaemon) throws -> HTTPRelayMount {
        guard let station = try? daemon.catalogue().station(id: id) else {
            throw APIError.notFound("no station \"\(id)\" in the catalogue")
        }
        if let running = served.current[id], !running.mount.hasEnded { return running.mount }
        let target = StreamTarget.station(station)
        var made: HTTPRelayMount?
        let membership: Stations.Membership
        do {
            membership = try daemon.stations.join(target) { connection in
                let (mount, feed) = try HTTPRelayMount.make(path: "/live/\(id)", label: "live \(id)", input: connection.pipeline.format,
                                                            name: station.name, onListeners: { [events = facade.events] count in
                    events.publish(LiveEvent(type: .listeners, station: id, listeners: count))
                })
                made = mount
                return [feed]
            }
        } catch {
            throw APIError(.badGateway, "cannot connect \(id): \(error)")
        }
        let mount = made!
        // Two first listeners at once both joined: the first to get here serves, the other leaves.
        let (winner, replaced) = served.withLock { served -> (HTTPRelayMount, Served?) in
            if let running = served[id], !running.mount.hasEnded { return (running.mount, nil) }
            defer { served[id] = Served(mount: mount, membership: membership) }
            return (mount, served[id])
        }
        replaced.map { daemon.stations.leave($0.membership) }
        guard winner === mount else {
            daemon.stations.leave(membership)
            return winner
        }
        membership.start()
        retireWhenIdle(mount, station: id)
        return mount
    }

    /// Leaves the station once the mount has had no listener for `linger` seconds, or its stream ended.
    private func retireWhenIdle(_ mount: HTTPRelayMount, station id: String) {
        Task.detached { [self] in
            while true {
                try? await Task.sleep(for: .seconds(Self.linger))
                guard mount.listenerCount == 0 || mount.hasEnded else { continue }
                let idle = served.withLock { served -> Served? in
                    guard let running = served[id], running.mount === mount else { return nil }
                    served[id] = nil
                    return running
                }
                if let idle { _ = try? await facade.perform { daemon in daemon.stations.leave(idle.membership) } }
                return
            }
        }
    }
}
