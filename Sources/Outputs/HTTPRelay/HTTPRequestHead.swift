import Foundation

/// A client's request line and headers, parsed within the relay's limits.
/// Public for the fuzz target (Fuzz/Targets/relay-request), which feeds it hostile bytes.
public struct HTTPRequestHead {
    /// Larger heads are refused (431): no player needs more, and it bounds memory per connection.
    public static let maxBytes = 8 * 1024
    public static let maxHeaders = 64

    public enum Failure: Error {
        case malformed
        case tooManyHeaders
    }

    public let method: String
    /// The target without its query, percent-encoded as sent.
    public let path: String
    public let query: [String: String]
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
        let target = String(parts[1])
        let mark = target.firstIndex(of: "?")
        path = String(target[..<(mark ?? target.endIndex)])
        var query: [String: String] = [:]
        if let mark {
            for item in URLComponents(string: "/?" + target[target.index(after: mark)...])?.queryItems ?? [] {
                query[item.name] = item.value ?? ""
            }
        }
        self.query = query
        var headers: [(String, String)] = []
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { throw .malformed }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            if headers.count > Self.maxHeaders { throw .tooManyHeaders }
        }
        self.headers = headers
    }

    public subscript(header name: String) -> String? {
        headers.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public var wantsICYMetadata: Bool { self[header: "Icy-MetaData"] == "1" }

    /// The token from `?token=` or `Authorization: Bearer …`.
    public var token: String? {
        if let token = query["token"] { return token }
        guard let authorization = self[header: "Authorization"], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }
}
