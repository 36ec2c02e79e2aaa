import Foundation
import HTTPServing
import Hummingbird
import Outputs
import RadioModel

/// The mounts of one relay server, by path exactly as a request must send it.
final class RelayMountTable: Sendable {
    private let mounts = Locked<[String: HTTPRelayMount]>([:])

    func add(_ mount: HTTPRelayMount, on address: String) throws {
        try mounts.withLock { mounts in
            guard mounts[mount.path] == nil else { throw SinkError("\(mount.label): \(mount.path) is already served on \(address)") }
            mounts[mount.path] = mount
        }
    }

    func mount(at path: String) -> HTTPRelayMount? { mounts.current[path] }

    var count: Int { mounts.current.count }

    /// Removes mounts whose station has ended and whose listeners are gone; true when none is left
    /// and at least one went now (a server that never had a mount is not let go).
    func retireEnded() -> Bool {
        mounts.withLock { mounts in
            let ended = mounts.values.filter { $0.hasEnded && $0.listenerCount == 0 }
            for mount in ended { mounts[mount.path] = nil }
            return !ended.isEmpty && mounts.isEmpty
        }
    }

    /// `/status.json`: every mount and its listeners. With tokens on the server, a token of one of its
    /// mounts is needed; no token is ever shown.
    func statusResponse(to request: Request) -> Response {
        let mounts = self.mounts.current
        let token = request.uri.queryParameters["token"].map(String.init) ?? RelayListener.bearerToken(request.headers[.authorization])
        guard mounts.values.allSatisfy({ $0.options.token == nil }) || mounts.values.contains(where: { $0.admits(token: token) }) else {
            return RelayErrorResponse.make(.unauthorized, headers: [.wwwAuthenticate: "Bearer"])
        }
        let now = RelayListener.now()
        let status = RelayStatus(mounts: mounts.values.sorted { $0.path < $1.path }.map { mount in
            let listening = mount.listenerRecords.filter(\.streaming)
            return RelayStatus.Mount(
                path: mount.path, name: mount.name, format: mount.options.format.description,
                contentType: mount.broadcast.mediaType, live: mount.broadcast.isLive,
                bytesProduced: mount.broadcast.bytesProduced, listenerCount: listening.count,
                maxListeners: mount.options.maxListeners,
                listeners: listening.map {
                    RelayStatus.Listener(address: $0.peer, connectedSeconds: ((now - $0.connectedAt) * 10).rounded() / 10,
                                         bytesSent: $0.bytesSent, icyMetadata: $0.icyMetadata, userAgent: $0.userAgent)
                })
        })
        let body = request.method == .head ? "" : status.json + "\n"
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
