import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Guides published gzip-compressed (guide.xml.gz, as most guide sites offer them), recognised by gzip's
/// magic bytes (1f 8b) whatever the server called them: libcurl undoes only a Content-Encoding. zlib
/// inflates them through swift-nio-extras' response decompressor, which stops at a size limit, so a
/// small file that would inflate to gigabytes (a decompression bomb) costs no more than a guide may.
enum GzipGuide {
    static func isCompressed(_ data: Data) -> Bool { data.starts(with: [0x1F, 0x8B]) }

    /// `data` inflated, at most `maxBytes` of it.
    static func inflated(_ data: Data, maxBytes: Int) throws(GuideError) -> Data {
        let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(maxBytes)))
        defer { _ = try? channel.finish() }
        var result = Data()
        do {
            let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Encoding": "gzip"])
            try channel.writeInbound(HTTPClientResponsePart.head(head))
            try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(bytes: data)))
            try channel.writeInbound(HTTPClientResponsePart.end(nil))
            while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
                if case .body(let buffer) = part { result.append(contentsOf: buffer.readableBytesView) }
            }
        } catch NIOHTTPDecompression.DecompressionError.limit {
            throw GuideError("it is gzip-compressed and inflates to more than \(maxBytes >> 20) MiB")
        } catch {
            throw GuideError("it is gzip-compressed but not readable as gzip (\(error))")
        }
        return result
    }
}
