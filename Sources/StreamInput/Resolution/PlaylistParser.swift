import Foundation
import RadioModel

/// What a fetched playlist contains.
public enum PlaylistContent: Sendable, Equatable {
    /// .pls or a plain .m3u: stream URLs to try in order.
    case entries([String])
    /// HLS master playlist: variants (and audio renditions, which are variants too).
    case hlsMaster([HLSVariant])
    /// HLS media playlist: the URL itself is the stream.
    case hlsMedia(MediaPlaylist)
}

public struct PlaylistError: Error, Sendable, CustomStringConvertible, Equatable {
    public var url: String
    public var line: Int?
    public var message: String
    public var description: String {
        "\(URLRedaction.redact(url))\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// Parses .pls, .m3u and HLS playlists with bounded size. Every URL it returns is absolute and
/// http or https: a remote playlist can never lead to a local file or another scheme.
public enum PlaylistParser {
    public static let maxBytes = 512 * 1024
    public static let maxEntries = 500

    /// Whether a response looks like a playlist or a DASH MPD (by media type, path or first bytes).
    public static func isPlaylist(mediaType: String?, url: String, body: Data) -> Bool {
        if AudioContentType.isPlaylist(mediaType) { return true }
        let path = (URL(string: url)?.path ?? "").lowercased()
        if [".pls", ".m3u", ".m3u8", ".mpd"].contains(where: path.hasSuffix) { return true }
        if MPDParser.isMPD(mediaType: mediaType, url: url, body: body) { return true }
        let start = text(of: body.prefix(64)).text.trimmingWhitespace()
        return start.hasPrefix("#EXTM3U") || start.lowercased().hasPrefix("[playlist]")
    }

    public static func parse(_ body: Data, url: String) throws -> PlaylistContent {
        guard body.count <= maxBytes else {
            throw PlaylistError(url: url, line: nil, message: "playlist larger than \(maxBytes) bytes")
        }
        guard let base = URL(string: url) else {
            throw PlaylistError(url: url, line: nil, message: "not a valid URL")
        }
        let (text, isLatin1) = text(of: body)
        let source = Source(base: base, url: url, isLatin1: isLatin1)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { String($0.trimmingWhitespace()) }
        // Comments may precede #EXTM3U (seen in the wild); only tags and URIs tell what the list is.
        let firstLine = lines.first { !$0.isEmpty && !($0.hasPrefix("#") && !$0.hasPrefix("#EXT")) } ?? ""
        if isPLS(lines, firstLine: firstLine) {
            return try parsePLS(lines, source)
        }
        if lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF") || $0.hasPrefix("#EXT-X-MEDIA:") }) {
            return .hlsMaster(try MasterPlaylistParser.parse(lines, base: base, url: url, escape: source.escape))
        }
        // A media playlist is known by its tags, even when its #EXTM3U line is missing (RFC 8216
        // requires it, but servers and hand-written lists omit it): its URIs are segments, not streams.
        if lines.contains(where: { $0.hasPrefix("#EXT-X-TARGETDURATION") || $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") }) {
            return .hlsMedia(try MediaPlaylistParser.parse(lines, base: base, url: url, escape: source.escape))
        }
        return try parseM3U(lines, source)
    }

    /// The body as text: UTF-8 without its byte-order mark when valid, else Latin-1 (which maps every
    /// byte, so a Windows-saved list still yields its URLs — they are escaped from those bytes, see `Source`).
    private static func text(of body: Data) -> (text: String, isLatin1: Bool) {
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let utf8 = String(validating: bytes, as: UTF8.self) { return (utf8, false) }
        return (String(latin1: bytes), true)
    }

    /// Where a playlist came from, and how its bytes became text.
    private struct Source {
        var base: URL
        var url: String
        /// The text was decoded as Latin-1: each non-ASCII character stands for one byte of the file.
        var isLatin1: Bool

        /// A reference as the server knows it: non-ASCII characters percent-escaped from the file's own
        /// bytes (Latin-1) or from UTF-8 — never replaced by U+FFFD.
        func escape(_ reference: String) -> String {
            guard reference.unicodeScalars.contains(where: { $0.value > 0x7E || $0.value < 0x21 }) else { return reference }
            var escaped = ""
            for scalar in reference.unicodeScalars {
                if scalar.value > 0x20 && scalar.value < 0x7F {
                    escaped.unicodeScalars.append(scalar)
                } else if isLatin1 && scalar.value <= 0xFF {
                    escaped += String(format: "%%%02X", scalar.value)
                } else {
                    escaped += String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
                }
            }
            return escaped
        }

        func absolute(_ reference: String, line: Int) throws -> String {
            try PlaylistParser.absolute(reference, line: line, base: base, url: url, escape: escape)
        }
    }

    /// A .pls starts with `[playlist]`; one saved without that line is still known by its `FileN=` keys
    /// when every other line is a .pls key too.
    private static func isPLS(_ lines: [String], firstLine: String) -> Bool {
        if firstLine.lowercased() == "[playlist]" { return true }
        let keyed = lines.filter { !$0.isEmpty }
        return keyed.contains { plsKey(of: $0)?.hasPrefix("file") == true }
            && keyed.allSatisfy { line in
                guard let key = plsKey(of: line) else { return false }
                return ["file", "title", "length", "numberofentries", "version"].contains { key.hasPrefix($0) }
            }
    }

    /// The lowercased key of a `Key=value` line, nil for anything else.
    private static func plsKey(of line: String) -> String? {
        guard let equals = line.firstIndex(of: "="), equals != line.startIndex,
              !line[..<equals].contains(where: { $0 == "/" || $0 == ":" || $0 == " " }) else { return nil }
        return line[..<equals].lowercased()
    }

    private static func parsePLS(_ lines: [String], _ source: Source) throws -> PlaylistContent {
        var files: [(index: Int, line: Int, value: String)] = []
        for (number, line) in lines.enumerated() {
            guard line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "=") else { continue }
            guard let index = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals]) else {
                throw PlaylistError(url: source.url, line: number + 1, message: "malformed entry '\(line.prefix(80))'")
            }
            let value = String(line[line.index(after: equals)...].trimmingWhitespace())
            files.append((index, number + 1, unquoted(value)))
        }
        let ordered = files.sorted { $0.index < $1.index }
        return .entries(try absolute(ordered.map { ($0.line, $0.value) }, source))
    }

    /// `"value"` or `'value'` → `value`: some players write .pls values quoted, and mopidy and VLC read them so.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first else { return value }
        return String(value.dropFirst().dropLast())
    }

    private static func parseM3U(_ lines: [String], _ source: Source) throws -> PlaylistContent {
        let candidates = lines.enumerated().filter { !$0.element.isEmpty && !$0.element.hasPrefix("#") }
            .map { ($0.offset + 1, $0.element) }
        return .entries(try absolute(candidates, source))
    }

    private static func absolute(_ entries: [(line: Int, value: String)], _ source: Source) throws -> [String] {
        guard entries.count <= maxEntries else {
            throw PlaylistError(url: source.url, line: entries[maxEntries].line, message: "more than \(maxEntries) entries")
        }
        var accepted: [String] = []
        var refused: PlaylistError?
        for entry in entries {
            do { accepted.append(try source.absolute(entry.value, line: entry.line)) }
            catch let error as PlaylistError { refused = refused ?? error }
        }
        if accepted.isEmpty {
            throw refused ?? PlaylistError(url: source.url, line: nil, message: "playlist lists no stream")
        }
        return accepted
    }

    /// `reference` resolved against the playlist's URL; only http and https are accepted. `escape`
    /// makes a reference with spaces or non-ASCII characters into a URL's characters first.
    static func absolute(_ reference: String, line: Int, base: URL, url: String,
                         escape: (String) -> String = { $0 }) throws -> String {
        // "C:\Music\x.mp3" is a Windows path, not a URL of scheme "c": it cannot reach anything on the server.
        if reference.contains("\\") {
            throw PlaylistError(url: url, line: line, message: "'\(reference.prefix(80))' is a Windows file path, not a URL")
        }
        guard let resolved = URL(string: escape(reference), relativeTo: base)?.absoluteURL,
              let scheme = resolved.scheme?.lowercased() else {
            throw PlaylistError(url: url, line: line, message: "not a URL: '\(reference.prefix(80))'")
        }
        guard scheme == "http" || scheme == "https" else {
            throw PlaylistError(url: url, line: line,
                                message: "refusing '\(reference.prefix(80))': a remote playlist may only point at http or https")
        }
        return resolved.absoluteString
    }
}
