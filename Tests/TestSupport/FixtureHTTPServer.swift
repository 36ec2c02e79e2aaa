import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.x server for fault injection: each route's handler writes raw bytes, so it can
/// answer `ICY 200 OK`, send any `icy-metaint`, malformed metadata, garbage, redirects anywhere,
/// stall, or drop the connection mid-stream.
///
/// It listens on 127.0.0.1 and a port the kernel picks, serves each connection on a thread of its
/// own, and handles one request per connection (responses should not promise keep-alive; the
/// convenience handlers send `Connection: close`). A route whose path ends in `/` also serves
/// everything below it; otherwise paths match exactly (raw, query excluded). Unknown paths get 404.
///
///     let server = try FixtureHTTPServer(routes: [
///         "/station.pls": FixtureHTTPServer.file(Data(pls.utf8), contentType: "audio/x-scpls"),
///         "/moved": FixtureHTTPServer.redirect(to: "file:///etc/passwd"),
///     ])
///     server.route("/live") { request, connection in
///         try connection.sendStatus(line: "ICY 200 OK", headers: [("icy-metaint", "8192")])
///         try connection.send(firstBytes)
///         try connection.sleep(5)   // stall
///         connection.close()        // drop
///     }
///     defer { server.stop() }
public final class FixtureHTTPServer: Sendable {
    /// Answers one request. Throwing ends the connection (expected when the client goes away).
    public typealias Handler = @Sendable (FixtureRequest, FixtureConnection) throws -> Void

    public let port: UInt16
    private let state: ServerState

    public init(routes: [String: Handler] = [:]) throws {
        let (listener, port) = try LoopbackSocket.listen()
        self.port = port
        state = ServerState(listener: listener, routes: routes)
        state.startAccepting()
    }

    /// `http://127.0.0.1:PORT`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of a path (with an optional query) on this server, e.g. `url("/a.pls?x=1")`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Adds or replaces a route; takes effect for the next request.
    public func route(_ path: String, _ handler: @escaping Handler) {
        state.setRoute(path, handler)
    }

    /// Serves the files below `directory` at `prefix` (which must end in `/`), read at request time,
    /// so a live HLS directory that ffmpeg keeps rewriting is served as it is now (use ffmpeg's
    /// `-hls_flags temp_file` so a playlist is never read half-written).
    public func serveDirectory(_ directory: URL, at prefix: String) {
        route(prefix, Self.directory(directory, at: prefix))
    }

    /// The handler `serveDirectory` installs, for wrapping in one that injects faults first.
    public static func directory(_ directory: URL, at prefix: String) -> Handler {
        precondition(prefix.hasSuffix("/"), "a directory prefix ends in /")
        return { request, connection in
            let relative = String(request.path.dropFirst(prefix.count))
            guard let name = relative.removingPercentEncoding,
                  !name.split(separator: "/").contains(".."),
                  let data = try? Data(contentsOf: directory.appendingPathComponent(name))
            else { return try Self.status(404)(request, connection) }
            let type = Self.mediaTypes[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
            try Self.file(data, contentType: type)(request, connection)
        }
    }

    /// How many requests arrived for this exact path (query ignored), whatever their outcome.
    public func requestCount(_ path: String) -> Int {
        state.requests().filter { $0.path == path }.count
    }

    /// The requests received so far, in arrival order; only those for `path` when given.
    public func requests(_ path: String? = nil) -> [FixtureRequest] {
        state.requests().filter { path == nil || $0.path == path }
    }

    /// Closes the listener and every open connection (handlers blocked in `send` or `sleep` return
    /// with an error) and waits for all connection threads. Idempotent; also run on deinit.
    /// Do not call it from inside a handler.
    public func stop() {
        state.stop()
    }

    deinit { stop() }

    private static let mediaTypes = [
        "m3u8": "application/vnd.apple.mpegurl", "m3u": "audio/x-mpegurl", "pls": "audio/x-scpls",
        "ts": "video/mp2t", "aac": "audio/aac", "mp3": "audio/mpeg", "m4s": "audio/mp4", "mp4": "audio/mp4",
        "ogg": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "key": "application/octet-stream",
        "mpd": "application/dash+xml", "webm": "audio/webm",
    ]
}

// MARK: - Convenience handlers

extension FixtureHTTPServer {
    /// `200 OK` with the bytes, a Content-Type and a Content-Length (headers only for HEAD).
    public static func file(_ data: Data, contentType: String, headers: [(String, String)] = []) -> Handler {
        return { request, connection in
            try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [
                ("Content-Type", contentType), ("Content-Length", "\(data.count)"), ("Connection", "close"),
            ] + headers)
            if request.method != "HEAD" { try connection.send(data) }
        }
    }

