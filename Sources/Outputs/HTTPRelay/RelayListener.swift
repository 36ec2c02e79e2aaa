import Foundation
import HTTPTypes
import Hummingbird
import RadioModel
import StreamInput

/// One listener of a mount, answered on Hummingbird: waits for the station to start, then streams the
/// broadcast from its burst on — with ICY title slots for a player that asks for them — until the
/// station ends, the listener hangs up, or it falls behind the broadcast's window and is dropped.
public enum RelayListener {
    /// The ICY metadata interval for listeners that ask for titles, as Shoutcast uses it.
    static let metaint = 8192
    /// Audio taken from the broadcast per write.
    private static let refillBytes = 16 * 1024
    /// Seconds a listener waits for a mount whose station has not started yet.
    static let startTimeout = 15.0
    /// How long a listener at the live edge waits after a commit for more, so it writes a few frames at once.
    private static let gatherWrites = Duration.milliseconds(100)
    /// How often a listener whose writes are stuck is checked for having lost its place.
    private static let stallCheck = Duration.milliseconds(500)

    struct FellBehind: Error {}

    /// The response to a GET or HEAD of `mount`; `peer` is the listener's address, when known.
    public static func response(to request: Request, mount: HTTPRelayMount, peer: String?) async -> Response {
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
                try await stream(joining, of: mount, listener: id, wantsMetadata: wantsMetadata, to: WriterBox(writer))
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

    /// Writes the broadcast to the listener in one task while another watches that it keeps its place:
    /// a listener that stops reading blocks its write, and is dropped (its connection closed) once the
    /// broadcast's window has moved past it, so it never holds the station or the other listeners up.
    private static func stream(_ joining: AudioBroadcast.Joining, of mount: HTTPRelayMount, listener id: Int,
                               wantsMetadata: Bool, to writer: WriterBox) async throws {
        let place = Locked(joining.cursor)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var interleaver = wantsMetadata ? ICYInterleaver(metaint: metaint) : nil
                if let title = joining.title { interleaver?.setTitle(title.title, url: title.url) }
                var outbox: [UInt8] = []
                append(joining.header, to: &outbox, interleaver: &interleaver)
                var cursor = joining.cursor
                while !Task.isCancelled {
                    if !outbox.isEmpty {
                        try await writer.write(outbox)
                        mount.updateListener(id) { $0.bytesSent += Int64(outbox.count) }
                        outbox.removeAll(keepingCapacity: true)
                    }
                    let generation = mount.commitGeneration
                    switch mount.broadcast.read(&cursor, maxBytes: refillBytes) {
                    case .fellBehind: throw FellBehind()
                    case .ended: return
                    case .items(let items):
                        place.withLock { $0 = cursor }
                        if items.isEmpty {
                            await mount.nextCommit(after: generation)
                            // Gather a few commits (frames) into one write: a wake-up and a write per
                            // frame per listener is what a thousand listeners cost most.
                            try await Task.sleep(for: gatherWrites)
                        }
                        for item in items {
                            switch item {
                            case .audio(let bytes): append(bytes, to: &outbox, interleaver: &interleaver)
                            case .title(let change): interleaver?.setTitle(change.title, url: change.url)
                            }
                        }
                    }
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: stallCheck)
                    if mount.broadcast.hasLost(place.current) { throw FellBehind() }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private static func append(_ bytes: [UInt8], to outbox: inout [UInt8], interleaver: inout ICYInterleaver?) {
        if interleaver != nil { interleaver!.append(audio: bytes, to: &outbox) } else { outbox.append(contentsOf: bytes) }
    }
}

/// The response body's writer, handed to the task that writes while the other watches.
private final class WriterBox: @unchecked Sendable {  // used by the writing task alone, while the body's task waits for it
    private var writer: any ResponseBodyWriter

    init(_ writer: any ResponseBodyWriter) { self.writer = writer }

    func write(_ bytes: [UInt8]) async throws {
        try await writer.write(ByteBuffer(bytes: bytes))
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
