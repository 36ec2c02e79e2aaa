import Foundation
import RadioModel
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

/// Pushes a broadcast to Icecast as a source client — `PUT /MOUNT` with Basic auth, then the stream
/// as the request body for as long as it lasts — and reconnects with backoff when Icecast goes away.
///
/// A socket of our own rather than an upload through TransferEngine: Icecast 2.4 reads a source's
/// body raw and does not undo chunked transfer encoding (measured: the chunk sizes end up in the
/// listeners' audio), while libcurl sends an upload of unknown length chunked over HTTP/1.1 and
/// refuses it over HTTP/1.0. A close-delimited PUT, as ffmpeg's icecast protocol sends it, needs only
/// a socket. Its thread of its own owns the socket and sleeps in poll() on it and on a wake-up pipe
/// that the broadcast signals; title updates, which are ordinary requests, go through TransferEngine.
final class IcecastSourceClient: @unchecked Sendable {  // immutable; the socket is its own thread's alone
    /// Why a push stopped for good: retrying cannot help.
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    private let target: IcecastTarget
    private let broadcast: AudioBroadcast
    /// The sink as written, password hidden: names it in status reports.
    private let label: String
    private let streamName: String
    private let policy: ReconnectPolicy
    private let onStatus: SinkStatusHandler
    private let titles: IcecastTitleUpdater
    private let wake: WakePipe
    /// Seconds Icecast may take to answer, or to accept more bytes, before the connection counts as dead.
    private let timeout = 10.0

    init(target: IcecastTarget, broadcast: AudioBroadcast, label: String, streamName: String,
         policy: ReconnectPolicy = ReconnectPolicy(), onStatus: @escaping SinkStatusHandler,
         onEvent: @escaping @Sendable (StreamEvent) -> Void) throws {
        self.target = target
        self.broadcast = broadcast
        self.label = label
        self.streamName = streamName
        self.policy = policy
        self.onStatus = onStatus
        titles = IcecastTitleUpdater(target: target, label: label, onEvent: onEvent)
        wake = try WakePipe()
    }

    /// Runs until the broadcast ends (the station stopped) or Icecast refuses the source for good.
    func start() {
        let observation = broadcast.observe { [wake] in wake.signal() }
        let thread = Thread { [self] in
            run()
            broadcast.stopObserving(observation)
        }
        thread.name = "onair-icecast-push"
        thread.start()
    }

    // MARK: Push thread

    private func run() {
        var failures = 0
        while let joining = waitUntilLive() {
            var connected = false
            do {
                let fd = try connect(contentType: joining.contentType)
                defer { close(fd) }
                connected = true
                failures = 0
                onStatus(label, .connected(peer: "Icecast at \(target.authority)\(target.mount)"))
                // A new source connection is a new mount to Icecast: it needs the title again.
                if let title = joining.title { titles.update(title.title) }
                try stream(joining, to: fd)
                return  // the broadcast ended
            } catch let refused as Refused {
                broadcast.fail(refused)
                return
            } catch {
                failures += 1
                let delay = policy.delay(attempt: failures, unit: Double.random(in: 0..<1))
                let reason = "\(error); trying again in \(String(format: "%.1f", delay)) s"
                if connected {
                    onStatus(label, .disconnected(reason: reason))
                } else if failures == 1 {
                    onStatus(label, .waiting(reason: reason))  // once per outage, as the other sinks do
                }
                if sleep(delay) { return }
            }
        }
    }

    /// The broadcast's live edge once it has a header; nil when it ended first.
    private func waitUntilLive() -> AudioBroadcast.Joining? {
        while !broadcast.hasEnded {
            // No burst: Icecast has had what came before, or is a new mount that starts now.
            if let joining = broadcast.join(burstBytes: 0) { return joining }
            _ = sleep(1)
        }
        return nil
    }

