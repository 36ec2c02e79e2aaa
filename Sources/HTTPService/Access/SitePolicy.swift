import Foundation
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// Which requests come from a page of this server's own site, whatever credentials they carry. Pure, so
/// the fuzz target and the tests hold it directly; `SiteGuard` applies it to every request.
///
/// - The `Host` a browser sends names the site it believes it talks to. A page of another site that got
///   its name resolved to this box (DNS rebinding) still sends its own name, so only names the owner set
///   up are answered: `localhost`, an IP address (a rebinding page cannot have one as its name), the host
///   of `--public-url` and each `--allow-host`.
/// - A request that changes state must come from this site: its `Origin`, when a browser sends one (every
///   current browser does on a POST, PUT, PATCH or DELETE), names this site's host and port, or the public
///   URL's origin; `Sec-Fetch-Site`, when sent, says `same-origin` or `none` (typed by the user). `Origin:
///   null` (a sandboxed frame, a redirect across sites) is never this site.
public struct SitePolicy: Sendable, Equatable {
    /// Names other than `localhost` and IP addresses that this server answers to, lower-case.
    public var names: Set<String>
    /// The origin (`https://radio.example`, `http://box:8080`) the owner serves this server as, behind a proxy.
    public var publicOrigin: String?

    public init(allowHosts: [String] = [], publicURL: URL? = nil) {
        var names = Set(allowHosts.compactMap { Self.hostName(ofHostHeader: $0) })
        publicOrigin = publicURL.flatMap(Self.origin(of:))
        if let host = publicURL?.host { names.insert(Self.normalised(host)) }
        self.names = names
    }

    /// Whether a request with this `Host` header is for this server. No header at all is not a browser
    /// (HTTP/1.0 players): nothing a rebinding page could send.
    public func answers(host header: String?) -> Bool {
        guard let header else { return true }
        guard let name = Self.hostName(ofHostHeader: header) else { return false }
        return name == "localhost" || Self.isIPAddress(name) || names.contains(name)
    }

    /// Why a request that changes state is not this site's own; nil when it is.
    public func crossSiteReason(origin: String?, fetchSite: String?, host: String?) -> String? {
        if let fetchSite, !["same-origin", "none"].contains(fetchSite.lowercased()) {
            return "a request from another site (Sec-Fetch-Site: \(fetchSite.prefix(20))) may not change anything here"
        }
        guard let origin else { return nil }
        let claimed = origin.trimmingCharacters(in: .whitespaces).lowercased()
        if let publicOrigin, claimed == publicOrigin { return nil }
        if let host, let own = Self.authority(ofHostHeader: host),
           let theirs = URL(string: claimed).flatMap(Self.origin(of:)).flatMap({ Self.authority(ofOrigin: $0) }), theirs == own {
            return nil
        }
        return "a request from another site (Origin: \(Self.printable(origin))) may not change anything here"
    }

    /// `scheme://host[:port]`, lower-case, without a default port; nil for anything but http(s).
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty else { return nil }
        let name = normalised(host)
        let shown = name.contains(":") ? "[\(name)]" : name
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(shown)" + (url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
    }

    /// An origin's `host[:port]` as a Host header would say it (the port only when not the default).
    private static func authority(ofOrigin origin: String) -> String? {
        guard let range = origin.range(of: "://") else { return nil }
        return String(origin[range.upperBound...])
    }

    /// A Host header's `host[:port]`, normalised: lower-case, no trailing dot, no default port 80.
    private static func authority(ofHostHeader header: String) -> String? {
        guard let name = hostName(ofHostHeader: header) else { return nil }
        let shown = name.contains(":") ? "[\(name)]" : name
        let port = portText(ofHostHeader: header)
        return port == nil || port == "80" ? shown : "\(shown):\(port!)"
    }

    /// The host of a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower-case, without
    /// brackets or a trailing dot; nil for one that is not a host at all.
    public static func hostName(ofHostHeader header: String) -> String? {
        let text = header.trimmingCharacters(in: .whitespaces)
        var host: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            guard isIPv6(String(host)) else { return nil }
        } else {
            if let colon = text.lastIndex(of: ":") {
                guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
                host = text[..<colon]
            } else {
                host = Substring(text)
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
            else { return nil }
        }
        let name = normalised(String(host))
        return name.isEmpty ? nil : name
    }

    private static func portText(ofHostHeader header: String) -> String? {
        let text = header.trimmingCharacters(in: .whitespaces)
        let afterHost = text.hasPrefix("[") ? text.firstIndex(of: "]").map { text[text.index(after: $0)...] } ?? "" : Substring(text)
        guard let colon = afterHost.lastIndex(of: ":") else { return nil }
        let port = afterHost[afterHost.index(after: colon)...]
        return port.isEmpty ? nil : String(port)
    }

    private static func normalised(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// A dotted-quad IPv4 address or an IPv6 address, as inet_pton reads them (no `127.1`, no decimal forms:
    /// browsers rewrite those to dotted quads before they send them).
    static func isIPAddress(_ name: String) -> Bool {
        var v4 = in_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || isIPv6(name)
    }

    private static func isIPv6(_ name: String) -> Bool {
        var v6 = in6_addr()
        return inet_pton(AF_INET6, name, &v6) == 1
    }

    /// Header text as it may be quoted in a message.
    static func printable(_ text: String) -> String { UntrustedText.printable(text, maxLength: 100) }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
