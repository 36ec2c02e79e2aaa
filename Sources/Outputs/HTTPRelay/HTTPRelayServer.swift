import Foundation
import RadioModel
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

/// Serves relay mounts over HTTP on one address and port.
///
/// One thread of its own runs `poll()` over the listening socket, a wake-up pipe and every client
/// socket (non-blocking); it owns the sockets and the `RelayClient`s, so they need no locks. Feeds
/// on decode threads only commit to their broadcast, which signals the pipe: a station is never
/// slowed by a listener, and a listener that falls behind the broadcast's window is dropped.
///
/// HTTP/1.0 style: one request per connection, GET or HEAD, bodies end with the connection.
final class HTTPRelayServer: @unchecked Sendable {  // mounts and observations inside `lock`; clients on the server thread only
    /// Seconds a client has to send its whole request head (a slowloris holds connections open by
    /// trickling headers; real players send theirs in one packet).
    static let requestTimeout = 5.0
    /// Seconds a listener waits for a mount whose station has not started yet.
    static let startTimeout = 15.0
    /// Connections still sending their request, at most; more wait in the kernel's backlog.
    static let maxPendingRequests = 64

    let address: NetworkAddress
    private let listener: Int32
    private let wake: WakePipe
    private let onRetire: @Sendable (HTTPRelayServer, _ closeListener: () -> Void) -> Bool

    // Guarded by `lock`: what the registry and the server thread change.
    private let lock = NSLock()
    private var mounts: [String: HTTPRelayMount] = [:]
    private var observations: [String: Int] = [:]

    // Server thread only.
    private var clients: [RelayClient] = []

    /// Binds at once, so a taken port fails the sink before the station starts.
    /// `onRetire` runs on the server thread once no mount is left; it returns true (after closing the
    /// listening socket, so the port is free at once) to let the server stop.
    init(address: NetworkAddress, onRetire: @escaping @Sendable (HTTPRelayServer, _ closeListener: () -> Void) -> Bool) throws {
        self.address = address
        self.onRetire = onRetire
        wake = try WakePipe()
        listener = try TCPSocket.listen(on: address)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "onair-http-relay"
        thread.start()
    }

    /// Adds a mount; the registry never adds one to a server it has let go.
    func add(_ mount: HTTPRelayMount) throws {
        try lock.withLock {
            guard mounts[mount.path] == nil else { throw SinkError("\(mount.label): \(mount.path) is already served on \(address)") }
            mounts[mount.path] = mount
            observations[mount.path] = mount.broadcast.observe { [wake] in wake.signal() }
        }
        wake.signal()
    }

    var mountCount: Int { lock.withLock { mounts.count } }

    // MARK: Server thread