    /// The bytes as a web server with range requests serves them: `Range: bytes=A-B` (or `A-`) gets
    /// 206 Partial Content with a Content-Range; without a Range, 200 and everything. `served` counts the
    /// body bytes sent.
    public static func rangedFile(_ data: Data, contentType: String, served: Counter) -> Handler {
        return { request, connection in
            var range = 0..<data.count
            if let header = request.headers["Range"], header.hasPrefix("bytes=") {
                let bounds = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
                let first = Int(bounds.first ?? "") ?? 0
                let last = bounds.count > 1 ? Int(bounds[1]) ?? data.count - 1 : data.count - 1
                guard first < data.count else {
                    return try connection.sendStatus(line: "HTTP/1.0 416 Range Not Satisfiable",
                                                     headers: [("Content-Range", "bytes */\(data.count)"), ("Connection", "close")])
                }
                range = first..<min(last + 1, data.count)
                try connection.sendStatus(line: "HTTP/1.0 206 Partial Content", headers: [
                    ("Content-Type", contentType), ("Content-Length", "\(range.count)"), ("Accept-Ranges", "bytes"),
                    ("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(data.count)"), ("Connection", "close"),
                ])
            } else {
                try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [
                    ("Content-Type", contentType), ("Content-Length", "\(data.count)"), ("Accept-Ranges", "bytes"), ("Connection", "close"),
                ])
            }
            guard request.method != "HEAD" else { return }
            try connection.send(data.subdata(in: range))
            served.add(range.count)
        }
    }

    /// A redirect (301, 302, 303, 307 or 308) to any location, relative, absolute or another scheme.
    public static func redirect(to location: String, code: Int = 302) -> Handler {
        return { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 \(code) \(reasonPhrase(code))", headers: [
                ("Location", location), ("Content-Length", "0"), ("Connection", "close"),
            ])
        }
    }

    /// A bare status, e.g. `status(404)` or `status(503)`, with a one-line text body.
    public static func status(_ code: Int) -> Handler {
        let body = Data("\(code) \(reasonPhrase(code))\n".utf8)
        return { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 \(code) \(reasonPhrase(code))", headers: [
                ("Content-Type", "text/plain"), ("Content-Length", "\(body.count)"), ("Connection", "close"),
            ])
            try connection.send(body)
        }
    }

    /// An ICY stream the way Shoutcast/Icecast serve one: with metadata interleaved (and an
    /// `icy-metaint` header) only when the request says `Icy-MetaData: 1`, else the audio alone.
    ///
    /// - Parameters:
    ///   - statusLine: `ICY 200 OK` (Shoutcast v1) or `HTTP/1.0 200 OK` (Icecast).
    ///   - headers: more headers, e.g. `("icy-name", "Test FM")`, `("icy-br", "128")`.
    ///   - bytesPerSecond: audio pace (16000 for 128 kbit/s in real time); nil sends at full speed.
    public static func icyStream(
        _ stream: ICYStreamWriter,
        statusLine: String = "ICY 200 OK",
        contentType: String = "audio/mpeg",
        headers: [(String, String)] = [],
        bytesPerSecond: Int? = nil
    ) -> Handler {
        return { request, connection in
            let wantsMetadata = request.headers["Icy-MetaData"] == "1"
            var responseHeaders = [("Content-Type", contentType)]
            if wantsMetadata { responseHeaders.append(("icy-metaint", "\(stream.metaint)")) }
            try connection.sendStatus(line: statusLine, headers: responseHeaders + headers)
            try stream.stream(to: connection, bytesPerSecond: bytesPerSecond, includeMetadata: wantsMetadata)
        }
    }

    static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 410: return "Gone"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status \(code)"
        }
    }
}

// MARK: - Request and connection

/// A parsed request head (and body, when it came with a Content-Length).
public struct FixtureRequest: Sendable {
    public let method: String
    /// The request target as sent, e.g. `/a.pls?x=1`.
    public let target: String
    /// The target without its query, not percent-decoded.
    public let path: String
    /// Query parameters, percent-decoded; the last one wins when a name repeats.
    public let query: [String: String]
    /// `HTTP/1.1`, `HTTP/1.0`, …
    public let version: String
    public let headers: HTTPHeaders
    public let body: Data
}

