import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import NIOCore
import Outputs
import RadioModel
import StreamInput

/// One listener of a mount, answered on Hummingbird: waits for the station to start, sends the
/// broadcast's header and burst, then hands the connection to the mount's `ListenerFanOut`, which
/// writes the broadcast — with ICY title slots for a player that asks for them — until the station
/// ends, the listener hangs up, or it falls behind the broadcast's window and is dropped.
public enum RelayListener {
    /// The ICY metadata interval for listeners that ask for titles, as Shoutcast uses it.
    static let metaint = 8192
    /// Seconds a listener waits for a mount whose station has not started yet.
    static let startTimeout = 15.0

    struct FellBehind: Error {}

    /// The response to a GET or HEAD of `mount` on `channel`; `peer` is the listener's address, when known.
    public static func response(to request: Request, mount: HTTPRelayMount, channel: any Channel, peer: String?) async -> Response {
        let token = request.uri.queryParameters["token"].map(String.init) ?? bearerToken(request.headers[.authorization])
        guard mount.admits(token: token) else { return RelayErrorResponse.make(.unauthorized, headers: [.wwwAuthenticate: "Bearer"]) }
        let wantsMetadata = request.headers[HTTPField.Name("Icy-MetaData")!] == "1"
        let record = RelayListenerRecord(peer: peer ?? "", connectedAt: Self.now(), userAgent: request.headers[.userAgent],
                                         icyMetadata: wantsMetadata)
        guard let id = mount.admitListener(record) else { return RelayErrorResponse.make(.serviceUnavailable) }
        guard let joining = await waitForStream(of: mount) else {
            mount.removeListener(id)
            return RelayErrorResponse.make(.serviceUnavailable)
        }
        var headers: HTTPFields = [.contentType: joining.contentType, .cacheControl: "no-cache, no-store", .connection: "close",
                                   .server: "onair"]
        if let name = mount.name { headers[HTTPField.Name("icy-name")!] = name }
        if wantsMetadata { headers[HTTPField.Name("icy-metaint")!] = "\(metaint)" }
        guard request.method != .head else {
            mount.removeListener(id)
            return Response(status: .ok, headers: headers)
        }
        mount.updateListener(id) { $0.streaming = true }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { mount.removeListener(id) }
            do {
                var interleaver = wantsMetadata ? ICYInterleaver(metaint: metaint) : nil
                guard let cursor = try await sendBurst(joining, of: mount, listener: id, interleaver: &interleaver, to: &writer) else {
                    return try await writer.finish(nil)
                }
                try await mount.fanOut.serve(channel, listener: id, from: cursor, interleaver: interleaver)
            } catch is FellBehind {
                mount.onEvent(.warning("\(mount.label): dropped listener \(record.peer): it fell more than "
                                       + "\(mount.broadcast.retainedBytes / 1024) KiB behind the stream"))
                throw FellBehind()
            }
            try await writer.finish(nil)
        })
    }

    static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }

    static func now() -> Double { Double(MonotonicClock.now()) / 1e9 }

    private static func waitForStream(of mount: HTTPRelayMount) async -> AudioBroadcast.Joining? {
        let deadline = now() + startTimeout
        while now() < deadline, !Task.isCancelled {
            if let joining = mount.broadcast.join(burstBytes: mount.burstBytes) { return joining }
            if mount.broadcast.hasEnded { return nil }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Writes the header and the burst up to the live edge through the response's own writer, which
    /// puts them after the response head; returns the place the fan-out goes on from, or nil when the
    /// stream has ended.
    private static func sendBurst(_ joining: AudioBroadcast.Joining, of mount: HTTPRelayMount, listener id: Int,
                                  interleaver: inout ICYInterleaver?, to writer: inout any ResponseBodyWriter) async throws -> AudioBroadcast.Cursor? {
        if let title = joining.title { interleaver?.setTitle(title.title, url: title.url) }
        var burst: [UInt8] = []
        append(joining.header, to: &burst, interleaver: &interleaver)
        var cursor = joining.cursor
        var ended = false
        reading: while true {
            switch mount.broadcast.read(&cursor, maxBytes: mount.burstBytes) {
            case .fellBehind: throw FellBehind()
            case .ended: ended = true; break reading
            case .items(let items):
                if items.isEmpty { break reading }
                append(items, to: &burst, interleaver: &interleaver)
            }
        }
        try await writer.write(ByteBuffer(bytes: burst))
        mount.countSent([id: Int64(burst.count)])
        return ended ? nil : cursor
    }

    /// Appends the items' audio to `outbox`, with ICY title slots when the listener has an interleaver.
    static func append(_ items: [AudioBroadcast.Item], to outbox: inout [UInt8], interleaver: inout ICYInterleaver?) {
        for item in items {
            switch item {
            case .audio(let bytes): append(bytes, to: &outbox, interleaver: &interleaver)
            case .title(let change): interleaver?.setTitle(change.title, url: change.url)
            }
        }
    }

    private static func append(_ bytes: [UInt8], to outbox: inout [UInt8], interleaver: inout ICYInterleaver?) {
        if interleaver != nil { interleaver!.append(audio: bytes, to: &outbox) } else { outbox.append(contentsOf: bytes) }
    }
}

/// Plain-text error replies of the relay: one line saying what went wrong.
enum RelayErrorResponse {
    static func make(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        fields[.cacheControl] = "no-cache"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: "\(status.code) \(status.reasonPhrase)\n")))
    }
}
