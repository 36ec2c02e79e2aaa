import Foundation
import HTTPServing
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Outputs
import RadioModel
import StreamInput

/// Serves relay mounts over HTTP on one address and port, on Hummingbird (SwiftNIO's event loops).
///
/// Every connection passes the request-head bounds of `BoundedHTTPServer` before anything parses it
/// (head size and lines, the slowloris timeout, the requests read at once); a request then reaches
/// `RelayResponder`, which matches mounts byte for byte and serves each listener from its mount's
/// broadcast (`RelayListener`): a station is never slowed by a listener, and a listener that falls
/// behind the broadcast's window is dropped.
final class HTTPRelayServer: Sendable {
    /// How often, in seconds, ended mounts without listeners are let go.
    private static let retireCheck = 1.0

    let address: String
    let mounts: RelayMountTable
    private let running: ServingTask

    /// Binds at once, so a taken port fails the sink before the station starts.
    /// `onRetire` runs once no mount is left; it returns true (after `stop()`, so the port is free at
    /// once) to let the server go.
    init(host: String, port: Int, onRetire: @escaping @Sendable (HTTPRelayServer) -> Bool) throws {
        address = "\(host):\(port)"
        let mounts = RelayMountTable()
        self.mounts = mounts
        (running, _) = try BoundedHTTPServer.start(RelayResponder(mounts: mounts), host: host, port: port)
        // A thread of its own, as stopping waits for the server's tasks, which must not wait on it.
        let thread = Thread { [self] in
            repeat { Thread.sleep(forTimeInterval: Self.retireCheck) } while !(mounts.retireEnded() && onRetire(self))
        }
        thread.name = "onair-http-relay"
        thread.start()
    }

    /// Stops serving: the port is free and every listener's connection closed when this returns.
    func stop() { running.stop() }

    func add(_ mount: HTTPRelayMount) throws {
        try mounts.add(mount, on: address)
    }

    var mountCount: Int { mounts.count }
}

/// A relay connection's context: who is listening, for `/status.json`.
struct RelayRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String
    /// The connection, which the mount's fan-out writes the broadcast to.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
        peer = source.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? ""
    }
}

/// What a relay server answers: GET or HEAD of a mount, or `/status.json`.
struct RelayResponder: HTTPResponder {
    let mounts: RelayMountTable

    func respond(to request: Request, context: RelayRequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return RelayErrorResponse.make(.methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        // The target as sent, never decoded: a mount is served only to its own bytes.
        let target = request.head.path ?? ""
        let path = String(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
        if path == "/status.json" { return mounts.statusResponse(to: request) }
        guard let mount = mounts.mount(at: path) else { return RelayErrorResponse.make(.notFound) }
        return await RelayListener.response(to: request, mount: mount, channel: context.channel, peer: context.peer)
    }
}