public enum FixtureConnectionError: Error {
    /// The handler closed the connection and then wrote to it.
    case closed
    /// The server is stopping; the handler should return.
    case serverStopped
}

/// One client connection, used by its handler on the connection's thread.
public final class FixtureConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var fd: Int32
    private var closing = false
    private var sentCount = 0
    /// Bytes that arrived after the request head; only the connection's thread touches them.
    private var pending = Data()
    private let stopSignal: StopSignal

    fileprivate init(fd: Int32, stopSignal: StopSignal) {
        self.fd = fd
        self.stopSignal = stopSignal
    }

    /// Writes a status line (e.g. `HTTP/1.0 200 OK`, `ICY 200 OK`), the headers and the blank line.
    public func sendStatus(line: String, headers: [(String, String)] = []) throws {
        var head = line + "\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try send(Data(head.utf8))
    }

    /// Writes raw bytes; throws once the client is gone or the server stops.
    public func send(_ data: Data) throws {
        lock.lock()
        let socket = closing ? -1 : fd
        lock.unlock()
        guard socket >= 0 else { throw FixtureConnectionError.closed }
        try LoopbackSocket.sendAll(socket, data)
        lock.lock()
        sentCount += data.count
        lock.unlock()
    }

    /// Writes the UTF-8 bytes of a string.
    public func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Bytes written so far, headers included.
    public var bytesSent: Int {
        lock.lock()
        defer { lock.unlock() }
        return sentCount
    }

    /// Holds the connection without writing (a stall); throws early if the server stops meanwhile.
    public func sleep(_ seconds: TimeInterval) throws {
        if stopSignal.wait(seconds) { throw FixtureConnectionError.serverStopped }
    }

    /// Reads what the client sends after the request head (e.g. a streamed upload).
    /// Returns nil at end of stream and empty data on timeout.
    public func receive(maxBytes: Int = 65536, timeout: TimeInterval) throws -> Data? {
        if !pending.isEmpty {
            let chunk = pending.prefix(maxBytes)
            pending.removeFirst(chunk.count)
            return Data(chunk)
        }
        guard let socket = openSocket() else { return nil }
        return try LoopbackSocket.receive(socket, maxBytes: maxBytes, timeout: timeout)
    }

    /// False once the client has closed or reset its end.
    public var isClientConnected: Bool {
        guard let socket = openSocket() else { return false }
        let peerClosed: Int16 = 0x2000  // POLLRDHUP, which Glibc only exports under _GNU_SOURCE
        var poller = pollfd(fd: socket, events: Int16(POLLIN) | peerClosed, revents: 0)
        guard poll(&poller, 1, 0) >= 0 else { return false }
        if poller.revents & (Int16(POLLHUP) | Int16(POLLERR) | peerClosed) != 0 { return false }
        if poller.revents & Int16(POLLIN) != 0 {
            var byte: UInt8 = 0
            return recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) != 0
        }
        return true
    }

    /// Ends the response with a normal close (FIN). The server also does this after the handler returns.
    public func close() {
        lock.lock()
        guard !closing, fd >= 0 else { return lock.unlock() }
        closing = true
        let socket = fd
        lock.unlock()
        // Closing with unread input makes the kernel send RST, which can destroy response bytes the
        // client has not read yet; so half-close first and drain briefly until the client hangs up.
        shutdown(socket, Int32(SHUT_WR))
        let deadline = Date(timeIntervalSinceNow: 1)
        while Date() < deadline, let chunk = try? LoopbackSocket.receive(socket, timeout: deadline.timeIntervalSinceNow),
              !chunk.isEmpty {}
        release(socket)
    }

    /// Aborts the connection with a TCP reset, as a crashing server or a middlebox would.
    public func reset() {
        lock.lock()
        guard !closing, fd >= 0 else { return lock.unlock() }
        closing = true
        let socket = fd
        lock.unlock()
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        release(socket)
    }

    /// Wakes any blocked read or write on this connection (server shutdown).
    fileprivate func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Reads and parses the request head (and a Content-Length body); nil if the client sent none.
    fileprivate func readRequest() throws -> FixtureRequest? {
        guard let socket = openSocket() else { return nil }
        var buffer = Data()
        while true {
            if let head = RawHTTP.parseHead(buffer) {
                let parts = head.statusLine.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard parts.count >= 2 else { return nil }
                pending = buffer.subdata(in: head.bodyStart..<buffer.count)
                let length = head.headers["Content-Length"].flatMap { Int($0) } ?? 0
                while pending.count < length {
                    guard let chunk = try LoopbackSocket.receive(socket, timeout: nil) else { break }
                    pending.append(chunk)
                }
                let body = pending.prefix(length)
                pending.removeFirst(body.count)
                let target = parts[1]
                let (path, query) = Self.split(target: target)
                return FixtureRequest(method: parts[0], target: target, path: path, query: query,
                                      version: parts.count > 2 ? parts[2] : "HTTP/0.9",
                                      headers: head.headers, body: Data(body))
            }
            guard buffer.count < 65536, let chunk = try LoopbackSocket.receive(socket, timeout: nil) else {
                return nil
            }
            buffer.append(chunk)
        }
    }

    private static func split(target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(nameAndValue[0])
            let value = nameAndValue.count > 1 ? String(nameAndValue[1]) : ""
            query[name.removingPercentEncoding ?? name] = value.removingPercentEncoding ?? value
        }
        return (String(target[..<mark]), query)
    }

    private func openSocket() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        return closing || fd < 0 ? nil : fd
    }

    private func release(_ socket: Int32) {
        lock.lock()
        fd = -1
        lock.unlock()
        Glibc.close(socket)
    }
}

