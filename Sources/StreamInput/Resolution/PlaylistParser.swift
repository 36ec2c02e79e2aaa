import Foundation

/// A variant stream of an HLS master playlist.
public struct HLSVariant: Sendable, Equatable, Codable {
    public var url: String
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var codecs: [String]
    /// The audio rendition group it refers to, if any.
    public var audioGroup: String?

    /// The codec as onair names it ("aac", "he-aac", "mp3", ...), from the first audio codec tag.
    public var codec: String? { codecs.lazy.compactMap(HLSCodecs.name(forTag:)).first }
}

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
        let start = String(decoding: body.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return start.hasPrefix("#EXTM3U") || start.lowercased().hasPrefix("[playlist]")
    }

    public static func parse(_ body: Data, url: String) throws -> PlaylistContent {
        guard body.count <= maxBytes else {
            throw PlaylistError(url: url, line: nil, message: "playlist larger than \(maxBytes) bytes")
        }
        guard let base = URL(string: url) else {
            throw PlaylistError(url: url, line: nil, message: "not a valid URL")
        }
        let text = String(decoding: body, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let firstLine = lines.first { !$0.isEmpty } ?? ""
        if firstLine.lowercased() == "[playlist]" {
            return try parsePLS(lines, base: base, url: url)
        }
        if firstLine.hasPrefix("#EXTM3U"), lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF") || $0.hasPrefix("#EXT-X-MEDIA:") }) {
            return try parseMaster(lines, base: base, url: url)
        }
        if firstLine.hasPrefix("#EXTM3U"), lines.contains(where: { $0.hasPrefix("#EXT-X-TARGETDURATION") || $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") }) {
            return .hlsMedia(try MediaPlaylistParser.parse(lines, base: base, url: url))
        }
        return try parseM3U(lines, base: base, url: url)
    }

    private static func parsePLS(_ lines: [String], base: URL, url: String) throws -> PlaylistContent {
        var files: [(index: Int, line: Int, value: String)] = []
        for (number, line) in lines.enumerated() {
            guard line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "=") else { continue }
            guard let index = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals]) else {
                throw PlaylistError(url: url, line: number + 1, message: "malformed entry '\(line.prefix(80))'")
            }
            files.append((index, number + 1, String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)))
        }
        let ordered = files.sorted { $0.index < $1.index }
        return .entries(try absolute(ordered.map { ($0.line, $0.value) }, base: base, url: url))
    }

    private static func parseM3U(_ lines: [String], base: URL, url: String) throws -> PlaylistContent {
        let candidates = lines.enumerated().filter { !$0.element.isEmpty && !$0.element.hasPrefix("#") }
            .map { ($0.offset + 1, $0.element) }
        return .entries(try absolute(candidates, base: base, url: url))
    }

    private static func parseMaster(_ lines: [String], base: URL, url: String) throws -> PlaylistContent {
        var variants: [HLSVariant] = []
        var pending: (line: Int, attributes: [String: String])?
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = (number, attributes(of: line))
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let attributes = attributes(of: line)
                guard attributes["TYPE"] == "AUDIO", let uri = attributes["URI"] else { continue }
                variants.append(HLSVariant(url: try absolute(uri, line: number, base: base, url: url),
                                           bandwidth: 0, averageBandwidth: nil, codecs: [], audioGroup: attributes["GROUP-ID"]))
            } else if !line.isEmpty, !line.hasPrefix("#"), let inf = pending {
                guard let bandwidth = inf.attributes["BANDWIDTH"].flatMap({ Int($0) }) else {
                    throw PlaylistError(url: url, line: inf.line, message: "EXT-X-STREAM-INF without a BANDWIDTH")
                }
                let codecs = (inf.attributes["CODECS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                variants.append(HLSVariant(url: try absolute(line, line: number, base: base, url: url), bandwidth: bandwidth,
                                           averageBandwidth: inf.attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                                           codecs: codecs, audioGroup: inf.attributes["AUDIO"]))
                pending = nil
            }
            guard variants.count <= maxEntries else {
                throw PlaylistError(url: url, line: number, message: "more than \(maxEntries) variants")
            }
        }
        guard !variants.isEmpty else {
            throw PlaylistError(url: url, line: nil, message: "master playlist without any variant")
        }
        // Renditions borrow the bandwidth of the variants that use them, so quality choice sees them.
        for index in variants.indices where variants[index].bandwidth == 0 {
            let users = variants.filter { $0.bandwidth > 0 && $0.audioGroup == variants[index].audioGroup }
            variants[index].bandwidth = users.map(\.bandwidth).min() ?? 0
            variants[index].codecs = users.first?.codecs.filter { HLSCodecs.name(forTag: $0) != nil } ?? []
        }
        return .hlsMaster(variants)
    }

    /// `KEY=value,KEY="quoted, with commas"` as found after the tag's colon.
    public static func attributes(of line: String) -> [String: String] {
        guard let colon = line.firstIndex(of: ":") else { return [:] }
        var result: [String: String] = [:]
        var key = "", value = "", inKey = true, inQuotes = false
        for ch in line[line.index(after: colon)...] {
            if inKey {
                if ch == "=" { inKey = false } else if ch != "," { key.append(ch) }
            } else if ch == "\"" {
                inQuotes.toggle()
            } else if ch == "," && !inQuotes {
                result[key.trimmingCharacters(in: .whitespaces)] = value
                key = ""; value = ""; inKey = true
            } else {
                value.append(ch)
            }
        }
        if !key.isEmpty { result[key.trimmingCharacters(in: .whitespaces)] = value }
        return result
    }

    private static func absolute(_ entries: [(line: Int, value: String)], base: URL, url: String) throws -> [String] {
        guard entries.count <= maxEntries else {
            throw PlaylistError(url: url, line: entries[maxEntries].line, message: "more than \(maxEntries) entries")
        }
        var accepted: [String] = []
        var refused: PlaylistError?
        for entry in entries {
            do { accepted.append(try absolute(entry.value, line: entry.line, base: base, url: url)) }
            catch let error as PlaylistError { refused = refused ?? error }
        }
        if accepted.isEmpty {
            throw refused ?? PlaylistError(url: url, line: nil, message: "playlist lists no stream")
        }
        return accepted
    }

    /// `reference` resolved against the playlist's URL; only http and https are accepted.
    static func absolute(_ reference: String, line: Int, base: URL, url: String) throws -> String {
        guard let resolved = URL(string: reference, relativeTo: base)?.absoluteURL,
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

/// RFC 6381 codec tags as they appear in HLS CODECS attributes.
public enum HLSCodecs {
    public static func name(forTag tag: String) -> String? {
        switch tag.lowercased() {
        case "mp4a.40.2", "mp4a.40.1": return "aac"
        case "mp4a.40.5": return "he-aac"
        case "mp4a.40.29": return "he-aac-v2"
        case "mp4a.40.34", "mp4a.6b", "mp4a.69": return "mp3"
        case "opus", "mp4a.ad": return "opus"
        case "flac": return "flac"
        case "ac-3", "mp4a.a5": return "ac3"
        case "ec-3", "mp4a.a6": return "eac3"
        default: return nil
        }
    }
}
