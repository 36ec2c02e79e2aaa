import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failed socket call, with the errno text.
public struct SocketError: Error, CustomStringConvertible {
    public let operation: String
    public let code: Int32

    init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}

/// Thin wrappers over the POSIX socket calls the fixtures need, IPv4 loopback only.
/// Sockets are created close-on-exec so child processes (ffmpeg, curl) never inherit them.
public enum LoopbackSocket {
    /// A listening socket on 127.0.0.1; port 0 lets the kernel pick a free one.
    public static func listen(port: UInt16 = 0, backlog: Int32 = 64) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let error = SocketError("bind/listen 127.0.0.1:\(port)")
            Glibc.close(fd)
            throw error
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    public static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = SocketError("connect 127.0.0.1:\(port)")
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// Writes all bytes. MSG_NOSIGNAL: a vanished peer is an error here, not a SIGPIPE for the test process.
    public static func sendAll(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw SocketError("send")
                }
                offset += sent
            }
        }
    }

    /// Reads what is available, waiting at most `timeout` seconds (forever when nil).
    /// Returns nil at end of stream and empty data on timeout.
    public static func receive(_ fd: Int32, maxBytes: Int = 65536, timeout: TimeInterval?) throws -> Data? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32((max(0, $0) * 1000).rounded(.up)) } ?? -1
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0 {
            if errno == EINTR { return Data() }
            throw SocketError("poll")
        }
        if ready == 0 { return Data() }
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let count = recv(fd, &buffer, maxBytes, 0)
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return Data() }
            throw SocketError("recv")
        }
        return count == 0 ? nil : Data(buffer[0..<count])
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}

