import Foundation

/// Response headers, looked up case-insensitively. Repeated names keep the last value.
public struct HTTPHeaders: Sendable, Equatable {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public subscript(name: String) -> String? {
        fields.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    mutating func append(name: String, value: String) { fields.append((name, value)) }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// Status and headers of the final response (after redirects).
public struct ResponseHead: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    /// The URL that answered, after redirects.
    public var url: String

    public init(status: Int, headers: HTTPHeaders, url: String) {
        self.status = status; self.headers = headers; self.url = url
    }

    /// The media type without parameters, lowercased: "audio/mpeg".
    public var mediaType: String? {
        guard let raw = headers["content-type"] else { return nil }
        let type = raw.split(separator: ";", maxSplits: 1).first.map(String.init) ?? raw
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// A completed one-shot request.
public struct HTTPResponse: Sendable {
    public var head: ResponseHead
    public var body: Data
    /// True when the transfer was stopped on purpose after the headers (an audio stream, say).
    public var stoppedAfterHead: Bool
}

/// What to fetch and how patiently.
public struct TransferRequest: Sendable {
    public static let defaultUserAgent = "onair/0.1 (Linux internet radio recorder)"

    public var url: String
    public var headers: [(name: String, value: String)]
    /// Seconds to establish the TCP/TLS connection.
    public var connectTimeout: Double
    /// Seconds without a single byte after which the transfer counts as dead.
    public var stallTimeout: Double
    /// Seconds the whole transfer may take, however steadily the bytes come; nil: as long as they come (a live stream).
    public var totalTimeout: Double?
    /// HTTP redirects followed at most; they may only lead to http or https.
    public var maxRedirects: Int
    public var userAgent: String
    /// Sent as a POST when set (an alert to a webhook); nil makes a GET.
    public var body: Data?
    /// An error status's body is read (within the fetch's byte limit) into the TransferError, for
    /// answers that explain themselves (a SOAP fault); otherwise the transfer ends at the error's headers.
    public var keepsErrorBody: Bool

    public init(url: String, headers: [(name: String, value: String)] = [], connectTimeout: Double = 10,
                stallTimeout: Double = 15, maxRedirects: Int = 5, userAgent: String = defaultUserAgent, body: Data? = nil,
                keepsErrorBody: Bool = false) {
        self.url = url; self.headers = headers; self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout; self.maxRedirects = maxRedirects; self.userAgent = userAgent; self.body = body
        self.keepsErrorBody = keepsErrorBody
    }
}

/// Why a transfer did not complete.
public struct TransferError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case unsupportedScheme, dns, connect, timeout, stalled, http, connectionLost
        case tooManyRedirects, tls, tooLarge, cancelled, protocolError, other
    }

    public var kind: Kind
    public var url: String
    public var message: String
    /// The HTTP status, for `.http`.
    public var status: Int?
    /// The error response's body, for `.http` when the request keeps it (`keepsErrorBody`).
    public var body: Data?

    public init(kind: Kind, url: String, message: String, status: Int? = nil, body: Data? = nil) {
        self.kind = kind; self.url = url; self.message = message; self.status = status; self.body = body
    }

    /// A transfer that might succeed if tried again later.
    public var isTransient: Bool {
        switch kind {
        case .unsupportedScheme, .tooManyRedirects, .tooLarge, .cancelled: return false
        case .http: return (status ?? 0) >= 500 || status == 408 || status == 429
        default: return true
        }
    }

    public var description: String { "\(URLRedaction.redact(url)): \(message)" }
}

/// Hides credentials in URLs (icecast://source:secret@host) before they reach a log or the screen.
public enum URLRedaction {
    /// The URL with its password hidden. Always by plain splitting, never through URLComponents: its
    /// `password` is nil for a password it cannot percent-decode (`%ca`), which would leave it in plain view.
    public static func redact(_ url: String) -> String { maskingPassword(url) }

    /// `scheme://user:***@host…` by plain splitting: everything from the userinfo's first colon to the
    /// authority's last `@` is hidden, which covers the password however a parser or a person reads it.
    public static func maskingPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let authorityEnd = url[scheme.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[scheme.upperBound..<authorityEnd].range(of: "@", options: .backwards),
              let colon = url[scheme.upperBound..<at.lowerBound].firstIndex(of: ":") else { return url }
        return url.replacingCharacters(in: url.index(after: colon)..<at.lowerBound, with: "***")
    }
}
