import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One SRV record (RFC 2782): a host offering a service, and how strongly to prefer it.
public struct ServiceRecord: Sendable, Equatable {
    public var target: String
    public var port: UInt16
    /// Lower is tried first.
    public var priority: UInt16
    /// Among equal priorities, the share of clients that should pick this host.
    public var weight: UInt16

    public init(target: String, port: UInt16, priority: UInt16, weight: UInt16) {
        self.target = target; self.port = port; self.priority = priority; self.weight = weight
    }
}

/// A DNS server to ask, by numeric IPv4 or IPv6 address.
public struct Nameserver: Sendable, Equatable, CustomStringConvertible {
    public var address: String
    public var port: UInt16

    public init(address: String, port: UInt16 = 53) { self.address = address; self.port = port }

    public var description: String { address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)" }
}

/// Why an SRV lookup found nothing usable.
public struct DNSLookupError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Looks up SRV records with a minimal DNS client over UDP.
///
/// Written out rather than borrowed because glibc answers SRV questions only through libresolv,
/// which this package does not link, and whose parser we could not bound the way this one is:
/// every read is checked against the packet, names may not loop, and answers over 4096 bytes or
/// beyond 64 records are not looked at.
///
/// Blocking: call it from a thread of its own or the main thread, never from Swift's cooperative pool.
public struct DNSServiceLookup: Sendable {
    public var nameservers: [Nameserver]
    /// Seconds to wait for each nameserver before asking the next.
    public var timeout: Double

    public init(nameservers: [Nameserver], timeout: Double = 2) {
        self.nameservers = nameservers; self.timeout = timeout
    }

    /// The system's resolver, as configured in resolv.conf.
    public static func system(resolvConfPath: String = "/etc/resolv.conf") -> DNSServiceLookup {
        let text = (try? String(contentsOfFile: resolvConfPath, encoding: .utf8)) ?? ""
        return DNSServiceLookup(nameservers: nameservers(inResolvConf: text))
    }

    /// The `nameserver` lines of resolv.conf text, at most three: glibc's resolver ignores the rest too.
    public static func nameservers(inResolvConf text: String) -> [Nameserver] {
        let servers = text.split(whereSeparator: \.isNewline).compactMap { line -> Nameserver? in
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count >= 2, words[0] == "nameserver" else { return nil }
            return Nameserver(address: String(words[1]))
        }
        return Array(servers.prefix(3))
    }

    /// The SRV records for `name` (like "_api._tcp.radio-browser.info"), asking each nameserver in
    /// turn until one gives a well-formed answer. An answer without records gives an empty list.
    public func serviceRecords(for name: String) throws -> [ServiceRecord] {
        guard !nameservers.isEmpty else {
            throw DNSLookupError(message: "cannot look up \(name): no nameserver configured")
        }
        var failures: [String] = []
        for server in nameservers {
            let id = UInt16.random(in: .min ... .max)
            do {
                let query = try DNSMessage.serviceQuery(for: name, id: id)
                let answer = try exchange(query, id: id, with: server)
                return try DNSMessage.serviceRecords(in: answer, question: name)
            } catch {
                failures.append("\(server): \(error)")
            }
        }
        throw DNSLookupError(message: "cannot look up \(name): " + failures.joined(separator: "; "))
    }

    /// Sends the query and waits for the datagram that answers it.
    private func exchange(_ query: [UInt8], id: UInt16, with server: Nameserver) throws -> [UInt8] {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(server.address, String(server.port), &hints, &addresses) == 0, let address = addresses else {
            throw DNSLookupError(message: "not a numeric IP address")
        }
        defer { freeaddrinfo(addresses) }
        // Close-on-exec: a child process started meanwhile (ffmpeg, a hook) must not inherit it.
        let socketFD = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                              address.pointee.ai_protocol)
        guard socketFD >= 0 else { throw Self.systemError("cannot open a UDP socket") }
        defer { close(socketFD) }
        // A connected UDP socket receives only the server's datagrams, and learns of a refused port.
        guard connect(socketFD, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            throw Self.systemError("cannot reach")
        }
        guard send(socketFD, query, query.count, 0) == query.count else { throw Self.systemError("cannot send") }

