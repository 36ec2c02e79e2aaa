import Foundation
import RadioModel
import Recording
import HTTPServing
import Hummingbird
import Outputs

/// A recording's file as HTTP serves it to players and podcast apps: one byte range (`Range: bytes=…`,
/// 206, or 416 when it lies beyond the end), validators (`ETag`, `Last-Modified`) and their conditional
/// requests (304), and the container's MIME type. The one place a recording's audio is read for HTTP
/// (the API, the pages' players, the feeds' enclosures): by the recording's id, and only from under the
/// recordings directory, whatever path the index holds.
enum RecordingFile {
    /// What a request for the file is answered: a response without the file's bytes (304, 416, an empty
    /// file), or a range of the file to stream.
    enum Answer: Sendable {
        case response(Response)
        case file(String, range: ClosedRange<Int>, status: HTTPResponse.Status, headers: HTTPFields)
    }

    /// The half that touches the file system (resolving the path, reading the file's size and date): it
    /// blocks, so it runs inside the facade's `perform`, never on Swift's cooperative pool.
    static func answer(to requestHeaders: HTTPFields, file: String, within directory: URL) throws -> Answer {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let resolved = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root) else { throw APIError.notFound("the recording's file is not in the recordings directory") }
        let file = resolved
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
              let size = (attributes[.size] as? NSNumber)?.intValue else {
            throw APIError.notFound("the recording's file is missing")
        }
        let modified = (attributes[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        let etag = "\"\(size)-\(Int(modified.timeIntervalSince1970))\""
        var headers: HTTPFields = [.contentType: AudioFileType.mimeType(of: file), .acceptRanges: "bytes", .eTag: etag,
                                   .lastModified: HTTPDate.string(modified), .cacheControl: "private, max-age=0"]
        if notModified(requestHeaders, etag: etag, modified: modified) {
            return .response(Response(status: .notModified, headers: headers))
        }
        var range = size == 0 ? nil : 0...(size - 1)
        var status = HTTPResponse.Status.ok
        if let header = requestHeaders[.range] {
            switch ByteRange.parse(header, size: size) {
            case .whole: break
            case .part(let part):
                range = part
                status = .partialContent
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                return .response(Response(status: .rangeNotSatisfiable, headers: headers))
            }
        }
        headers[.contentLength] = "\(range?.count ?? 0)"
        guard let range else { return .response(Response(status: status, headers: headers)) }
        return .file(file, range: range, status: status, headers: headers)
    }

    /// The streaming half, outside `perform`: Hummingbird's `FileIO` opens and reads the file on NIO's
    /// thread pool as the response is written.
    static func response(_ answer: Answer, context: ClientRequestContext) async throws -> Response {
        switch answer {
        case .response(let response):
            return response
        case .file(let file, let range, let status, let headers):
            let body = try await FileIO().loadFile(path: file, range: range, context: context)
            return Response(status: status, headers: headers, body: body)
        }
    }

    private static func notModified(_ requestHeaders: HTTPFields, etag: String, modified: Date) -> Bool {
        if let match = requestHeaders[.ifNoneMatch] {
            return match.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*" }
        }
        if let since = requestHeaders[.ifModifiedSince], let date = HTTPDate.date(since) {
            return Int(modified.timeIntervalSince1970) <= Int(date.timeIntervalSince1970)
        }
        return false
    }
}

/// One `Range: bytes=…` header against a file of `size` bytes (RFC 9110 §14.1.2). Several ranges at
/// once are answered with the whole file, as the RFC allows.
public enum ByteRange: Equatable, Sendable {
    case whole
    case part(ClosedRange<Int>)
    case unsatisfiable

    public static func parse(_ header: String, size: Int) -> ByteRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), !(first.isEmpty && last.isEmpty) else { return .whole }
        if first.isEmpty {
            // The last N bytes.
            guard let count = Int(last), count > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - count)...(size - 1))
        }
        guard let start = Int(first) else { return .unsatisfiable }
        guard start < size else { return .unsatisfiable }
        let end = last.isEmpty ? size - 1 : min(Int(last) ?? Int.max, size - 1)
        guard end >= start else { return .whole }
        return .part(start...end)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
