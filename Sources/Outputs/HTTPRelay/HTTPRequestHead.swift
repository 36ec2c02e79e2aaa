import Foundation

/// A client's request line and headers, parsed within the relay's limits.
struct HTTPRequestHead {
    /// Larger heads are refused (431): no player needs more, and it bounds memory per connection.
    static let maxBytes = 8 * 1024
    static let maxHeaders = 64

    enum Failure: Error {
        case malformed
        case tooManyHeaders
    }

    let method: String
    /// The target without its query, percent-encoded as sent.
    let path: String
    let query: [String: String]
    let headers: [(name: String, value: String)]

    /// Where the head ends in `bytes` (just after the blank line), once it has arrived.
    static func end(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 0x0A && bytes[index - 1] == 0x0D
            && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    init(_ bytes: ArraySlice<UInt8>) throws(Failure) {
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

    subscript(header name: String) -> String? {
        headers.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var wantsICYMetadata: Bool { self[header: "Icy-MetaData"] == "1" }

    /// The token from `?token=` or `Authorization: Bearer …`.
    var token: String? {
        if let token = query["token"] { return token }
        guard let authorization = self[header: "Authorization"], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }
}
