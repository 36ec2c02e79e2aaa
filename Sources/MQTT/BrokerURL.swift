import Foundation

/// Where the broker is: `mqtt://[USER:PASS@]HOST[:PORT]` (1883) or `mqtts://…` (8883, TLS checked against the
/// system's certificate authorities).
public struct BrokerURL: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let tls: Bool
    public let user: String?
    public let password: String?

    /// Why a broker URL is not taken, in one line.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(parsing text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["mqtt", "mqtts"].contains(scheme),
              let host = components.host, !host.isEmpty else {
            throw Invalid(description: "invalid MQTT broker '\(BrokerURL.masked(text))': use mqtt://[USER:PASS@]HOST[:PORT] or mqtts://…")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil else {
            throw Invalid(description: "invalid MQTT broker '\(BrokerURL.masked(text))': a broker URL has no path or query")
        }
        tls = scheme == "mqtts"
        port = components.port ?? (tls ? 8883 : 1883)
        guard (1...65535).contains(port) else { throw Invalid(description: "invalid MQTT broker port \(port)") }
        self.host = host
        user = components.user?.removingPercentEncoding
        password = components.password?.removingPercentEncoding
    }

    /// The broker as a log line shows it: never the password.
    public var description: String {
        "\(tls ? "mqtts" : "mqtt")://\(user.map { "\($0):***@" } ?? "")\(host):\(port)"
    }

    private static func masked(_ text: String) -> String {
        // Everything before the last "@" (after the scheme) may be a password, whatever it holds.
        guard let at = text.lastIndex(of: "@") else { return text }
        let scheme = text.range(of: "://").flatMap { $0.upperBound <= at ? String(text[..<$0.upperBound]) : nil } ?? ""
        return scheme + "***" + text[at...]
    }
}
