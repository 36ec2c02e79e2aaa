/// The relay server's response heads: HTTP/1.0 style, every body ends with the connection.
enum RelayResponse {
    static func head(status: Int, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.0 \(status) \(reason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// An error or a small document: the head and the whole body.
    static func complete(status: Int, contentType: String = "text/plain; charset=utf-8", body: String,
                         headers: [(String, String)] = []) -> [UInt8] {
        let bytes = Array(body.utf8)
        return head(status: status, headers: [("Content-Type", contentType), ("Content-Length", "\(bytes.count)"),
                                              ("Cache-Control", "no-cache"), ("Connection", "close")] + headers) + bytes
    }

    /// A one-line plain-text error saying what went wrong.
    static func error(_ status: Int, saying detail: String? = nil, headers: [(String, String)] = []) -> [UInt8] {
        complete(status: status, body: "\(status) \(reason(status))" + (detail.map { ": \($0)" } ?? "") + "\n", headers: headers)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}
