import Hummingbird
import NIOCore

/// The request context of the daemon's HTTP server: Hummingbird's basic one plus the client's address,
/// by which the web login's failed attempts are counted.
public struct ClientRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection, which a live mount's fan-out writes its broadcast to.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        remoteAddress = source.channel.remoteAddress
    }
}
