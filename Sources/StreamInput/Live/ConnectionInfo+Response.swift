import Foundation
import RadioModel

extension ConnectionInfo {
    /// An Icecast/SHOUTcast answer: the URL that answered, credentials redacted, and its icy-* headers.
    public init(head: ResponseHead) {
        self.init(url: URLRedaction.redact(head.url), status: head.status, contentType: head.mediaType,
                  name: head.headers["icy-name"], genre: head.headers["icy-genre"],
                  bitrate: head.headers["icy-br"].flatMap { Int($0.split(separator: ",").first ?? "") },
                  metaint: head.headers["icy-metaint"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                  server: head.headers["server"])
    }

    /// An HLS stream: the playlist it follows, and what its segments are.
    init(playlistURL: String, segmentHead: ResponseHead, contentType: String?, bitrate: Int?) {
        self.init(url: URLRedaction.redact(playlistURL), status: segmentHead.status, contentType: contentType,
                  bitrate: bitrate, server: segmentHead.headers["server"])
    }
}
