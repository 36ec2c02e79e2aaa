import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP server that takes raw PCM the way a Snapcast tcp source or a networked speaker
/// does: each connection is read by a `PCMCapture`, and a test can hang up on the current one to
/// see the sender reconnect.
public final class TCPPCMReceiver: @unchecked Sendable {
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var accepted: [PCMCapture] = []
    private var stopped = false

    public init() throws {
        (listener, port) = try LoopbackSocket.listen()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "tcp-pcm-receiver"
        thread.start()
    }

    /// The connections so far, oldest first.
    public var connections: [PCMCapture] { lock.withLock { accepted } }

    /// Waits until at least `count` connections have arrived.
    public func waitForConnections(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while connections.count < count {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// Hangs up on the newest connection, as a receiver that restarts would.
    public func dropNewest() {
        connections.last?.stop()
    }

    public func stop() {
        let open = lock.withLock { () -> [PCMCapture] in
            stopped = true
            return accepted
        }
        shutdown(listener, Int32(SHUT_RDWR))
        open.forEach { $0.stop() }
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let capture = PCMCapture(descriptor: client)
            let keep = lock.withLock { () -> Bool in
                if !stopped { accepted.append(capture) }
                return !stopped
            }
            if !keep { capture.stop() }
        }
    }
}
