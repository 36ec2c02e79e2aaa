import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Opening TCP connections, close-on-exec so no child process inherits them.
enum TCPSocket {
    /// A non-blocking connection to the first address of `host` that answers within `timeout` seconds.
    static func connect(host: String, port: Int, timeout: Double) throws -> Int32 {
        var lastError = "no address"
        for address in try NetworkAddress.resolve(host: host, port: port, forListening: false) {
            do {
                return try connect(to: address, timeout: timeout)
            } catch {
                lastError = "\(error)"
            }
        }
        throw SinkError("cannot connect to \(host):\(port): \(lastError)")
    }

    private static func connect(to address: NetworkAddress, timeout: Double) throws -> Int32 {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SinkError.system("socket") }
        var failure: Int32 = 0
        if address.withSocketAddress({ Glibc.connect(fd, $0, $1) }) != 0 {
            failure = errno
            if failure == EINPROGRESS {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var length = socklen_t(MemoryLayout<Int32>.size)
                if poll(&poller, 1, Int32(timeout * 1000)) <= 0 {
                    failure = ETIMEDOUT
                } else if getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 {
                    failure = errno
                }
            }
        }
        guard failure == 0 else {
            close(fd)
            throw SinkError(String(cString: strerror(failure)))
        }
        return fd
    }
}