        let deadline = Date().addingTimeInterval(timeout)
        // One byte more than allowed, so an oversized answer shows itself instead of being cut silently.
        var buffer = [UInt8](repeating: 0, count: DNSMessage.maxSize + 1)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw DNSLookupError(message: "no answer within \(Self.format(timeout)) s") }
            var pollEntry = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollEntry, 1, Int32((remaining * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { throw Self.systemError("cannot wait for an answer") }
            guard ready > 0 else { continue }
            let received = recv(socketFD, &buffer, buffer.count, 0)
            if received < 0 {
                if errno == EINTR { continue }
                throw Self.systemError("no answer")
            }
            guard received <= DNSMessage.maxSize else {
                throw DNSLookupError(message: "answer larger than \(DNSMessage.maxSize) bytes")
            }
            let datagram = Array(buffer[..<received])
            // A late answer to an earlier query may still arrive: only ours counts.
            if DNSMessage.id(of: datagram) == id { return datagram }
        }
    }

    private static func systemError(_ what: String) -> DNSLookupError {
        DNSLookupError(message: "\(what): \(String(cString: strerror(errno)))")
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// The parts of the DNS wire format (RFC 1035) an SRV lookup needs.
/// Public for the fuzz target (Fuzz/Targets/dns-srv), which feeds it hostile answers.
public enum DNSMessage {
    static let maxSize = 4096
    static let maxRecords = 64
    static let typeSRV: UInt16 = 33
    static let classIN: UInt16 = 1

    /// A recursive query for the SRV records of `name`.
    static func serviceQuery(for name: String, id: UInt16) throws -> [UInt8] {
        var packet: [UInt8] = []
        func append(_ value: UInt16) { packet += [UInt8(value >> 8), UInt8(value & 0xFF)] }
        append(id)
        append(0x0100) // recursion desired
        append(1)      // one question
        append(0); append(0); append(0)
        let labels = name.hasSuffix(".") ? name.dropLast().split(separator: ".", omittingEmptySubsequences: false)
                                         : name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count), bytes.allSatisfy(isHostnameByte) else {
                throw DNSLookupError(message: "\"\(name)\" is not a valid DNS name")
            }
            packet.append(UInt8(bytes.count))
            packet += bytes
        }
        packet.append(0)
        guard packet.count - 12 <= 255 else { throw DNSLookupError(message: "\"\(name)\" is too long for DNS") }
        append(typeSRV)
        append(classIN)
        return packet
    }

    /// The message id, or nil when the datagram is too short to have one.
    static func id(of packet: [UInt8]) -> UInt16? {
        packet.count >= 2 ? UInt16(packet[0]) << 8 | UInt16(packet[1]) : nil
    }

    /// The SRV records of an answer to the question for `question`'s SRV records.
    /// Records of other types (a CNAME on the way) are skipped, as is a "." target (RFC 2782: no service).
    public static func serviceRecords(in packet: [UInt8], question: String) throws -> [ServiceRecord] {
        guard packet.count <= maxSize else { throw DNSLookupError(message: "answer larger than \(maxSize) bytes") }
        var reader = DNSReader(packet)
        try reader.skip(2) // the id, matched by the caller
        let flags = try reader.uint16()
        guard flags & 0x8000 != 0 else { throw DNSLookupError(message: "got a query, not an answer") }
        guard flags & 0x0200 == 0 else { throw DNSLookupError(message: "the answer was truncated") }
        switch flags & 0x000F {
        case 0: break
        case 3: throw DNSLookupError(message: "no such name")
        case let code: throw DNSLookupError(message: "the nameserver failed (response code \(code))")
        }
        let questionCount = try reader.uint16()
        let answerCount = try reader.uint16()
        try reader.skip(4) // authority and additional counts: those sections are not read
        guard questionCount == 1 else {
            throw DNSLookupError(message: "answer carries \(questionCount) questions instead of ours")
        }
        let echoed = try reader.name()
        let echoedType = try reader.uint16()
        try reader.skip(2)
        guard echoed.lowercased() == Self.trimmingRoot(question).lowercased(), echoedType == typeSRV else {
            throw DNSLookupError(message: "answer to another question (\(echoed))")
        }

        var records: [ServiceRecord] = []
        for _ in 0..<min(Int(answerCount), maxRecords) {
            _ = try reader.name()
            let type = try reader.uint16()
            let recordClass = try reader.uint16()
            try reader.skip(4) // time to live: each lookup is fresh
            let dataLength = Int(try reader.uint16())
            let dataEnd = reader.offset + dataLength
            guard dataEnd <= packet.count else { throw DNSReader.truncated }
            if type == typeSRV && recordClass == classIN {
                let priority = try reader.uint16()
                let weight = try reader.uint16()
                let port = try reader.uint16()
                let target = try reader.name()
                guard reader.offset == dataEnd else {
                    throw DNSLookupError(message: "malformed answer: SRV record length does not match its content")
                }
                if !target.isEmpty {
                    records.append(ServiceRecord(target: target, port: port, priority: priority, weight: weight))
                }
            }
            reader.offset = dataEnd
        }
        return records
    }

    /// Letters, digits, '-' and '_' (service labels): the only bytes a name onair connects to may hold.
    static func isHostnameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    private static func trimmingRoot(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }
}

/// Reads a DNS message, checking every access against its end.
struct DNSReader {
    static let truncated = DNSLookupError(message: "malformed answer: truncated")

    private let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func uint16() throws -> UInt16 {
        guard offset + 2 <= bytes.count else { throw Self.truncated }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func skip(_ count: Int) throws {
        guard offset + count <= bytes.count else { throw Self.truncated }
        offset += count
    }

    /// A domain name, following compression pointers; "" for the root.
    mutating func name() throws -> String {
        var labels: [String] = []
        var position = offset
        // Where the current run of labels began. Every pointer must land before it, so each jump goes
        // further back than the last and a chain of pointers cannot loop.
        var runStart = offset
        var afterFirstPointer: Int?
        var wireLength = 1
        while true {
            guard position < bytes.count else { throw Self.truncated }
            let lengthByte = bytes[position]
            switch lengthByte & 0xC0 {
            case 0x00 where lengthByte == 0:
                offset = afterFirstPointer ?? position + 1
                return labels.joined(separator: ".")
            case 0x00:
                let labelStart = position + 1
                let labelEnd = labelStart + Int(lengthByte)
                guard labelEnd <= bytes.count else { throw Self.truncated }
                wireLength += 1 + Int(lengthByte)
                guard wireLength <= 255 else {
                    throw DNSLookupError(message: "malformed answer: name longer than 255 bytes")
                }
                let label = bytes[labelStart..<labelEnd]
                guard label.allSatisfy(DNSMessage.isHostnameByte) else {
                    throw DNSLookupError(message: "malformed answer: name with characters a host name cannot have")
                }
                labels.append(String(decoding: label, as: UTF8.self))
                position = labelEnd
            case 0xC0:
                guard position + 1 < bytes.count else { throw Self.truncated }
                let target = Int(lengthByte & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < runStart else {
                    throw DNSLookupError(message: "malformed answer: name compression pointer does not point back")
                }
                if afterFirstPointer == nil { afterFirstPointer = position + 2 }
                position = target
                runStart = target
            default:
                throw DNSLookupError(message: "malformed answer: unknown label type")
            }
        }
    }
}
