import Foundation
import NIOCore
import NIOPosix
import RadioModel

/// Finds UPnP MediaRenderers on the local network with SSDP: one M-SEARCH to the multicast group, and
/// the unicast answers collected for a while. Each answer's `LOCATION` is a device description URL.
///
/// Over SwiftNIO's datagram channel (already here through Hummingbird) rather than a UPnP library: SSDP
/// search is two datagrams out and a header block per answer, and no maintained Swift UPnP library
/// builds on Linux.
public enum SSDPSearch {
    static let group = "239.255.255.250"
    static let port = 1900
    public static let mediaRenderer = "urn:schemas-upnp-org:device:MediaRenderer:1"

    /// The description URLs of the renderers that answered within `seconds`, in the order they
    /// answered, each once. Blocks the calling thread for `seconds`: never call it on Swift's
    /// cooperative pool.
    public static func renderers(waiting seconds: Double) throws(CastingError) -> [URL] {
        let answers = SSDPAnswers()
        // Answers may come from MX seconds later; MX 1 keeps a short wait worth it.
        let request = "M-SEARCH * HTTP/1.1\r\nHOST: \(group):\(port)\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\n"
            + "ST: \(mediaRenderer)\r\nUSER-AGENT: Linux UPnP/1.1 onair/0.1\r\n\r\n"
        do {
            let channel = try DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(answers) }
                }
                .bind(host: "0.0.0.0", port: 0).wait()
            defer { try? channel.close().wait() }
            let destination = try SocketAddress(ipAddress: group, port: port)
            // UDP may drop a datagram; every control point sends the search twice.
            for _ in 0..<2 {
                let datagram = AddressedEnvelope(remoteAddress: destination, data: channel.allocator.buffer(string: request))
                try channel.writeAndFlush(datagram).wait()
            }
            Thread.sleep(forTimeInterval: seconds)
        } catch {
            throw CastingError("cannot search the network for renderers (SSDP): \(error)")
        }
        return answers.locations.current
    }

    /// The `LOCATION` of an SSDP answer for a MediaRenderer, nil for anything else.
    static func location(inAnswer text: String) -> URL? {
        let lines = text.split(whereSeparator: \.isNewline)
        guard let status = lines.first, status.hasPrefix("HTTP/1.1 200") else { return nil }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard fields["st"] == mediaRenderer, let location = fields["location"].flatMap(URL.init(string:)),
              ["http", "https"].contains(location.scheme?.lowercased() ?? "") else { return nil }
        return location
    }
}

/// Collects the answers on the channel's event loop.
private final class SSDPAnswers: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    let locations = Locked<[URL]>([])

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let answer = Self.unwrapInboundIn(data)
        guard let location = SSDPSearch.location(inAnswer: String(buffer: answer.data)) else { return }
        locations.withLock { if !$0.contains(location) { $0.append(location) } }
    }
}
