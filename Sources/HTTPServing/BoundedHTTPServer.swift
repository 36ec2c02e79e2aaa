import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import NIOHTTP1
import NIOHTTPTypesHTTP1
import RadioModel

/// The first handler of every connection of our HTTP servers, ahead of the HTTP decoder. It admits the
/// connection under `ConnectionLimits` (else 429 for one client over its share, 503 when the server is
/// full), then holds the first request head to the bounds before anything parses it — complete within
/// `timeout` (slowloris: else 408), at most `HTTPRequestHead.maxBytes` bytes and `maxHeaders` lines (else
/// 431), an origin-form target (else 400) — answers a refusal itself and closes, and otherwise hands the
/// bytes on and steps aside. Our own code, not SwiftNIO's decoder limits: those count bytes and fields
/// differently and answer with a reset, and a player deserves the status that says what went wrong.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limits: ConnectionLimits
    private let timeout: TimeAmount
    private var client = ""
    private var buffered: ByteBuffer?
    private var deadline: Scheduled<Void>?
    private var reading = false
    private var refused = false

    init(limits: ConnectionLimits, timeout: TimeAmount) {
        self.limits = limits
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        client = context.channel.remoteAddress?.ipAddress ?? "?"
        let (limits, client) = (limits, client)
        context.channel.closeFuture.whenComplete { _ in limits.closed(client) }
        if let refusal = limits.admit(client) {
            return refuse(refusal.status, because: refusal.reason, context: context)
        }
        reading = true
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.refuse(408, because: "the request was not complete within \(BoundedHTTPServer.requestTimeout) s", context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        headDone()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        headDone()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }  // what a refused client sends after its head is dropped
        var bytes = unwrapInboundIn(data)
        if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
        let head = Array(buffered!.readableBytesView.prefix(HTTPRequestHead.maxBytes + 1))
        guard let end = HTTPRequestHead.end(in: head) else {
            if head.count > HTTPRequestHead.maxBytes { refuse(431, because: "the request head is too long", context: context) }
            return
        }
        // One byte is read beyond the bound to tell "too long" from "complete": a head ending in it is too long.
        guard end <= HTTPRequestHead.maxBytes else { return refuse(431, because: "the request head is too long", context: context) }
        do {
            _ = try HTTPRequestHead(head[..<end])
        } catch .tooManyHeaders {
            return refuse(431, because: "the request has too many header lines", context: context)
        } catch {
            return refuse(400, because: "the request line is not one this server reads", context: context)
        }
        deadline?.cancel()
        headDone()
        let whole = buffered!
        buffered = nil
        context.fireChannelRead(wrapInboundOut(whole))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Answers with `status` and closes: our side first, then the whole connection once the client has
    /// read the answer (or a second later), so unread input does not turn the close into a reset.
    private func refuse(_ status: Int, because reason: String, context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        deadline?.cancel()
        headDone()
        buffered = nil
        let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
        let body = "\(status) \(phrase): \(reason)\n"
        var reply = context.channel.allocator.buffer(capacity: 256)
        reply.writeString("HTTP/1.0 \(status) \(phrase)\r\nContent-Type: text/plain; charset=utf-8\r\n"
                          + "Content-Length: \(body.utf8.count)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n" + body)
        let channel = context.channel
        context.writeAndFlush(wrapOutbound(reply)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
        }
    }

    private func wrapOutbound(_ buffer: ByteBuffer) -> NIOAny { NIOAny(buffer) }

    private func headDone() {
        guard reading else { return }
        reading = false
        limits.headRead(client)
    }
}

/// How many connections the server holds, and how many of them are still sending their first request
/// head, in all and per client address. A slowloris (or a flood) from one address fills its own share
/// and is refused at once (429) while every other client is served; only when the server as a whole is
/// full is a newcomer refused (503). Nothing waits unaccepted: a refusal says why, at once.
final class ConnectionLimits: Sendable {
    struct Refusal { let status: Int; let reason: String }

    struct Caps {
        /// Heads being read at once from one address: a browser opens six connections to a server, a
        /// household behind one address a few browsers and players.
        var pendingPerClient = 16
        var pending = 256
        /// Open connections from one address (a relay's listeners behind one NAT, a benchmark's many)
        /// and in all: each is a file descriptor, and the daemon keeps its own (recordings, streams).
        var connectionsPerClient = 2048
        var connections = 8192
    }

