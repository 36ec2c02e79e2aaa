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

/// Parses playlists with bounded size: .pls, .m3u and RealAudio .ram lists, HLS playlists, Windows Media
/// metafiles (ASX: .asx, .wax, .wvx; `ASXPlaylist`), XSPF (`XSPFPlaylist`) and ASF reference files. What a
/// body is comes from its first bytes (`PlaylistSniffer`), never from its Content-Type or name alone. Every
/// URL it returns is absolute and http or https: a remote playlist can never lead to a local file or
/// another scheme.
public enum PlaylistParser {
    /// The largest sequence number, start number, byte offset or length a playlist or manifest may give (2^53): far
    /// beyond any real one, and small enough that the sums a follower makes of them (a sequence plus a segment count,
    /// an offset plus a length) never overflow, which would stop the process.
    public static let largestNumber = 1 << 53

    public static let maxBytes = 512 * 1024
    public static let maxEntries = 500

    /// Whether a response looks like a playlist or a DASH MPD (by media type, path or first bytes).
    public static func isPlaylist(mediaType: String?, url: String, body: Data) -> Bool {
        if AudioContentType.isPlaylist(mediaType) { return true }
        let path = (URL(string: url)?.path ?? "").lowercased()
        if PlaylistSniffer.playlistSuffixes.contains(where: path.hasSuffix) { return true }
        if MPDParser.isMPD(mediaType: mediaType, url: url, body: body) { return true }
        return PlaylistSniffer.isPlaylist(body)
    }

    /// `importing`: the master playlist's EXT-X-DEFINE variables, when `body` may be its media playlist.
    public static func parse(_ body: Data, url: String, importing: [String: String] = [:]) throws -> PlaylistContent {
        try read(body, url: url, importing: importing).content
    }

