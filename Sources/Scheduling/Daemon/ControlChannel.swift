import Foundation
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's local control channel: a Unix socket (`daemon.sock` in the data directory, readable
/// only by its user). A client sends one line (a JSON request, see the Engine's `ControlRequest`) and
/// reads one JSON object back until the daemon closes the connection. This is the transport only.
public enum ControlChannel {
    public static let socketName = "daemon.sock"

    /// Sends `request` (one line, without its newline) and returns the answer; throws if no daemon listens at `path`.
    public static func send(_ request: Data, to path: String, timeout: TimeInterval = 5) throws(ScheduleError) -> Data {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ScheduleError("cannot create a socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard var address = socketAddress(path) else { throw ScheduleError("socket path too long: \(path)") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw ScheduleError("no onair daemon is running (nothing listens at \(path))") }
        let line = Array(request + Data("\n".utf8))
        guard write(descriptor, line, line.count) == line.count else { throw ScheduleError("cannot talk to the daemon at \(path)") }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 { answer.append(contentsOf: buffer[0..<count]); continue }
            guard count == 0 else { throw ScheduleError("the daemon did not answer in \(Int(timeout)) s") }
            return answer
        }
    }

    static func socketAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}

/// The daemon's end of the control channel: one thread accepting connections, each client answered
/// by `handle` (a request's line in, a JSON answer out) on a thread of its own, so a request that takes
/// a while (starting a job connects to its station) or a client that dawdles holds nobody else up.
public final class ControlServer: Sendable {
    public let path: String
    private let descriptor: Int32
    private let handle: @Sendable (Data) -> Data
    private let clientTimeout: TimeInterval
    private let closed = Locked(false)
    /// Clients being answered now; past `concurrentClients` a new one is refused at once.
    private let answering = Locked(0)

    /// - Parameter clientTimeout: how long one client may take to send its request and take its answer.
    public init(path: String, clientTimeout: TimeInterval = 2, handle: @escaping @Sendable (Data) -> Data) throws(ScheduleError) {
        self.path = path
        self.handle = handle
        self.clientTimeout = clientTimeout
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ScheduleError("cannot create a socket: \(String(cString: strerror(errno)))") }
        guard var address = ControlChannel.socketAddress(path) else {
            close(descriptor)
            throw ScheduleError("socket path too long: \(path)")
        }
        // A socket left by a daemon that died; the daemon lock already says none is running.
        unlink(path)
        let previous = umask(0o077)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ScheduleError("cannot listen at \(path): \(reason)")
        }
        let thread = Thread { [self] in serve() }
        thread.name = "onair-control"
        thread.start()
    }

    public func stop() {
        let first = closed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        // Shut down, not closed: that wakes the accept thread, which closes the socket itself. Closed here,
        // its number could go to the next socket opened (another server's) before the thread's next
        // accept, which would then answer that server's clients.
        shutdown(descriptor, Int32(SHUT_RDWR))
        unlink(path)
    }

    private func serve() {
        defer { close(descriptor) }
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 {
                // Only stop() ends this thread: had it left (and closed the socket) on another error, such
                // as running out of descriptors, stop() would shut down whatever socket got that number next.
                if closed.current { return }
                if errno != EINTR { Thread.sleep(forTimeInterval: 0.05) }
                continue
            }
            let admitted = answering.withLock { count -> Bool in
                guard count < Self.concurrentClients else { return false }
                count += 1
                return true
            }
            guard admitted else {
                close(client)
                continue
            }
            let thread = Thread { [self] in
                answer(client)
                close(client)
                answering.withLock { $0 -= 1 }
            }
            thread.name = "onair-control-client"
            thread.start()
        }
    }

    /// Clients answered at once; more is a flood (each holds a thread for at most `clientTimeout`).
    static let concurrentClients = 16
    /// The longest request read; the commands are a few bytes.
    static let requestLimit = 4096

    private func answer(_ client: Int32) {
        let deadline = Date(timeIntervalSinceNow: clientTimeout)
        var sendTime = timeval(tv_sec: Int(clientTimeout), tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &sendTime, socklen_t(MemoryLayout<timeval>.size))
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: Self.requestLimit)
        while !request.contains(UInt8(ascii: "\n")), request.count < Self.requestLimit {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            var time = timeval(tv_sec: Int(remaining), tv_usec: Int(remaining.truncatingRemainder(dividingBy: 1) * 1e6))
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            let count = read(client, &buffer, Self.requestLimit - request.count)
            guard count > 0 else { break }
            request.append(contentsOf: buffer[0..<count])
        }
        let reply = Array(handle(Data(request.prefix { $0 != UInt8(ascii: "\n") })))
        var sent = 0
        while sent < reply.count {
            let count = reply[sent...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
