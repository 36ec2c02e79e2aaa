import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address, as resolved for binding or connecting, or as a peer was accepted.
package struct NetworkAddress: CustomStringConvertible, @unchecked Sendable {  // a plain C address value, no pointers
    package var storage = sockaddr_storage()
    package var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    package var family: Int32 { Int32(storage.ss_family) }

    /// Every address of `host` (a name or a numeric address) for TCP, in the resolver's order.
    package static func resolve(host: String, port: Int, forListening: Bool) throws -> [NetworkAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (forListening ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let result = getaddrinfo(host, String(port), &hints, &list)
        guard result == 0, let list else {
            throw SinkError("cannot resolve \(host): \(String(cString: gai_strerror(result)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [NetworkAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let source = info.ai_addr else { continue }
            var address = NetworkAddress()
            address.length = info.ai_addrlen
            withUnsafeMutableBytes(of: &address.storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: source, count: Int(info.ai_addrlen)))
            }
            addresses.append(address)
        }
        return addresses
    }

    /// 127.0.0.0/8, ::1, or an IPv4-mapped loopback: reachable from this machine only.
    package var isLoopback: Bool {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                let address = raw.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, as: UInt32.self)
                return UInt32(bigEndian: address) >> 24 == 127
            case AF_INET6:
                let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                let bytes = Array(raw[offset..<offset + 16])
                let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                return bytes == [UInt8](repeating: 0, count: 15) + [1] || (mapped && bytes[12] == 127)
            default:
                return false
            }
        }
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    package var description: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        var copy = storage
        let result = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                            NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard result == 0 else { return "?" }
        let name = Self.string(host)
        return name.contains(":") ? "[\(name)]:\(Self.string(service))" : "\(name):\(Self.string(service))"
    }

    private static func string(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