    /// The playlist whole: what to follow, its items with their titles, what was skipped and what was read leniently.
    public static func read(_ body: Data, url: String, importing: [String: String] = [:]) throws -> PlaylistReading {
        guard body.count <= maxBytes else {
            throw PlaylistError(url: url, line: nil, message: "playlist larger than \(maxBytes) bytes")
        }
        guard let base = URL(string: url) else {
            throw PlaylistError(url: url, line: nil, message: "not a valid URL")
        }
        let format = PlaylistSniffer.format(of: body)
        switch format {
        case .windowsMedia:
            throw PlaylistError(url: url, line: nil,
                                message: "Windows Media (ASF) data, not an ASX playlist: onair does not play Windows Media")
        case .realMedia:
            throw PlaylistError(url: url, line: nil, message: "RealMedia data, not a playlist: onair does not play RealMedia")
        case .binary:
            throw PlaylistError(url: url, line: nil, message: "binary data, not a playlist")
        default:
            break
        }
        let (text, isLatin1) = text(of: body)
        let source = Source(base: base, url: url, isLatin1: isLatin1)
        switch format {
        case .asx:
            return try ASXPlaylist.read(text, source: source)
        case .xspf:
            return try XSPFPlaylist.read(body, text: text, source: source)
        default:
            break
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { String($0.trimmingWhitespace()) }
        let plsHeader = lines.firstIndex { $0.first == "[" && $0.lowercased() == "[playlist]" }
        // Markup before a .pls's header is a stray line (a server's error page glued on); any other markup is
        // a document onair does not read, not a list whose lines are URLs.
        if format == .otherXML && plsHeader == nil {
            let root = XMLRoot.name(in: String(text.drop { $0.isWhitespace }.prefix(4096))) ?? "?"
            throw PlaylistError(url: url, line: nil,
                                message: "an XML document whose root is <\(root.prefix(40))>, not a playlist onair reads (ASX, XSPF)")
        }
        if format == .asfReference {
            let header = lines.firstIndex { $0.lowercased() == "[reference]" }
            return try reading(keyed(lines, after: header, key: "ref", source), format: .asfReference, source: source)
        }
        if let header = plsHeader {
            return try reading(keyed(lines, after: header, key: "file", source), format: .pls, source: source)
        }
        if isPLS(lines) {
            return try reading(keyed(lines, key: "file", source), format: .pls, source: source)
        }
        if lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF") || $0.hasPrefix("#EXT-X-MEDIA:") }) {
            let variants = try MasterPlaylistParser.parse(lines, base: base, url: url, escape: source.escape)
            return PlaylistReading(format: .lines, content: .hlsMaster(variants), items: [], skipped: [], warnings: [])
        }
        // A media playlist is known by its tags, even when its #EXTM3U line is missing (RFC 8216
        // requires it, but servers and hand-written lists omit it): its URIs are segments, not streams.
        if lines.contains(where: { $0.hasPrefix("#EXT-X-TARGETDURATION") || $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") }) {
            let playlist = try MediaPlaylistParser.parse(lines, base: base, url: url, escape: source.escape, imported: importing)
            return PlaylistReading(format: .lines, content: .hlsMedia(playlist), items: [], skipped: [], warnings: [])
        }
        return try reading(listed(lines, source), format: .lines, source: source)
    }

    /// The body as text: UTF-16 when it says so (a Windows tool's file); UTF-8 without its byte-order mark
    /// when valid, else Latin-1 (which maps every byte, so a Windows-saved list still yields its URLs — they
    /// are escaped from those bytes, see `Source`).
    private static func text(of body: Data) -> (text: String, isLatin1: Bool) {
        if let utf16 = PlaylistText.utf16(body) { return (utf16.hasPrefix("\u{FEFF}") ? String(utf16.dropFirst()) : utf16, false) }
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let utf8 = String(validating: bytes, as: UTF8.self) { return (utf8, false) }
        return (String(latin1: bytes), true)
    }

    /// Where a playlist came from, and how its bytes became text.
    struct Source {
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

    /// Whether a `[playlist]` line opens the text (after white space): how a .pls is known by its first bytes.
    static func plsHeader(in text: String) -> Bool {
        let first = text.drop { $0.isWhitespace }.prefix { !$0.isNewline }
        return first.trimmingWhitespace().lowercased() == "[playlist]"
    }

    /// A .pls saved without its `[playlist]` line is still known by its `FileN=` keys when every other line
    /// is a .pls key too. (One with the line is known by it wherever it stands: see `keyed`.)
    private static func isPLS(_ lines: [String]) -> Bool {
        let keyed = lines.filter { !$0.isEmpty }
        return keyed.contains { plsKey(of: $0)?.hasPrefix("file") == true }
            && keyed.allSatisfy { line in
                guard let key = plsKey(of: line) else { return false }
                return ["file", "title", "length", "numberofentries", "version"].contains { key.hasPrefix($0) }
            }
    }

    /// The lowercased key of a `Key=value` line (white space around the key dropped), nil for anything else.
    private static func plsKey(of line: String) -> String? {
        guard let equals = line.firstIndex(of: "="), equals != line.startIndex else { return nil }
        let key = line[..<equals].trimmingWhitespace()
        guard !key.isEmpty, !key.contains(where: { $0 == "/" || $0 == ":" || $0 == " " }) else { return nil }
        return key.lowercased()
    }

    /// The entries of a keyed list — a .pls's `FileN=` with their `TitleN=`, an ASF reference file's `RefN=` —
    /// in the order of N, whatever order the lines are in: gaps in the numbering are fine, and
    /// `NumberOfEntries` is not believed (it is often wrong; the keys say what is there). With a `header`
    /// line, reading starts after it — lines before `[playlist]` (an HTML error's remains, a comment, a
    /// stray line) are not entries, as Winamp and VLC read from the header on — and ends at the next
    /// `[section]`.
    private static func keyed(_ lines: [String], after header: Int? = nil, key: String, _ source: Source) throws -> [RawItem] {
        var entries: [(index: Int, reference: Reference)] = []
        var titles: [Int: String] = [:]
        for number in (header.map { $0 + 1 } ?? 0)..<lines.count {
            let line = lines[number]
            if header != nil && line.hasPrefix("[") && line.hasSuffix("]") { break }
            guard let name = plsKey(of: line), let equals = line.firstIndex(of: "=") else { continue }
            let value = unquoted(String(line[line.index(after: equals)...].trimmingWhitespace()))
            if name.hasPrefix(key) {
                guard let index = Int(name.dropFirst(key.count)), index >= 0 else {
                    throw PlaylistError(url: source.url, line: number + 1, message: "malformed entry '\(line.prefix(80))'")
                }
                entries.append((index, Reference(line: number + 1, value: value, base: source.base)))
            } else if name.hasPrefix("title"), let index = Int(name.dropFirst(5)), titles[index] == nil {
                titles[index] = value
            }
        }
        // By N, and by line among equal N: Swift's sort is not promised to be stable.
        return entries.sorted { ($0.index, $0.reference.line) < ($1.index, $1.reference.line) }
            .map { RawItem(title: titles[$0.index], references: [$0.reference]) }
    }

    /// `"value"` or `'value'` → `value`: some players write .pls values quoted, and mopidy and VLC read them so.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first else { return value }
        return String(value.dropFirst().dropLast())
    }

    /// A list of URLs, one a line: an .m3u (each `#EXTINF:` title kept for the entry after it), a RealAudio
    /// .ram (which ends at `--stop--`, as RealPlayer and totem read it; its rtsp: and pnm: entries are
    /// skipped as every scheme but http and https is), a plain list.
    private static func listed(_ lines: [String], _ source: Source) -> [RawItem] {
        var items: [RawItem] = []
        var title: String?
        for (offset, line) in lines.enumerated() {
            if line == "--stop--" { break }
            if line.hasPrefix("#EXTINF:") {
                title = extinfTitle(line)
            } else if !line.isEmpty && !line.hasPrefix("#") {
                items.append(RawItem(title: title, references: [Reference(line: offset + 1, value: line, base: source.base)]))
                title = nil
            }
        }
        return items
    }

    /// The title of `#EXTINF:duration attributes,title`: what follows the first comma outside quotes (IPTV-style
    /// attributes such as `tvg-logo="a,b"` may hold commas); nil without a comma.
    static func extinfTitle(_ line: String) -> String? {
        var quoted = false
        for index in line.indices {
            switch line[index] {
            case "\"": quoted.toggle()
            case "," where !quoted:
                let title = line[line.index(after: index)...].trimmingWhitespace()
                return title.isEmpty ? nil : String(title)
            default: break
            }
        }
        return nil
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
