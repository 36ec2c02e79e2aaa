import Foundation

/// A file on a web server read piece by piece with range requests, so that a player can seek in a
/// podcast episode without downloading all of it: only the pieces it reads are fetched. Each read
/// blocks the calling thread (see `TransferEngine.fetch`); used on one thread.
public final class RemoteFile {
    /// What one range request asks for: large enough that playing straight on costs few requests.
    public static let pieceSize = 256 * 1024

    public let url: String
    /// The file's length in bytes, from the server's Content-Range.
    public let size: Int64
    private let engine: TransferEngine
    private var piece: (offset: Int64, bytes: Data)

    /// Asks for the first piece; fails if the server does not answer a range request with 206 Partial Content.
    public init(url: String, engine: TransferEngine = .shared) throws(TransferError) {
        self.url = url
        self.engine = engine
        let first = try Self.fetch(url, from: 0, engine: engine)
        size = first.size
        piece = (0, first.bytes)
    }

    /// Whether the server takes range requests for `url` (one request for its first byte).
    public static func takesRanges(_ url: String, engine: TransferEngine = .shared) -> Bool {
        (try? fetch(url, from: 0, count: 1, engine: engine)) != nil
    }

    /// Copies bytes from `offset` into `buffer`; returns how many (0 at the end of the file).
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(TransferError) -> Int {
        guard offset < size, buffer.count > 0 else { return 0 }
        if offset < piece.offset || offset >= piece.offset + Int64(piece.bytes.count) {
            piece = (offset, try Self.fetch(url, from: offset, engine: engine).bytes)
        }
        let start = Int(offset - piece.offset)
        let count = min(buffer.count, piece.bytes.count - start)
        piece.bytes.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress!.advanced(by: start), byteCount: count)
        }
        return count
    }

    private static func fetch(_ url: String, from offset: Int64, count: Int = pieceSize,
                              engine: TransferEngine) throws(TransferError) -> (bytes: Data, size: Int64) {
        let request = TransferRequest(url: url, headers: [(name: "Range", value: "bytes=\(offset)-\(offset + Int64(count) - 1)")])
        let response: HTTPResponse
        do {
            // A server that ignores Range sends the whole file: stop at the headers rather than take it.
            response = try engine.fetch(request, maxBytes: count, stopAfterHead: { $0.status != 206 })
        } catch let error as TransferError {
            throw error
        } catch {
            throw TransferError(kind: .other, url: url, message: "\(error)")
        }
        guard response.head.status == 206, let size = response.head.headers["Content-Range"].flatMap(totalSize) else {
            throw TransferError(kind: .protocolError, url: url,
                                message: "the server does not answer range requests (HTTP \(response.head.status))")
        }
        return (response.body, size)
    }

    /// "bytes 0-262143/4800000" → 4800000.
    private static func totalSize(_ contentRange: String) -> Int64? {
        contentRange.split(separator: "/").last.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
