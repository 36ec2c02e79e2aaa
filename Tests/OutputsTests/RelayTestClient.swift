import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP client of the relay server, for what a well-behaved HTTP client never does: trickle a
/// request, send oversized headers, or stop reading. Used by one thread at a time.
final class RelayTestClient: @unchecked Sendable {
    let fd: Int32

    /// - Parameter receiveBuffer: a small kernel buffer makes a client that stops reading stall at once.
    /// - Parameter from: the client's own loopback address, 127.0.0.`from` (another client, as the server sees it).
    init(port: Int, receiveBuffer: Int32? = nil, from host: UInt32 = 1) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if host != 1 {
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            source.sin_addr.s_addr = in_addr_t(0x7F00_0000 | host).bigEndian
            let bound = withUnsafePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw POSIXError(.EADDRNOTAVAIL) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// Sends the bytes; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } >= 0
    }

    /// Reads until the server closes the connection or `timeout` passes; `closed` says which.
    func readToEnd(timeout: Double) -> (bytes: Data, closed: Bool) {
        var received = Data()
        let deadline = Date(timeIntervalSinceNow: timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (received, false) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return (received, true) }
            received.append(contentsOf: buffer[..<count])
        }
    }

    /// The status code of a response in `bytes`.
    static func status(of bytes: Data) -> Int? {
        let line = String(decoding: bytes.prefix { $0 != 0x0D }, as: UTF8.self)
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
