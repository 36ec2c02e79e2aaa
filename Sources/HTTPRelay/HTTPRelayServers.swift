import Foundation
import HTTPServing
import Outputs
import RadioModel

/// The relay servers of this process, one per address and port: every `http://` sink on the same
/// port becomes a mount of one server (`/radio` and `/radio.ogg?format=opus` side by side).
final class HTTPRelayServers: Sendable {
    static let shared = HTTPRelayServers()

    private let servers = Locked<[String: HTTPRelayServer]>([:])

    /// Serves `mount` at host:port, starting a server there unless one runs. Binding anything but a
    /// loopback address needs the sink's explicit `allow-remote` and a token.
    func serve(_ mount: HTTPRelayMount, host: String, port: Int) throws {
        try servers.withLock { servers in
            let key = "\(host.lowercased()):\(port)"
            guard let address = try NetworkAddress.resolve(host: host, port: port, forListening: true).first else {
                throw SinkError("\(mount.label): no address for \(host)")
            }
            try Self.checkAccess(to: address, for: mount)
            if let server = servers[key] { return try server.add(mount) }
            let server: HTTPRelayServer
            do {
                server = try HTTPRelayServer(host: host, port: port) { [unowned self] server in retire(server, key: key) }
            } catch {
                throw SinkError("\(mount.label): cannot serve on \(address): \(error)")
            }
            try server.add(mount)
            servers[key] = server
        }
    }

    /// Lets a server with no mounts go, unless a mount was added meanwhile.
    private func retire(_ server: HTTPRelayServer, key: String) -> Bool {
        servers.withLock { servers in
            guard servers[key] === server, server.mountCount == 0 else { return false }
            servers[key] = nil
            server.stop()
            return true
        }
    }

    private static func checkAccess(to address: NetworkAddress, for mount: HTTPRelayMount) throws {
        guard !address.isLoopback else { return }
        guard mount.options.allowRemote else {
            throw SinkError("\(mount.label): \(address) is reachable from other machines; add allow-remote and token=SECRET "
                            + "to the sink to serve there, or bind 127.0.0.1")
        }
        guard mount.options.token != nil else {
            throw SinkError("\(mount.label): a relay reachable from other machines needs a token; add token=SECRET to the sink")
        }
    }
}
