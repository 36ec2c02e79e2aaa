import NIOCore
import NIOHTTP1

/// Answers an HTTP/1.0 request as HTTP/1.0, as players and Icecast's clients expect: SwiftNIO's
/// conversion to the version-free HTTP types answers every request as HTTP/1.1, which would send an
/// endless body chunked and keep a 1.0 client's connection open after its response. Placed between
/// the HTTP/1 codec and that conversion: it notes each request's version (and that a 1.0 request
/// without keep-alive closes the connection, which Hummingbird reads from `Connection: close`) and
/// gives the response the same version, so a body with no length ends with the connection.
final class HTTP10Responses: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Versions of the requests not yet answered, oldest first (HTTP/1.1 pipelines).
    private var versions: [HTTPVersion] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        versions.append(head.version)
        if head.version.major == 1, head.version.minor == 0, !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
            return context.write(data, promise: promise)
        }
        let version = versions.isEmpty ? head.version : versions.removeFirst()
        if version.minor == 0 {
            head.version = version
            head.headers.remove(name: "Transfer-Encoding")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