    /// Connects and sends the source request; returns once Icecast has accepted it.
    private func connect(contentType: String) throws -> Int32 {
        let fd = try TCPSocket.connect(host: target.host, port: target.port, timeout: timeout)
        do {
            var head = "PUT \(target.mountInRequest) HTTP/1.1\r\n"
            head += "Host: \(target.authority)\r\n"
            head += "Authorization: \(target.basicAuthorization)\r\n"
            head += "User-Agent: \(TransferRequest.defaultUserAgent)\r\n"
            head += "Content-Type: \(contentType)\r\n"
            head += "Ice-Name: \(streamName.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: " "))\r\n"
            head += "Ice-Public: \(target.isPublic ? 1 : 0)\r\n"
            // Icecast answers 100 Continue only once the credentials and the mount are accepted, so
            // a refusal arrives before any audio is sent.
            head += "Expect: 100-continue\r\n\r\n"
            var pending = Array(head.utf8)[...]
            while !pending.isEmpty { pending = try send(pending, on: fd) }
            try expectAcceptance(on: fd)
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// Reads Icecast's reply to the source request: 100 Continue (or 200 from servers that skip it).
    private func expectAcceptance(on fd: Int32) throws {
        var reply: [UInt8] = []
        let deadline = Self.now() + timeout
        while !reply.contains(subsequence: Array("\r\n\r\n".utf8)) {
            guard reply.count < 8192 else { throw SinkError("Icecast sent an oversized reply") }
            guard try waitFor(fd, events: Int16(POLLIN), until: deadline) else { throw SinkError("Icecast did not answer within \(Int(timeout)) s") }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { throw SinkError("Icecast closed the connection") }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw SinkError.system("cannot read Icecast's reply")
            }
            reply += buffer[..<count]
        }
        let statusLine = String(decoding: reply.prefix { $0 != 0x0D }, as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw SinkError("Icecast sent no HTTP status: \(statusLine)") }
        guard status != 100, status != 200 else { return }
        let reason = parts.count > 2 ? " \(parts[2])" : ""
        if status == 401 {
            throw Refused(description: "Icecast refused the source credentials for \(target) (401\(reason))")
        }
        throw SinkError("Icecast answered \(status)\(reason)")
    }

    /// Sends the header and then the broadcast, until it ends (returns) or the connection fails (throws).
    private func stream(_ joining: AudioBroadcast.Joining, to fd: Int32) throws {
        var cursor = joining.cursor
        var pending = joining.header[...]
        var lastProgress = Self.now()
        while true {
            while !pending.isEmpty {
                let before = pending.count
                pending = try send(pending, on: fd, untilBlocked: true)
                if pending.count < before { lastProgress = Self.now() }
                guard !pending.isEmpty else { break }
                guard try waitFor(fd, events: Int16(POLLOUT), until: lastProgress + timeout) else {
                    throw SinkError("Icecast took no data for \(Int(timeout)) s")
                }
            }
            switch broadcast.read(&cursor, maxBytes: 64 * 1024) {
            case .ended:
                return
            case .fellBehind:
                throw SinkError("Icecast did not keep up: the push fell \(broadcast.retainedBytes / 1024) KiB behind")
            case .items(let items) where items.isEmpty:
                // At the live edge: sleep until the broadcast has more, watching for Icecast hanging up.
                _ = try waitFor(fd, events: 0, until: Self.now() + 1)
            case .items(let items):
                for item in items {
                    switch item {
                    case .audio(let bytes): pending += bytes
                    case .title(let change): titles.update(change.title)
                    }
                }
                lastProgress = Self.now()
            }
        }
    }

    /// Sends what the socket takes; returns what is left. Without `untilBlocked` it waits until all is sent.
    private func send(_ bytes: ArraySlice<UInt8>, on fd: Int32, untilBlocked: Bool = false) throws -> ArraySlice<UInt8> {
        var rest = bytes
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if sent >= 0 {
                rest = rest.dropFirst(sent)
                continue
            }
            if errno == EINTR { continue }
            guard errno == EAGAIN else { throw SinkError.system("connection to Icecast lost") }
            if untilBlocked { return rest }
            guard try waitFor(fd, events: Int16(POLLOUT), until: Self.now() + timeout) else {
                throw SinkError("Icecast took no data for \(Int(timeout)) s")
            }
        }
        return rest
    }

    /// Sleeps until `fd` is ready for `events`, the broadcast signals, or `deadline`; true when `fd` is
    /// ready. While audio flows, what Icecast sends is read and dropped (after the first audio it
    /// answers the 100 Continue'd request with `HTTP/1.0 200 OK`), and its end is a lost connection.
    private func waitFor(_ fd: Int32, events: Int16, until deadline: Double) throws -> Bool {
        var fds = [pollfd(fd: fd, events: events | Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(max(0, min(60, deadline - Self.now())) * 1000)
        _ = poll(&fds, 2, milliseconds)
        wake.drain()
        let revents = fds[0].revents
        if revents & Int16(POLLIN) != 0 && events & Int16(POLLIN) == 0 {
            var discarded = [UInt8](repeating: 0, count: 1024)
            let count = recv(fd, &discarded, discarded.count, Int32(MSG_DONTWAIT))
            if count == 0 { throw SinkError("Icecast closed the connection") }
            if count < 0 && errno != EAGAIN && errno != EINTR { throw SinkError.system("connection to Icecast lost") }
        } else if revents & Int16(POLLERR | POLLHUP) != 0 {
            throw SinkError("connection to Icecast lost")
        }
        return revents & events != 0
    }

    /// Sleeps between attempts; true when the broadcast ended meanwhile.
    private func sleep(_ seconds: Double) -> Bool {
        let deadline = Self.now() + seconds
        while !broadcast.hasEnded {
            let left = deadline - Self.now()
            guard left > 0 else { return false }
            var waker = pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&waker, 1, Int32(left * 1000) + 1)
            wake.drain()
        }
        return true
    }

    private static func now() -> Double { Double(MonotonicClock.now()) / 1e9 }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool { firstRange(of: subsequence) != nil }
}
