import Foundation
import HTTPServing
import Outputs

/// What `/status.json` shows: every mount of the server and its listeners. No tokens, ever.
struct RelayStatus: Encodable {
    struct Mount: Encodable {
        let path: String
        let name: String?
        /// `copy` or the encoding, e.g. `mp3:128`.
        let format: String
        let contentType: String
        let live: Bool
        let bytesProduced: Int64
        let listenerCount: Int
        let maxListeners: Int
        let listeners: [Listener]
    }

    struct Listener: Encodable {
        let address: String
        let connectedSeconds: Double
        let bytesSent: Int64
        let icyMetadata: Bool
        let userAgent: String?
    }

    let mounts: [Mount]

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
