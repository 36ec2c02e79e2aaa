import Foundation
import StreamInput

/// Where PCM or audio goes, written as one string: `fifo:PATH`, `tcp:HOST:PORT`, `speaker`, `pulse[:SERVER[/SINK]]`,
/// `alsa[:DEVICE]`, `wav:PATH`, `stdout`, `http://ADDR:PORT/PATH` (see docs/http-relay.md), `icecast://USER:PASS@HOST:PORT/MOUNT`.
public enum SinkSpec: Sendable, Equatable, CustomStringConvertible {
    case speaker
    case pulse(server: String?, sink: String?)
    case alsa(device: String?)
    case stdout
    case wav(path: String)
    case fifo(path: String)
    case tcp(host: String, port: Int)
    /// Serve the stream over HTTP at this address and path (options from the query: HTTPRelayOptions).
    case httpServe(host: String, port: Int, path: String, options: HTTPRelayOptions = HTTPRelayOptions())
    /// Push to an Icecast server as a source client.
    case icecast(url: String)

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String {
            "invalid sink '\(SinkSpec.redacted(text))': \(reason) (sinks: speaker, pulse[:SERVER[/SINK]], alsa[:DEVICE], stdout, wav:PATH, fifo:PATH, tcp:HOST:PORT, http://ADDR:PORT/PATH, icecast://USER:PASS@HOST:PORT/MOUNT)"
        }
    }

    public init(parsing text: String) throws {
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        let (kind, rest) = text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) }
            ?? (text, "")
        let hasArgument = text.contains(":")
        switch kind.lowercased() {
        case "speaker":
            guard !hasArgument else { throw fail("speaker takes no argument") }
            self = .speaker
        case "stdout", "-":
            guard !hasArgument else { throw fail("stdout takes no argument") }
            self = .stdout
        case "pulse":
            // A unix socket server is a path, all of it: such a server plays to its default sink.
            if rest.lowercased().hasPrefix("unix:") {
                self = .pulse(server: rest, sink: nil)
                break
            }
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            self = .pulse(server: parts[0].isEmpty ? nil : parts[0], sink: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil)
        case "alsa":
            self = .alsa(device: rest.isEmpty ? nil : rest)
        case "wav", "fifo":
            guard !rest.isEmpty else { throw fail("a path is needed") }
            guard !rest.contains("\0") else { throw fail("the path contains a NUL byte") }
            self = kind.lowercased() == "wav" ? .wav(path: rest) : .fifo(path: rest)
        case "tcp":
            guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
                  (1...65535).contains(port), colon > rest.startIndex else { throw fail("expected tcp:HOST:PORT") }
            self = .tcp(host: String(rest[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port)
        case "http":
            guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty, let port = url.port,
                  (1...65535).contains(port) else { throw fail("expected http://ADDR:PORT/PATH") }
            let options: HTTPRelayOptions
            do { options = try HTTPRelayOptions(query: url.queryItems ?? []) } catch { throw fail("\(error)") }
            self = .httpServe(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port,
                              path: url.path.isEmpty ? "/" : url.path, options: options)
        case "icecast":
            do { _ = try IcecastTarget(url: text) } catch { throw fail("\(error)") }
            self = .icecast(url: text)
        default:
            throw fail("unknown kind '\(kind)'")
        }
    }

    /// The sink as written, with any password hidden.
    public var description: String {
        switch self {
        case .speaker: return "speaker"
        case .pulse(let server, let sink): return "pulse" + (server.map { ":\($0)" } ?? (sink == nil ? "" : ":")) + (sink.map { "/\($0)" } ?? "")
        case .alsa(let device): return "alsa" + (device.map { ":\($0)" } ?? "")
        case .stdout: return "stdout"
        case .wav(let path): return "wav:\(path)"
        case .fifo(let path): return "fifo:\(path)"
        case .tcp(let host, let port): return "tcp:\(host):\(port)"
        case .httpServe(let host, let port, let path, let options):
            return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)\(options)"
        case .icecast(let url): return Self.redacted(url)
        }
    }

    /// A sink string with its password and token hidden, for messages about it, whatever their encoding.
    static func redacted(_ text: String) -> String {
        URLRedaction.maskingPassword(text).replacingOccurrences(of: "(?i)([?&]token=)[^&#]*", with: "$1***", options: .regularExpression)
    }
}
