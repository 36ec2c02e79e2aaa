import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import NIOHTTPTypesHTTP1

/// The first handler of every connection of our HTTP servers, ahead of the HTTP decoder: it holds the
/// first request head to the bounds before anything parses it — complete within `timeout` (slowloris: else 408),
/// at most `HTTPRequestHead.maxBytes` bytes and `maxHeaders` lines (else 431), an origin-form target
/// (else 400) — answers a refusal itself and closes, and otherwise hands the bytes on and steps aside.
/// Our own code, not SwiftNIO's decoder limits: those count bytes and fields differently and answer
/// with a reset, and a player deserves the status that says what went wrong.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let pending: PendingRequests
    private let timeout: TimeAmount
    private var buffered: ByteBuffer?
    private var deadline: Scheduled<Void>?
    private var released = false
    private var refused = false

    init(pending: PendingRequests, timeout: TimeAmount) {
        self.pending = pending
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.refuse(408, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        release()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }  // what a refused client sends after its head is dropped
        var bytes = unwrapInboundIn(data)
        if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
        let head = Array(buffered!.readableBytesView.prefix(HTTPRequestHead.maxBytes + 1))
        guard let end = HTTPRequestHead.end(in: head) else {
            if head.count > HTTPRequestHead.maxBytes { refuse(431, context: context) }
            return
        }
        // One byte is read beyond the bound to tell "too long" from "complete": a head ending in it is too long.
        guard end <= HTTPRequestHead.maxBytes else { return refuse(431, context: context) }
        do {
            _ = try HTTPRequestHead(head[..<end])
        } catch .tooManyHeaders {
            return refuse(431, context: context)
        } catch {
            return refuse(400, context: context)
        }
        deadline?.cancel()
        release()
        let whole = buffered!
        buffered = nil
        context.fireChannelRead(wrapInboundOut(whole))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Answers with `status` and closes: our side first, then the whole connection once the client has
    /// read the answer (or a second later), so unread input does not turn the close into a reset.
    private func refuse(_ status: Int, context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        deadline?.cancel()
        release()
        buffered = nil
        var reply = context.channel.allocator.buffer(capacity: 128)
        reply.writeBytes(RelayResponse.error(status))
        let channel = context.channel
        context.writeAndFlush(wrapOutbound(reply)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
        }
    }

    private func wrapOutbound(_ buffer: ByteBuffer) -> NIOAny { NIOAny(buffer) }

    private func release() {
        guard !released else { return }
        released = true
        pending.finished()
    }
}

/// The requests a server is reading at once: at most `limit`; while that many are pending the
/// server stops accepting, so the next connection waits in the kernel's backlog, unread.
final class PendingRequests: @unchecked Sendable {  // `count` and `heldRead` inside `lock`
    let limit: Int
    private let lock = NSLock()
    private var count = 0
    private var heldRead: (@Sendable () -> Void)?

    init(limit: Int) { self.limit = limit }

    func started() { lock.withLock { count += 1 } }

    func finished() {
        let resume = lock.withLock { () -> (@Sendable () -> Void)? in
            count -= 1
            guard count < limit else { return nil }
            defer { heldRead = nil }
            return heldRead
        }
        resume?()
    }

    /// Whether the server may accept now; if not, `resume` runs once it may.
    func mayAccept(orResume resume: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard count >= limit else { return true }
            heldRead = resume
            return false
        }
    }
}

/// On the listening socket: counts each accepted connection as a pending request and holds the next
/// accept while `PendingRequests` is full.
final class PendingRequestsGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel
    typealias OutboundIn = Never

    private let pending: PendingRequests

    init(pending: PendingRequests) { self.pending = pending }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending.started()
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        guard pending.mayAccept(orResume: { eventLoop.execute { loopBound.value.read() } }) else { return }
        context.read()
    }
}

/// HTTP/1 as Hummingbird serves it, behind a `RequestHeadGuard`, answering HTTP/1.0 as HTTP/1.0.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    let pending: PendingRequests
    let requestTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            // A small send buffer keeps what sits in the kernel for a stalled listener small, so the
            // broadcast's window, not the kernel, decides when it has fallen behind.
            try channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 64 * 1024)
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(pending: pending, timeout: requestTimeout))
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
/// timeout, at most `maxPendingRequests` requests being read at once (more wait in the backlog).
/// Later requests on a kept-alive connection have parsed as HTTP already and pass SwiftNIO's own limits.
public enum BoundedHTTPServer {
    /// Seconds a client has to send its whole request head (a slowloris holds connections open by
    /// trickling headers; real players send theirs in one packet).
    public static let requestTimeout = 5.0
    /// Connections still sending their request, at most.
    public static let maxPendingRequests = 64
    /// The one event loop every server's connections are on, as Icecast writes to all its listeners
    /// from one thread. A relay's listeners then share each round of writes (`ListenerFanOut`), where
    /// with a loop per core every commit woke each loop; handlers run on Swift's tasks, not here, and
    /// a thousand listeners' writes take a few percent of one core (BENCHMARKS.md).
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Binds `host:port` and serves `responder` until `stop()`; see `ServingTask.start`.
    public static func start<Responder: HTTPResponder>(_ responder: Responder, host: String, port: Int) throws -> (ServingTask, port: Int)
        where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let pending = PendingRequests(limit: maxPendingRequests)
        let server = HTTPServerBuilder { responder in
            GuardedHTTP1Channel(http: HTTP1Channel(responder: responder), pending: pending,
                                requestTimeout: .milliseconds(Int64(requestTimeout * 1000)))
        }
        return try ServingTask.start { ready in
            Application(responder: responder, server: server,
                        configuration: .init(address: .hostname(host, port: port), serverName: "onair"),
                        onServerRunning: { channel in
                            // One accept per wake-up, so the gate counts every connection before the next.
                            _ = try? await channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1).get()
                            try? await channel.pipeline.addHandler(PendingRequestsGate(pending: pending), position: .first).get()
                            await ready(channel)
                        },
                        eventLoopGroupProvider: .shared(eventLoops),
                        logger: ServingTask.quietLogger)
        }
    }
}
