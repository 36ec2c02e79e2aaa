import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What passed through a `FixtureHTTPServer.relay` route: the upstream's answer exactly as the client
/// got it. A recorder test reads it to know what the recorder received — byte for byte, with the ICY
/// blocks where they were — rather than what another listener of the same server happened to get.
public final class RelayCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var storedHead = ""
    private var storedBody = Data()

    public init() {}

    /// The response head (status line and headers).
    public var head: String { lock.withLock { storedHead } }
    /// The body, metadata blocks included when the client asked for them.
    public var body: Data { lock.withLock { storedBody } }

    /// The `icy-metaint` the upstream announced, if any.
    public var metaint: Int? {
        head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "icy-metaint" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
    }

    fileprivate func setHead(_ head: String) { lock.withLock { storedHead = head } }
    fileprivate func append(_ data: Data) { lock.withLock { storedBody.append(data) } }
}

extension FixtureHTTPServer {
    /// Forwards each GET to the same path on 127.0.0.1:`upstreamPort` (asking for ICY metadata when the
    /// client does) and relays the answer unchanged, keeping a copy in `capture`.
    public static func relay(upstreamPort: UInt16, capture: RelayCapture) -> Handler {
        return { request, connection in
            let upstream = try LoopbackSocket.connect(port: upstreamPort)
            defer { Glibc.close(upstream) }
            var head = "GET \(request.target) HTTP/1.0\r\nHost: 127.0.0.1:\(upstreamPort)\r\nUser-Agent: onair-test-relay\r\n"
            if let metadata = request.headers["Icy-MetaData"] { head += "Icy-MetaData: \(metadata)\r\n" }
            try LoopbackSocket.sendAll(upstream, Data((head + "\r\n").utf8))
            var received = Data()
            while received.range(of: Data("\r\n\r\n".utf8)) == nil {
                guard let chunk = try LoopbackSocket.receive(upstream, timeout: 10), !chunk.isEmpty else { return }
                received.append(chunk)
            }
            let headEnd = received.range(of: Data("\r\n\r\n".utf8))!.upperBound
            capture.setHead(String(decoding: received[..<headEnd], as: UTF8.self))
            try connection.send(received[..<headEnd])
            var body = Data(received[headEnd...])
            while true {
                if !body.isEmpty {
                    // Sent before it is captured: the capture never holds bytes the client did not get.
                    try connection.send(body)
                    capture.append(body)
                }
                guard let chunk = try LoopbackSocket.receive(upstream, timeout: 1) else { return }
                body = chunk
            }
        }
    }
}
