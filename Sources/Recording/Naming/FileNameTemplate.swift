import Foundation
import RadioModel

/// Where a recording goes, written as a path with tokens: `{station}/{date} {time} {programme}.{ext}`.
///
/// The template's own text is the user's and kept as written (directories, absolute paths); every
/// token's value comes from a catalogue or a stream and is sanitised (`FileNameToken`), so a title
/// like `../../x` or `/etc/passwd` stays one harmless name inside its directory. A relative template is
/// relative to `base`.
public struct FileNameTemplate: Sendable, Equatable, CustomStringConvertible {
    public static let tokens = ["station", "programme", "title", "date", "time", "ext"]
    /// One file per recording, sorted by station and time.
    public static let standard = FileNameTemplate(unchecked: "{station}/{date} {time} {programme}.{ext}")
    /// One file per track (`--split-tracks`).
    public static let tracks = FileNameTemplate(unchecked: "{station}/{date} {time} {title}.{ext}")
    /// Audio extensions a template may end in; the format decides which one the file really gets.
    static let audioExtensions: Set<String> = ["mp3", "m4a", "mp4", "aac", "ogg", "oga", "opus", "flac", "wav"]

    /// Longest file name without extension, in UTF-8 bytes: room is left for the partial file's
    /// ".NAME.partial.journal" and a " (999)" suffix within the usual 255-byte limit.
    static let maxStemBytes = 200

    public let text: String

    /// Checks that every `{…}` is a known token.
    public init(_ text: String) throws(RecordingError) {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw RecordingError("output template '\(text)' has a '{' without '}'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.tokens.contains(name) else {
                throw RecordingError("output template '\(text)' has an unknown token {\(name)}; use "
                                     + Self.tokens.map { "{\($0)}" }.joined(separator: " "))
            }
            rest = rest[rest.index(after: close)...]
        }
        guard !text.isEmpty, !text.hasSuffix("/") else { throw RecordingError("output template '\(text)' names no file") }
        self.text = text
    }

    private init(unchecked text: String) { self.text = text }

    /// A template as a request from the network may give it: inside the recordings folder. The box's own
    /// command line may write anywhere; a web page or an API client names no path of the box, so an
    /// absolute template, one starting with `~`, or one with a `..` component is refused.
    public init(fromNetwork text: String) throws(RecordingError) {
        let components = text.split(separator: "/", omittingEmptySubsequences: false)
        guard !text.hasPrefix("/"), !text.hasPrefix("~"), !components.contains(where: { $0 == ".." }), !text.contains("\0") else {
            throw RecordingError("output template '\(UntrustedText.printable(text, maxLength: 200))' leaves the recordings folder: over the network a template "
                                 + "is relative to it, without '..' (an absolute one is for `onair` on the box itself)")
        }
        try self.init(text)
    }

    public var description: String { text }

    /// What the tokens stand for in one recording.
    public struct Values: Sendable, Equatable {
        public var station: String
        public var programme: String?
        public var title: String?
        /// When the recording (or track) started, shown in `timeZone`.
        public var start: Date
        public var timeZone: TimeZone
        /// Without the dot: "mp3", "m4a", "opus".
        public var fileExtension: String
        /// Added to the file name, whatever the template: " (partial)" for a track cut by the recording's start or end.
        public var mark: String?

        public init(station: String, programme: String?, title: String?, start: Date, timeZone: TimeZone, fileExtension: String,
                    mark: String? = nil) {
            self.station = station; self.programme = programme; self.title = title; self.start = start
            self.timeZone = timeZone; self.fileExtension = fileExtension; self.mark = mark
        }
    }

    /// The path for these values. The extension is always the format's: a template ending in another
    /// audio extension gets it replaced, one without any gets it added.
    public func path(for values: Values, base: URL) -> URL {
        let clock = Self.clock(values.start, in: values.timeZone)
        let replacements: [String: String] = [
            "station": FileNameToken.sanitised(values.station),
            "programme": FileNameToken.sanitised(values.programme ?? ""),
            "title": FileNameToken.sanitised(values.title ?? ""),
            "date": clock.date,
            "time": clock.time,
            "ext": values.fileExtension,
        ]
        let absolute = text.hasPrefix("/")
        var components = text.split(separator: "/", omittingEmptySubsequences: true).map {
            Self.expand($0, replacements)
        }
        let mark = values.mark ?? ""
        var stem = Self.tidied(FileNameToken.truncated(Self.stem(of: components.removeLast(), extension: values.fileExtension),
                                                       maxBytes: Self.maxStemBytes - mark.utf8.count))
        if stem.isEmpty { stem = "untitled" }
        stem += mark
        let directories = components.map { component -> String in
            let tidy = Self.tidied(FileNameToken.truncated(component, maxBytes: Self.maxStemBytes))
            return tidy.isEmpty ? "untitled" : tidy
        }
        var url = absolute ? URL(fileURLWithPath: "/", isDirectory: true) : base
        for directory in directories { url.appendPathComponent(directory, isDirectory: true) }
        return url.appendingPathComponent(stem + "." + values.fileExtension)
    }

    /// The deepest directory every path of this template lies under: `base` (or `/` for an absolute template)
    /// and the template's directories before the first with a token. A recording's partial file and
    /// journal are somewhere below it, where a daemon taking over an episode looks for them.
    public func fixedDirectory(base: URL) -> URL {
        var url = text.hasPrefix("/") ? URL(fileURLWithPath: "/", isDirectory: true) : base
        for component in text.split(separator: "/", omittingEmptySubsequences: true).dropLast() {
            guard !component.contains("{") else { break }
            let tidy = Self.tidied(FileNameToken.truncated(String(component), maxBytes: Self.maxStemBytes))
            url.appendPathComponent(tidy.isEmpty ? "untitled" : tidy, isDirectory: true)
        }
        return url
    }

    /// One pass over the text, so a value that itself looks like a token stays as it is.
    private static func expand(_ component: Substring, _ replacements: [String: String]) -> String {
        var result = ""
        var rest = component
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            result += replacements[String(rest[rest.index(after: open)..<close])] ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The file name without its extension, whichever audio extension the template gave it.
    private static func stem(of name: String, extension fileExtension: String) -> String {
        if name.hasSuffix(".\(fileExtension)") { return String(name.dropLast(fileExtension.count + 1)) }
        if let dot = name.lastIndex(of: "."), audioExtensions.contains(name[name.index(after: dot)...].lowercased()) {
            return String(name[..<dot])
        }
        return name
    }

    /// A component whose tokens came out empty loses the spaces and dashes that framed them.
    private static func tidied(_ component: String) -> String {
        let words = component.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return FileNameToken.trimmed(words)
    }

    /// "2026-11-22" and "06-00" (no colons: FAT and SMB refuse them).
    static func clock(_ date: Date, in zone: TimeZone) -> (date: String, time: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return (String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!), String(format: "%02d-%02d", c.hour!, c.minute!))
    }
}
