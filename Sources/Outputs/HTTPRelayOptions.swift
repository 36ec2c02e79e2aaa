import Foundation

/// The options of an `http://ADDR:PORT/PATH?…` sink, written as its query:
///
/// - `format=copy` (default: the station's own bytes) or an encoding such as `mp3:128`, `aac`,
///   `opus:96`, `vorbis`, `flac`, `wav`: what this mount serves. The format belongs to the mount, so
///   it is encoded once for all its listeners; to offer several, add a sink per format on the same
///   port (`…/radio` and `…/radio.ogg?format=opus`): they share the server and the upstream.
/// - `token=SECRET`: listeners must send it (`?token=SECRET` or `Authorization: Bearer SECRET`).
/// - `allow-remote`: needed to bind anything but a loopback address, together with a token.
/// - `max-listeners=N` (default 256), `name=TEXT` (the `icy-name`; default: the station's name).
public struct HTTPRelayOptions: Sendable, Equatable, CustomStringConvertible {
    public var format: RelayFormat = .copy
    public var token: String?
    public var allowRemote = false
    public var maxListeners = 256
    public var name: String?

    public init() {}

    /// Parses the query of a sink URL; the error names the offending option.
    public init(query items: [URLQueryItem]) throws {
        for item in items {
            let value = item.value ?? ""
            switch item.name.lowercased() {
            case "format":
                guard let format = RelayFormat(value) else {
                    throw SinkError("unknown format '\(value)' (copy, mp3[:KBPS], aac[:KBPS], opus[:KBPS], vorbis[:KBPS], flac, wav)")
                }
                self.format = format
            case "token":
                guard !value.isEmpty else { throw SinkError("token= needs a value") }
                token = value
            case "allow-remote":
                guard ["", "1", "yes", "true"].contains(value.lowercased()) else { throw SinkError("allow-remote takes no value") }
                allowRemote = true
            case "max-listeners":
                guard let count = Int(value), (1...10_000).contains(count) else {
                    throw SinkError("max-listeners must be a number from 1 to 10000")
                }
                maxListeners = count
            case "name":
                name = value.isEmpty ? nil : value
            default:
                throw SinkError("unknown option '\(item.name)' (format, token, allow-remote, max-listeners, name)")
            }
        }
    }

    /// The query as written, with the token hidden: `?format=mp3:128&token=***`.
    public var description: String {
        var parts: [String] = []
        if format != .copy { parts.append("format=\(format)") }
        if token != nil { parts.append("token=***") }
        if allowRemote { parts.append("allow-remote") }
        if maxListeners != HTTPRelayOptions().maxListeners { parts.append("max-listeners=\(maxListeners)") }
        if let name { parts.append("name=\(name)") }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}
