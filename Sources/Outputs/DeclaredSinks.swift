import Foundation
import RadioModel
import StreamInput

/// The sinks the owner declared on the box (`onair sinks add NAME SINK`), by name, in `sinks.json` in the
/// config folder. A request from the network (the API, the web pages) relays only to these: a sink
/// string names a file, a device, a socket or a server, which only the box's own user may choose.
public struct DeclaredSinks: Sendable, Equatable {
    /// Name → sink, as `--to` takes it.
    public private(set) var sinks: [String: String]

    /// Why a declaration or a requested sink is not taken, in one line.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public init(_ sinks: [String: String] = [:]) { self.sinks = sinks }

    public static func url(_ paths: AppPaths) -> URL { paths.config.appendingPathComponent("sinks.json") }

    /// The declared sinks now; none when the file does not exist. Blocking (a file).
    public static func load(_ paths: AppPaths) throws(DeclaredSinks.Refusal) -> DeclaredSinks {
        let url = url(paths)
        guard let data = FileManager.default.contents(atPath: url.path) else { return DeclaredSinks() }
        do {
            return DeclaredSinks(try JSONDecoder().decode([String: String].self, from: data))
        } catch {
            throw Refusal("\(url.path) is not a JSON object of sink names and sinks: fix or remove it")
        }
    }

    /// Declares `sink` as `name` (replacing one of that name), checked as `--to` checks it.
    public mutating func declare(_ name: String, _ sink: String) throws(DeclaredSinks.Refusal) {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw Refusal("invalid sink name '\(name)': use letters, digits, '-', '_' or '.'")
        }
        do { _ = try SinkSpec(parsing: sink) } catch { throw Refusal("\(error)") }
        sinks[name] = sink
    }

    /// Forgets `name`; false when it was not declared.
    public mutating func remove(_ name: String) -> Bool { sinks.removeValue(forKey: name) != nil }

    public func save(_ paths: AppPaths) throws(DeclaredSinks.Refusal) {
        let url = Self.url(paths)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(sinks).write(to: url, options: .atomic)
        } catch {
            throw Refusal("cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// The sink a request from the network names: a declared name, or a declared sink as written (the
    /// pages offer them so). Anything else is refused in one line, whatever its kind.
    public func resolve(_ requested: String) throws(DeclaredSinks.Refusal) -> String {
        if let sink = sinks[requested] { return sink }
        if sinks.values.contains(requested) { return requested }
        let names = sinks.keys.sorted()
        throw Refusal("'\(Self.shown(requested))' is not a sink declared on this box: over the network a relay goes only to those "
                      + (names.isEmpty ? "(none yet: `onair sinks add NAME SINK` on the box)" : "(\(names.joined(separator: ", ")))"))
    }

    /// A requested sink as a message may quote it: its password hidden, no control characters.
    private static func shown(_ text: String) -> String {
        UntrustedText.printable(URLRedaction.redact(text), maxLength: 200)
    }
}

