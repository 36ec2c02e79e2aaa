import Foundation

/// Fetches what a URL answers as the resolver needs it, through the transfer engine: a playlist, manifest
/// or page whole (within a byte limit), an audio stream only as far as its headers and first bytes (it has
/// no end). Which one it is comes from the headers when they say "playlist" (by type or by name) and
/// otherwise from the first bytes (`PlaylistSniffer.verdict`): an ASX served as audio/x-ms-wax or an .m3u
/// served as audio/mpeg is read whole, not taken for the stream itself.
///
/// Blocking, as `TransferEngine.fetch`: never on the network thread or Swift's cooperative pool.
public enum PlaylistFetch {
    /// The response: for a stream `stoppedAfterHead` is true and `body` holds its first bytes.
    public static func fetch(_ request: TransferRequest, engine: TransferEngine = .shared, maxBytes: Int) throws -> HTTPResponse {
        let outcome = FetchOutcome()
        let collector = SniffingCollector(engine: engine, url: request.url, maxBytes: maxBytes) { outcome.set($0) }
        engine.start(request, delegate: collector)
        return try outcome.wait().get()
    }
}

/// Gathers a response for `PlaylistFetch`: whole, or its first bytes when they show an audio stream. Network
/// thread only; it completes exactly once.
private final class SniffingCollector: TransferDelegate, @unchecked Sendable {  // called on the network thread only
    private enum Mode { case sniffing, whole }

    private let engine: TransferEngine
    private let url: String
    private let maxBytes: Int
    private let completion: @Sendable (Result<HTTPResponse, TransferError>) -> Void
    private var head: ResponseHead?
    private var body = Data()
    private var mode = Mode.whole
    private var failure: TransferError?
    private var completed = false

    init(engine: TransferEngine, url: String, maxBytes: Int, completion: @escaping @Sendable (Result<HTTPResponse, TransferError>) -> Void) {
        self.engine = engine; self.url = url; self.maxBytes = maxBytes; self.completion = completion
    }

    func transfer(_ id: TransferID, didReceive head: ResponseHead) -> Bool {
        self.head = head
        if head.status >= 400 {
            failure = TransferError(kind: .http, url: url, message: "HTTP \(head.status)", status: head.status)
            return false
        }
        // A redirect's head arrives only when curl did not follow it: its error says why.
        guard (200..<300).contains(head.status) else { return true }
        mode = PlaylistSniffer.headSaysDocument(head) ? .whole : .sniffing
        return true
    }

    func transfer(_ id: TransferID, didReceive bytes: UnsafeRawBufferPointer) -> Bool {
        guard !completed else { return false }
        guard failure == nil else { return true } // the rest of a response too large: swallowed, the failure reported at the end
        guard body.count + bytes.count <= maxBytes else {
            failure = TransferError(kind: .tooLarge, url: url, message: "response larger than \(maxBytes) bytes")
            body.removeAll()
            return true
        }
        body.append(contentsOf: bytes)
        guard mode == .sniffing else { return true }
        switch PlaylistSniffer.verdict(body, complete: false) {
        case .needMore: return true
        case .document: mode = .whole; return true
        case .stream:
            // Its headers and first bytes are all the resolver needs: the transfer pauses here and is ended.
            complete(.success(HTTPResponse(head: head!, body: Data(body.prefix(PlaylistSniffer.sniffLength)), stoppedAfterHead: true)))
            engine.cancel(id)
            return false
        }
    }

    func transfer(_ id: TransferID, didFinishWith error: TransferError?) {
        guard !completed else { return }
        if failure == nil {
            failure = error
            if error == nil, let status = head?.status, !(200..<300).contains(status) {
                failure = TransferError(kind: .protocolError, url: url, message: "HTTP \(status) without a usable redirect", status: status)
            }
        }
        if failure == nil && head == nil {
            failure = TransferError(kind: .protocolError, url: url, message: "no HTTP response")
        }
        if let failure { return complete(.failure(failure)) }
        // A response that ended before its first bytes told: a short body that is no text document is a
        // stream as its headers said (a server closing early), as it was taken before onair looked at bytes.
        let stream = mode == .sniffing && PlaylistSniffer.verdict(body, complete: true) == .stream
        complete(.success(HTTPResponse(head: head!, body: body, stoppedAfterHead: stream)))
    }

    private func complete(_ result: Result<HTTPResponse, TransferError>) {
        completed = true
        completion(result)
    }
}
