import HTTPService

/// What the server reads from a request's path and headers before a route runs: an id names one item
/// one way (digits only, positive), and a bearer token is never empty.
func fuzzHTTPRoute(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for segment in text.split(separator: "/", omittingEmptySubsequences: false) {
        guard let id = RequestParsing.id(segment) else { continue }
        precondition(id > 0 && String(id) == segment, "the segment \(segment) read as the id \(id)")
    }
    if let token = RequestParsing.bearerToken(text) {
        precondition(!token.isEmpty && token.first != " " && text.lowercased().contains("bearer"), "the token \(token) from \(text)")
    }
    return 0
}
