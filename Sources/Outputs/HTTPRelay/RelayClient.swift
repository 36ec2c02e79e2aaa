import Foundation
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a relay server, from its request to its close. Owned and touched by the
/// server thread only, so it needs no lock; its socket is non-blocking and every send takes what
/// the kernel accepts.
final class RelayClient {
    enum State {
        /// The request head is arriving; it must be complete by `deadline`.
        case readingRequest
        /// A listener of a mount whose stream has not started yet, until `deadline`.
        case waitingForStream
        case streaming
        /// Sending a last response, then closing.
        case finishing
        /// The response is out and our side shut: reading until the client closes or `deadline`, so
        /// the kernel does not answer unread input with a reset that destroys the response.
        case lingering
        case closed
    }

    /// How the body of a streaming listener continued after a pump.
    enum PumpOutcome {
        case continuing
        case fellBehind
        case ended
        /// The connection broke (the client reset it); it is closed.
        case failed
    }

    /// The ICY metadata interval for listeners that ask for titles, as Shoutcast uses it.
    static let metaint = 8192
    /// Audio taken from the broadcast per refill of the outbox.
    private static let refillBytes = 16 * 1024

    let fd: Int32
    let peer: String
    let connectedAt: Double
    private(set) var state = State.readingRequest
    private(set) var deadline: Double?
    private(set) var mount: HTTPRelayMount?
    private(set) var bytesSent: Int64 = 0
    private(set) var userAgent: String?
    private(set) var wantsMetadata = false
    /// Set while the kernel's buffer is full: the server then polls for POLLOUT.
    private(set) var blocked = false

    private var requestBytes: [UInt8] = []
    private var outbox: [UInt8] = []
    private var outboxSent = 0
    private var cursor: AudioBroadcast.Cursor?
    private var interleaver: ICYInterleaver?
    private var isHeadRequest = false

    init(fd: Int32, peer: String, now: Double, requestTimeout: Double) {
        self.fd = fd
        self.peer = peer
        connectedAt = now
        deadline = now + requestTimeout
    }

    var pollEvents: Int16 {
        switch state {
        case .readingRequest, .waitingForStream, .lingering: return Int16(POLLIN)
        case .streaming: return Int16(POLLIN) | (blocked ? Int16(POLLOUT) : 0)
        case .finishing: return Int16(POLLOUT)
        case .closed: return 0
        }
    }

    // MARK: Reading the request

    enum RequestProgress {
        case incomplete
        case complete(HTTPRequestHead)
        /// Refuse with this status.
        case refused(Int)
        case gone
    }

    func readRequest() -> RequestProgress {
        var buffer = [UInt8](repeating: 0, count: HTTPRequestHead.maxBytes + 1 - requestBytes.count)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .incomplete : .gone }
        if count == 0 { return .gone }
        requestBytes += buffer[..<count]
        guard let end = HTTPRequestHead.end(in: requestBytes) else {
            return requestBytes.count > HTTPRequestHead.maxBytes ? .refused(431) : .incomplete
        }
        // One byte is read beyond the bound to tell "too long" from "complete": a head ending in it is too long.
        guard end <= HTTPRequestHead.maxBytes else { return .refused(431) }
        do {
            let head = try HTTPRequestHead(requestBytes[..<end])
            userAgent = head[header: "User-Agent"]
            return .complete(head)
        } catch .tooManyHeaders {
            return .refused(431)
        } catch {
            return .refused(400)
        }
    }

    // MARK: Responding

    /// Sends a complete response, then closes.
    func finish(with response: [UInt8], now: Double) {
        state = .finishing
        deadline = now + 5
        outbox = response
        outboxSent = 0
        _ = flush(now: now)
    }

    /// A listener for `mount`, which has not started yet: it waits until `deadline`.
    func wait(for mount: HTTPRelayMount, head: HTTPRequestHead, until deadline: Double) {
        self.mount = mount
        wantsMetadata = head.wantsICYMetadata
        isHeadRequest = head.method == "HEAD"
        state = .waitingForStream
        self.deadline = deadline
    }

    /// Starts the response of a listener whose mount is live. A HEAD request gets the head alone.
    func startStreaming(_ joining: AudioBroadcast.Joining, now: Double) {
        guard let mount else { return }
        var headers = [("Content-Type", joining.contentType), ("Cache-Control", "no-cache, no-store"),
                       ("Connection", "close"), ("Server", "onair")]
        if let name = mount.name { headers.append(("icy-name", name)) }
        if wantsMetadata { headers.append(("icy-metaint", "\(Self.metaint)")) }
        let head = RelayResponse.head(status: 200, headers: headers)
        if isHeadRequest {
            finish(with: head, now: now)
            return
        }
        state = .streaming
        deadline = nil
        outbox = head
        outboxSent = 0
        cursor = joining.cursor
        if wantsMetadata {
            var interleaver = ICYInterleaver(metaint: Self.metaint)
            if let title = joining.title { interleaver.setTitle(title.title, url: title.url) }
            self.interleaver = interleaver
        }
        appendBody(joining.header)
    }

    /// Sends what the listener is due: the outbox, then more from the broadcast, until the kernel's
    /// buffer is full or the listener is at the live edge.
    func pump(now: Double) -> PumpOutcome {
        guard state == .streaming, let mount, var cursor else { return .continuing }
        defer { self.cursor = cursor }
        while true {
            switch flush(now: now) {
            case .failed: return .failed
            case .blocked: return .continuing
            case .done: break
            }
            switch mount.broadcast.read(&cursor, maxBytes: Self.refillBytes) {
            case .fellBehind: return .fellBehind
            case .ended: return .ended
            case .items(let items):
                if items.isEmpty { return .continuing }
                for item in items {
                    switch item {
                    case .audio(let bytes): appendBody(bytes)
                    case .title(let change): interleaver?.setTitle(change.title, url: change.url)
                    }
                }
            }
        }
    }

    private enum FlushOutcome { case done, blocked, failed }

    /// Sends the outbox; a finished final response moves on to the lingering close.
    private func flush(now: Double) -> FlushOutcome {
        while outboxSent < outbox.count {
            let sent = outbox.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + outboxSent, raw.count - outboxSent, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    blocked = true
                    return .blocked
                }
                close()
                return .failed
            }
            outboxSent += sent
            if state == .streaming { bytesSent += Int64(sent) }
        }
        blocked = false
        outbox.removeAll(keepingCapacity: true)
        outboxSent = 0
        if state == .finishing {
            shutdown(fd, Int32(SHUT_WR))
            state = .lingering
            deadline = now + 1
        }
        return .done
    }

    /// Body bytes, with metadata slots for a listener that asked for them.
    private func appendBody<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        if interleaver != nil {
            interleaver!.append(audio: bytes, to: &outbox)
        } else {
            outbox.append(contentsOf: bytes)
        }
    }

    /// Whether the broadcast has moved on past what this listener has yet to send.
    var hasFallenBehind: Bool {
        guard let mount, let cursor else { return false }
        return mount.broadcast.hasLost(cursor)
    }

    /// The kernel has room again for a blocked listener.
    func becameWritable() { blocked = false }

    /// Continues a final response the kernel could not take at once.
    func continueFinishing(now: Double) {
        if state == .finishing { _ = flush(now: now) }
    }

    /// Reads and drops what a client sends after its request; notices when it hangs up.
    func discardInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            close()
            return
        }
    }

    func close() {
        guard state != .closed else { return }
        Glibc.close(fd)
        state = .closed
    }
}