// MARK: - Server internals

/// A one-way flag threads can sleep on: set when the server stops.
final class StopSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var fired = false

    func fire() {
        condition.lock()
        fired = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps up to `seconds`; true (at once) if the signal fired.
    func wait(_ seconds: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !fired, condition.wait(until: deadline) {}
        return fired
    }
}

/// What the listener and connection threads share. Kept apart from `FixtureHTTPServer` so the
/// threads do not keep the server object alive: dropping the server stops it.
private final class ServerState: @unchecked Sendable {
    private let lock = NSLock()
    private let listener: Int32
    private var routes: [String: FixtureHTTPServer.Handler]
    private var log: [FixtureRequest] = []
    private var connections: [ObjectIdentifier: FixtureConnection] = [:]
    private var stopped = false
    private let stopSignal = StopSignal()
    private let threads = DispatchGroup()

    init(listener: Int32, routes: [String: FixtureHTTPServer.Handler]) {
        self.listener = listener
        self.routes = routes
    }

    func startAccepting() {
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "fixture-http-accept"
        thread.start()
    }

    func setRoute(_ path: String, _ handler: @escaping FixtureHTTPServer.Handler) {
        lock.lock()
        routes[path] = handler
        lock.unlock()
    }

    func requests() -> [FixtureRequest] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    func stop() {
        lock.lock()
        guard !stopped else { return lock.unlock() }
        stopped = true
        let open = Array(connections.values)
        lock.unlock()

        stopSignal.fire()
        shutdown(listener, Int32(SHUT_RDWR))  // wakes accept() with EINVAL
        open.forEach { $0.interrupt() }
        _ = threads.wait(timeout: .now() + 10)
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // accept4 is not exported without _GNU_SOURCE
            let connection = FixtureConnection(fd: client, stopSignal: stopSignal)
            lock.lock()
            if stopped {
                lock.unlock()
                connection.reset()
                return
            }
            connections[ObjectIdentifier(connection)] = connection
            threads.enter()
            lock.unlock()

            let thread = Thread { [self] in
                serve(connection)
                lock.lock()
                connections[ObjectIdentifier(connection)] = nil
                lock.unlock()
                threads.leave()
            }
            thread.name = "fixture-http-connection"
            thread.start()
        }
    }

    private func serve(_ connection: FixtureConnection) {
        defer { connection.close() }
        guard let request = try? connection.readRequest() else { return }
        lock.lock()
        log.append(request)
        let handler = handler(for: request.path) ?? FixtureHTTPServer.status(404)
        lock.unlock()
        do {
            try handler(request, connection)
        } catch is FixtureConnectionError {
        } catch let error as SocketError where [EPIPE, ECONNRESET].contains(error.code) {
            // The client went away or the server stopped: the normal end of a stream.
        } catch {
            FileHandle.standardError.write(Data("FixtureHTTPServer: handler for \(request.target) threw \(error)\n".utf8))
        }
    }

    /// Exact match first, then the longest route ending in `/` that prefixes the path. Lock held.
    private func handler(for path: String) -> FixtureHTTPServer.Handler? {
        if let exact = routes[path] { return exact }
        return routes
            .filter { $0.key.hasSuffix("/") && path.hasPrefix($0.key) }
            .max { $0.key.count < $1.key.count }?
            .value
    }
}
