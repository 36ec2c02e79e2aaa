import Hummingbird
import NIOCore

/// The request context of the daemon's HTTP server: Hummingbird's basic one plus the client's address,
/// by which the web login's failed attempts are counted.
public struct ClientRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