/// A loopback TCP port that was free a moment ago, for servers we launch as separate processes
/// (Icecast). Another process may take it before ours binds, so launchers retry on a bind failure.
public enum FreePort {
    /// Whether something listens on the loopback port (for servers started as processes).
    public static func isAccepting(_ port: UInt16) -> Bool {
        guard let fd = try? LoopbackSocket.connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// A port for a server the test starts later (a process, or a server that binds by itself). Not one the kernel
    /// hands out: a port from its ephemeral range (`ip_local_port_range`, 32768–60999 here), closed again, was taken
    /// as the local port of some other connection before the server bound it ("the port is in use", seen in CI's
    /// parallel test groups). So it is drawn from below that range, and claimed for the life of this test process with
    /// a lock file that every test process honours, so no two test processes, and no two picks in one, share it.
    public static func pick() throws -> UInt16 {
        let claims = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("onair-test-ports")
        try? FileManager.default.createDirectory(at: claims, withIntermediateDirectories: true)
        for _ in 0..<500 {
            let port = UInt16.random(in: 10_000...32_000)
            let claim = open(claims.appendingPathComponent("\(port)").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
            guard claim >= 0 else { continue }
            // Kept open (and locked) until the process exits; another open of the file, here or elsewhere, cannot lock it.
            guard flock(claim, LOCK_EX | LOCK_NB) == 0 else { close(claim); continue }
            guard let (fd, _) = try? LoopbackSocket.listen(port: port) else { continue }
            close(fd)
            return port
        }
        throw SocketError("finding a free loopback port below the ephemeral range", code: EADDRINUSE)
    }
}

/// HTTP header fields in order, looked up case-insensitively.
public struct HTTPHeaders: Sendable, CustomStringConvertible {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Parses `Name: value` lines; lines without a colon are ignored.
    init<Lines: Sequence>(lines: Lines) where Lines.Element: StringProtocol {
        fields = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    /// The first value of the field, any letter case.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

/// A response read off the wire without interpretation: any status line (including `ICY 200 OK`),
/// the headers, and the body bytes exactly as sent (ICY metadata blocks included).
public struct RawHTTPResponse: Sendable {
    public let statusLine: String
    public let headers: HTTPHeaders
    public let body: Data

    /// The number after the protocol in the status line (`HTTP/1.0 200 OK`, `ICY 200 OK`).
    public var statusCode: Int? {
        statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A minimal HTTP/1.0 client for loopback servers, for checking what a server really sends
/// (libcurl and URLSession reject or rewrite `ICY 200 OK` and other oddities).
public enum RawHTTP {
    /// Sends `GET` and reads the response.
    ///
    /// - Parameters:
    ///   - url: `http://[USER:PASSWORD@]127.0.0.1:PORT/path?query` (also `localhost`); credentials
    ///     in the URL become a Basic `Authorization` header.
    ///   - duration: for endless streams: stop reading after this many seconds and return what arrived.
    ///   - maxBodyBytes: stop once this much body has arrived (the body is cut to exactly this size).
    ///   - timeout: give up when nothing arrives for this long (unless `duration` has passed).
    public static func get(
        _ url: URL,
        headers: [(String, String)] = [],
        duration: TimeInterval? = nil,
        maxBodyBytes: Int? = nil,
        timeout: TimeInterval = 10
    ) throws -> RawHTTPResponse {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.scheme == "http", ["127.0.0.1", "localhost"].contains(components.host),
              let port = components.port
        else { throw SocketError("RawHTTP needs http://127.0.0.1:PORT/…, got \(url)", code: EINVAL) }

        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?\(query)" }
        var request = "GET \(target) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: onair-tests\r\n"
        if let user = components.user {
            let credentials = Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
            request += "Authorization: Basic \(credentials)\r\n"
        }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"

        let fd = try LoopbackSocket.connect(port: UInt16(port))
        defer { close(fd) }
        try LoopbackSocket.sendAll(fd, Data(request.utf8))

        let start = Date()
        var received = Data()
        var head: (statusLine: String, headers: HTTPHeaders, bodyStart: Int)?
        while true {
            if let head, let maxBodyBytes, received.count - head.bodyStart >= maxBodyBytes { break }
            var wait = timeout
            if let duration {
                let remaining = duration - Date().timeIntervalSince(start)
                if remaining <= 0 { break }
                wait = min(wait, remaining)
            }
            guard let chunk = try LoopbackSocket.receive(fd, timeout: wait) else { break }
            if chunk.isEmpty {
                if wait < timeout { continue }  // the capture window is over
                throw SocketError("read from \(url) (nothing for \(timeout) s)", code: ETIMEDOUT)
            }
            received.append(chunk)
            if head == nil { head = parseHead(received) }
        }
        guard let head else {
            throw SocketError("read response head from \(url) (got \(received.count) bytes)", code: EPROTO)
        }
        var body = received.subdata(in: head.bodyStart..<received.count)
        if let maxBodyBytes, body.count > maxBodyBytes { body = body.prefix(maxBodyBytes) }
        return RawHTTPResponse(statusLine: head.statusLine, headers: head.headers, body: body)
    }

    /// Sends `request` as written (the test's own head and body) to 127.0.0.1:`port` and reads the answer
    /// until the server closes or `timeout` passes; returns its status and the whole text.
    public static func exchange(_ request: String, port: Int, timeout: TimeInterval = 5) throws -> (status: Int?, text: String) {
        let fd = try LoopbackSocket.connect(port: UInt16(port))
        defer { close(fd) }
        try LoopbackSocket.sendAll(fd, Data(request.utf8))
        var received = Data()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while deadline.timeIntervalSinceNow > 0, let chunk = try LoopbackSocket.receive(fd, timeout: deadline.timeIntervalSinceNow), !chunk.isEmpty {
            received.append(chunk)
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        return (status, text)
    }

    /// Splits off the status line and headers once the blank line has arrived.
    static func parseHead(_ data: Data) -> (statusLine: String, headers: HTTPHeaders, bodyStart: Int)? {
        let bytes = [UInt8](data)
        guard let end = headEnd(bytes) else { return nil }
        let lines = String(decoding: bytes[..<end.headLength], as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        return (String(lines.first ?? ""), HTTPHeaders(lines: lines.dropFirst()), end.bodyStart)
    }

    /// Where the head ends (`\r\n\r\n`, or `\n\n` from sloppy servers) and the body begins.
    private static func headEnd(_ bytes: [UInt8]) -> (headLength: Int, bodyStart: Int)? {
        for index in bytes.indices where bytes[index] == 0x0A {
            if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index, index + 2) }
            if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
                return (index, index + 3)
            }
        }
        return nil
    }
}