    private struct Counts { var pending = 0; var connections = 0 }
    private struct State {
        var total = Counts()
        var perClient: [String: Counts] = [:]
    }

    let caps: Caps
    private let state = Locked(State())

    init(caps: Caps = Caps()) { self.caps = caps }

    /// Counts a new connection from `client` in, or says why it is refused (then it is counted as an
    /// open connection only, which `closed` takes back).
    func admit(_ client: String) -> Refusal? {
        state.withLock { state in
            let mine = state.perClient[client, default: Counts()]
            state.total.connections += 1
            state.perClient[client, default: Counts()].connections += 1
            if mine.pending >= caps.pendingPerClient {
                return Refusal(status: 429, reason: "\(caps.pendingPerClient) requests from your address are still being sent")
            }
            if mine.connections >= caps.connectionsPerClient {
                return Refusal(status: 429, reason: "\(caps.connectionsPerClient) connections from your address are open")
            }
            if state.total.pending >= caps.pending || state.total.connections > caps.connections {
                return Refusal(status: 503, reason: "the server is serving as many connections as it takes; try again shortly")
            }
            state.total.pending += 1
            state.perClient[client, default: Counts()].pending += 1
            return nil
        }
    }

    func headRead(_ client: String) {
        state.withLock { state in
            state.total.pending -= 1
            state.perClient[client, default: Counts()].pending -= 1
        }
    }

    func closed(_ client: String) {
        state.withLock { state in
            state.total.connections -= 1
            state.perClient[client, default: Counts()].connections -= 1
            if let counts = state.perClient[client], counts.connections <= 0 { state.perClient[client] = nil }
        }
    }

    /// Connections open now, and heads being read (for the tests).
    var counts: (connections: Int, pending: Int) { state.withLock { ($0.total.connections, $0.total.pending) } }
}

/// HTTP/1 as Hummingbird serves it, behind a `RequestHeadGuard`, answering HTTP/1.0 as HTTP/1.0.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    let limits: ConnectionLimits
    let requestTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            // A small send buffer keeps what sits in the kernel for a stalled listener small, so the
            // broadcast's window, not the kernel, decides when it has fallen behind.
            try channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 64 * 1024)
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(limits: limits, timeout: requestTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let conversion = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(HTTP10Responses(), position: .before(conversion))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

/// The HTTP servers onair runs (the relay's, the daemon's): Hummingbird applications whose connections
/// all pass the request-head bounds — `HTTPRequestHead.maxBytes` and `maxHeaders`, the slowloris
/// timeout, `ConnectionLimits`' caps per client and in all.
/// Later requests on a kept-alive connection have parsed as HTTP already and pass SwiftNIO's own limits.
public enum BoundedHTTPServer {
    /// Seconds a client has to send its whole request head (a slowloris holds connections open by
    /// trickling headers; real players send theirs in one packet).
    public static let requestTimeout = 5.0
    /// The one event loop every server's connections are on, as Icecast writes to all its listeners
    /// from one thread. A relay's listeners then share each round of writes (`ListenerFanOut`), where
    /// with a loop per core every commit woke each loop; handlers run on Swift's tasks, not here, and
    /// a thousand listeners' writes take a few percent of one core (BENCHMARKS.md).
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Binds `host:port` and serves `responder` until `stop()`; see `ServingTask.start`.
    public static func start<Responder: HTTPResponder>(_ responder: Responder, host: String, port: Int) throws -> (ServingTask, port: Int)
        where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let limits = ConnectionLimits()
        let server = HTTPServerBuilder { responder in
            GuardedHTTP1Channel(http: HTTP1Channel(responder: responder), limits: limits,
                                requestTimeout: .milliseconds(Int64(requestTimeout * 1000)))
        }
        return try ServingTask.start { ready in
            Application(responder: responder, server: server,
                        configuration: .init(address: .hostname(host, port: port), serverName: "onair"),
                        onServerRunning: { channel in await ready(channel) },
                        eventLoopGroupProvider: .shared(eventLoops),
                        logger: ServingTask.quietLogger)
        }
    }
}
