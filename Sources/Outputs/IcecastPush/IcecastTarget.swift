import Foundation
import Media

/// Where and how to push, from `icecast://USER:PASS@HOST:PORT/MOUNT?format=mp3:128&name=TEXT&public=1`.
/// USER defaults to `source`. `format` is `mp3:128` unless given: an encoding, or `copy` for the
/// station's own bytes. `public=1` lets Icecast list the stream in public directories (off by default).
struct IcecastTarget: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    /// The mount as Icecast names it (`/live`), and as it goes into a request line.
    let mount: String
    let mountInRequest: String
    let user: String
    let password: String
    let format: RelayFormat
    let name: String?
    let isPublic: Bool

    init(url: String) throws {
        guard let parts = URLComponents(string: url), parts.scheme?.lowercased() == "icecast", let host = parts.host,
              !host.isEmpty, let port = parts.port, (1...65535).contains(port), parts.path.count > 1 else {
            throw SinkError("expected icecast://USER:PASS@HOST:PORT/MOUNT")
        }
        guard let password = parts.password, !password.isEmpty else {
            throw SinkError("the Icecast source password is missing (icecast://source:PASS@\(host):\(port)\(parts.path))")
        }
        self.host = host
        self.port = port
        mount = parts.path
        mountInRequest = parts.percentEncodedPath
        user = parts.user.flatMap { $0.isEmpty ? nil : $0 } ?? "source"
        self.password = password
        var format = RelayFormat.encode(.mp3(kbps: 128))
        var name: String?
        var isPublic = false
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name.lowercased() {
            case "format":
                guard let chosen = RelayFormat(value) else {
                    throw SinkError("unknown format '\(value)' (copy, mp3[:KBPS], aac[:KBPS], opus[:KBPS], vorbis[:KBPS], flac)")
                }
                format = chosen
            case "name":
                name = value.isEmpty ? nil : value
            case "public":
                guard let flag = ["0": false, "1": true][value] else { throw SinkError("public must be 0 or 1") }
                isPublic = flag
            default:
                throw SinkError("unknown option '\(item.name)' (format, name, public)")
            }
        }
        if format == .encode(.wav) { throw SinkError("Icecast does not relay WAV; choose flac for lossless") }
        self.format = format
        self.name = name
        self.isPublic = isPublic
    }

    /// The target without its password: for events and errors.
    var description: String { "icecast://\(user)@\(authority)\(mount)" }

    /// `host:port`, with an IPv6 address in brackets, as URLs and the Host header write it.
    var authority: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    var basicAuthorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    /// Icecast's call that sets the mount's title, in UTF-8 (without `charset` it reads Latin-1).
    func titleUpdateURL(_ title: String) -> String {
        "http://\(authority)/admin/metadata?mount=\(Self.percentEncoded(mount))"
            + "&mode=updinfo&charset=UTF-8&song=\(Self.percentEncoded(title))"
    }

    /// Every byte outside RFC 3986's unreserved set, so `&`, `=`, `+` and `'` in titles survive.
    private static func percentEncoded(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        return text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }
}
