import Foundation

/// A client's request line and headers, read within our HTTP servers' bounds by `RequestHeadGuard` before
/// anything else parses them. Public for the fuzz target (Fuzz/Targets/relay-request), which feeds it hostile bytes.
public struct HTTPRequestHead {
    /// Larger heads are refused (431): no player needs more, and it bounds memory per connection.
    public static let maxBytes = 8 * 1024
    public static let maxHeaders = 64

    public enum Failure: Error {
        case malformed
        case tooManyHeaders
    }

    public let method: String
    /// The target, percent-encoded as sent.
    public let target: String
    public let headers: [(name: String, value: String)]

    /// Where the head ends in `bytes` (just after the blank line), once it has arrived.
    public static func end(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 0x0A && bytes[index - 1] == 0x0D
            && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    public init(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        // Header bytes are ASCII; anything else is kept readable without failing.
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.makeIterator()
        guard let requestLine = lines.next() else { throw .malformed }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else { throw .malformed }
        method = String(parts[0])
        target = String(parts[1])
        var headers: [(String, String)] = []
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { throw .malformed }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            if headers.count > Self.maxHeaders { throw .tooManyHeaders }
        }
        self.headers = headers
    }
}