    private func run() {
        while true {
            var fds = [pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listener, events: pendingRequests < Self.maxPendingRequests ? Int16(POLLIN) : 0, revents: 0)]
            fds += clients.map { pollfd(fd: $0.fd, events: $0.pollEvents, revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), pollTimeout())
            wake.drain()
            let now = Self.now()
            if fds[1].revents != 0 { acceptClients(now: now) }
            for (index, client) in clients.enumerated() where index + 2 < fds.count {
                handle(client, events: fds[index + 2].revents, now: now)
            }
            pumpListeners(now: now)
            expireDeadlines(now: now)
            clients.removeAll { $0.state == .closed }
            for mount in lock.withLock({ Array(mounts.values) }) {
                mount.broadcast.listeners = listeners(of: mount).count(where: { $0.state == .streaming })
            }
            if retireEndedMounts() { break }
        }
        clients.forEach { $0.close() }
        clients = []
    }

    private var pendingRequests: Int { clients.count(where: { $0.state == .readingRequest }) }

    private static func now() -> Double { Double(MonotonicClock.now()) / 1e9 }

    private func pollTimeout() -> Int32 {
        let now = Self.now()
        guard let soonest = clients.compactMap(\.deadline).min() else { return 1000 }
        return Int32(max(0, min(1000, (soonest - now) * 1000 + 1)))
    }

    private func acceptClients(now: Double) {
        while pendingRequests < Self.maxPendingRequests {
            var peer = NetworkAddress()
            let fd = withUnsafeMutablePointer(to: &peer.storage) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &peer.length) }
            }
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // A small send buffer keeps what sits in the kernel for a stalled listener small, so the
            // broadcast's window, not the kernel, decides when it has fallen behind.
            var size: Int32 = 64 * 1024
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            clients.append(RelayClient(fd: fd, peer: peer.description, now: now, requestTimeout: Self.requestTimeout))
        }
    }

    private func handle(_ client: RelayClient, events: Int16, now: Double) {
        guard events != 0 else { return }
        switch client.state {
        case .readingRequest:
            switch client.readRequest() {
            case .incomplete: break
            case .gone: client.close()
            case .refused(let status): client.finish(with: RelayResponse.error(status), now: now)
            case .complete(let head): route(head, from: client, now: now)
            }
        case .finishing:
            client.continueFinishing(now: now)
        case .waitingForStream, .streaming, .lingering:
            if events & Int16(POLLOUT) != 0 { client.becameWritable() }
            if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { client.discardInput() }
        case .closed:
            break
        }
    }

    private func route(_ head: HTTPRequestHead, from client: RelayClient, now: Double) {
        guard head.method == "GET" || head.method == "HEAD" else {
            return client.finish(with: RelayResponse.error(405, headers: [("Allow", "GET, HEAD")]), now: now)
        }
        let mounts = lock.withLock { self.mounts }
        if head.path == "/status.json" {
            guard mounts.values.allSatisfy({ $0.options.token == nil }) || mounts.values.contains(where: { $0.admits(token: head.token) }) else {
                return client.finish(with: RelayResponse.error(401, headers: [("WWW-Authenticate", "Bearer")]), now: now)
            }
            let body = head.method == "HEAD" ? "" : status(of: mounts, now: now).json + "\n"
            return client.finish(with: RelayResponse.complete(status: 200, contentType: "application/json", body: body), now: now)
        }
        guard let mount = mounts[head.path] else { return client.finish(with: RelayResponse.error(404), now: now) }
        guard mount.admits(token: head.token) else {
            return client.finish(with: RelayResponse.error(401, headers: [("WWW-Authenticate", "Bearer")]), now: now)
        }
        guard listeners(of: mount).count < mount.options.maxListeners else {
            return client.finish(with: RelayResponse.error(503), now: now)
        }
        client.wait(for: mount, head: head, until: now + Self.startTimeout)
        startIfLive(client, now: now)
    }

    private func startIfLive(_ client: RelayClient, now: Double) {
        guard let mount = client.mount else { return }
        if let joining = mount.broadcast.join(burstBytes: mount.burstBytes) {
            client.startStreaming(joining, now: now)
        } else if mount.broadcast.hasEnded {
            client.finish(with: RelayResponse.error(503), now: now)
        }
    }

    private func pumpListeners(now: Double) {
        for client in clients {
            if client.state == .waitingForStream { startIfLive(client, now: now) }
            guard client.state == .streaming, let mount = client.mount else { continue }
            // A blocked listener is pumped again once poll() says its socket is writable; until then
            // it is only checked for having lost its place.
            switch client.blocked ? (client.hasFallenBehind ? .fellBehind : .continuing) : client.pump(now: now) {
            case .continuing, .failed:
                break  // a listener that hangs up or resets is simply gone
            case .ended:
                client.close()
            case .fellBehind:
                client.close()
                mount.onEvent(.warning("\(mount.label): dropped listener \(client.peer): it fell more than "
                                       + "\(mount.broadcast.retainedBytes / 1024) KiB behind the stream"))
            }
        }
    }

    private func expireDeadlines(now: Double) {
        for client in clients {
            guard let deadline = client.deadline, now >= deadline else { continue }
            switch client.state {
            case .readingRequest: client.finish(with: RelayResponse.error(408), now: now)
            case .waitingForStream: client.finish(with: RelayResponse.error(503, headers: [("Retry-After", "5")]), now: now)
            default: client.close()
            }
        }
    }

    private func listeners(of mount: HTTPRelayMount) -> [RelayClient] {
        clients.filter { $0.mount === mount && ($0.state == .streaming || $0.state == .waitingForStream) }
    }

    /// Removes mounts whose station has ended and whose listeners are gone; true when the server
    /// has nothing left to serve and may stop.
    private func retireEndedMounts() -> Bool {
        let ended = lock.withLock { mounts.values.filter { $0.broadcast.hasEnded } }
        for mount in ended where listeners(of: mount).isEmpty {
            lock.withLock {
                mounts[mount.path] = nil
                observations.removeValue(forKey: mount.path).map(mount.broadcast.stopObserving)
            }
        }
        return !ended.isEmpty && mountCount == 0 && onRetire(self) { close(listener) }
    }

    private func status(of mounts: [String: HTTPRelayMount], now: Double) -> RelayStatus {
        RelayStatus(mounts: mounts.values.sorted { $0.path < $1.path }.map { mount in
            let listening = listeners(of: mount).filter { $0.state == .streaming }
            return RelayStatus.Mount(
                path: mount.path, name: mount.name, format: mount.options.format.description,
                contentType: mount.broadcast.mediaType, live: mount.broadcast.isLive,
                bytesProduced: mount.broadcast.bytesProduced, listenerCount: listening.count,
                maxListeners: mount.options.maxListeners,
                listeners: listening.map {
                    RelayStatus.Listener(address: $0.peer, connectedSeconds: ((now - $0.connectedAt) * 10).rounded() / 10,
                                         bytesSent: $0.bytesSent, icyMetadata: $0.wantsMetadata, userAgent: $0.userAgent)
                })
        })
    }
}
