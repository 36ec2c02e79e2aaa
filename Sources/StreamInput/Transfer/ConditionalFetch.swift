import Foundation

/// What a server said of the copy last fetched, sent back so it can answer 304 Not Modified.
public struct HTTPValidators: Codable, Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) { self.etag = etag; self.lastModified = lastModified }
}

/// Fetches a resource (a guide, a feed) only if it changed since the copy at hand: `If-None-Match` and
/// `If-Modified-Since` carry the validators, and a 304 answer costs neither a download nor a parse.
public enum ConditionalFetch {
    public enum Outcome: Sendable {
        case notModified
        case modified(Data, HTTPValidators)
    }

    /// Blocks the calling thread (see `TransferEngine.fetch`).
    public static func fetch(_ url: String, validators: HTTPValidators, maxBytes: Int,
                             engine: TransferEngine = .shared) throws(TransferError) -> Outcome {
        var headers: [(name: String, value: String)] = []
        if let etag = validators.etag { headers.append((name: "If-None-Match", value: etag)) }
        if let lastModified = validators.lastModified { headers.append((name: "If-Modified-Since", value: lastModified)) }
        do {
            let response = try engine.fetch(TransferRequest(url: url, headers: headers), maxBytes: maxBytes)
            return .modified(response.body, HTTPValidators(etag: response.head.headers["ETag"],
                                                           lastModified: response.head.headers["Last-Modified"]))
        } catch let error as TransferError {
            // The engine reports any status outside 2xx that is not a redirect as a failure; 304 is the answer hoped for.
            if error.status == 304 { return .notModified }
            throw error
        } catch {
            throw TransferError(kind: .protocolError, url: url, message: "\(error)")
        }
    }
}
