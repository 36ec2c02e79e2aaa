import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP receiver that reads raw PCM (Snapcast's tcp source in server mode, `nc -l`, a custom box).
/// Connects with a timeout and reconnects with a growing delay while the receiver is away.
final class TCPPeer: PCMPeer, @unchecked Sendable {  // used only on its sink's writer thread
    let pacesItself = false
    private let host: String
    private let port: Int
    private let connectTimeout: Double
    private let sendBufferBytes: Int32
    private var fd: Int32 = -1

    /// - Parameter sendBufferBytes: the kernel's send buffer, kept small so that a receiver that
    ///   stops reading holds seconds of stale audio in neither the socket nor our buffer.
    init(host: String, port: Int, connectTimeout: Double = 3, sendBufferBytes: Int) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.sendBufferBytes = Int32(clamping: sendBufferBytes)
    }

    private var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    func open() throws -> String {
        do {
            fd = try TCPSocket.connect(host: host, port: port, timeout: connectTimeout)
        } catch {
            throw PeerUnavailable("\(error)")
        }
        var size = sendBufferBytes
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return address
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        while true {
            let sent = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            switch errno {
            case EINTR: continue
            case EAGAIN: return 0
            default: throw PeerUnavailable("\(address): \(String(cString: strerror(errno)))")
            }
        }
    }

    func close() {
        Glibc.close(fd)
        fd = -1
    }

    /// 0.1 s, doubling to 5 s: quick after a blip, light on a receiver that is off for the night.
    func retryDelay(afterFailures failures: Int) -> Double {
        min(5, 0.1 * pow(2, Double(min(failures, 10) - 1)))
    }
}
