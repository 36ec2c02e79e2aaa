import Foundation
import Hummingbird

/// What the server reads out of a request itself, before a route's own code: the ids in paths, the
/// bearer token, the login form and its CSRF field, where a login returns to. Public for the fuzz targets.
public enum RequestParsing {
    /// A path parameter naming an item: a positive number written in ASCII digits, nothing else (no sign, no
    /// leading zero), so an address names one item one way.
    public static func id<Text: StringProtocol>(_ text: Text?) -> Int64? {
        guard let text, let first = text.first, first != "0", text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(String(text))
    }

    /// The token of `Authorization: Bearer TOKEN`; nil for any other scheme.
    public static func bearerToken(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The fields of the login form (URL-encoded), whatever else it holds.
    public struct LoginForm: Decodable, Sendable {
        public var password: String?
        public var next: String?
        public var csrf: String?

        public init(parsing body: String) {
            self = (try? URLEncodedFormDecoder().decode(LoginForm.self, from: body)) ?? LoginForm()
        }

        private init() {}
    }

    /// The `csrf` field of a URL-encoded form.
    public static func csrfField(inForm body: String) -> String? { LoginForm(parsing: body).csrf }

    /// The fields of a query or a URL-encoded form, each name with its values in order (Subsonic repeats
    /// `id=` for a list). `+` is a space; a field that does not decode is dropped, not guessed at.
    public static func fields(_ text: Substring) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decoded(parts[0]), !name.isEmpty, let value = parts.count == 2 ? decoded(parts[1]) : "" else { continue }
            fields[name, default: []].append(value)
        }
        return fields
    }

    /// Where a login goes back to: only a path on this server (`//other.example` and `/\other.example` are not).
    public static func loginReturn(_ next: String?) -> String? {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
              !next.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else { return nil }
        return next
    }
}
