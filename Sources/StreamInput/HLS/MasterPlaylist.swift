import Foundation
import RadioModel

/// A variant stream of an HLS master playlist.
public struct HLSVariant: Sendable, Equatable, Codable {
    public var url: String
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var codecs: [String]
    /// The audio rendition group it refers to, if any.
    public var audioGroup: String?
    /// An EXT-X-MEDIA audio rendition marked DEFAULT=YES: the one RFC 8216 §4.3.4.1 says to play.
    public var isDefaultRendition: Bool

    public init(url: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String], audioGroup: String? = nil,
                isDefaultRendition: Bool = false) {
        self.url = url; self.bandwidth = bandwidth; self.averageBandwidth = averageBandwidth; self.codecs = codecs
        self.audioGroup = audioGroup; self.isDefaultRendition = isDefaultRendition
    }

    /// The codec as onair names it ("aac", "he-aac", "mp3", ...), from the first audio codec tag.
    public var codec: String? { codecs.lazy.compactMap(HLSCodecs.name(forTag:)).first }
}

/// Reads an HLS master playlist (RFC 8216 §4.3.4): its variants, and its audio renditions as variants too.
enum MasterPlaylistParser {
    /// `lines` are the playlist's lines, trimmed; `url` is where it came from (relative URIs resolve against it);
    /// `escape` turns a URI line with spaces or non-ASCII characters into URL characters.
    static func parse(_ lines: [String], base: URL, url: String, escape: (String) -> String = { $0 }) throws -> [HLSVariant] {
        func absolute(_ reference: String, line: Int) throws -> String {
            try PlaylistParser.absolute(reference, line: line, base: base, url: url, escape: escape)
        }
        var variants: [HLSVariant] = []
        var pending: (line: Int, attributes: [String: String])?
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = (number, PlaylistParser.attributes(of: line))
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let attributes = PlaylistParser.attributes(of: line)
                guard attributes["TYPE"] == "AUDIO", let uri = attributes["URI"] else { continue }
                variants.append(HLSVariant(url: try absolute(uri, line: number), bandwidth: 0, codecs: [],
                                           audioGroup: attributes["GROUP-ID"], isDefaultRendition: attributes["DEFAULT"] == "YES"))
            } else if !line.isEmpty, !line.hasPrefix("#"), let inf = pending {
                guard let text = inf.attributes["BANDWIDTH"] else {
                    throw PlaylistError(url: url, line: inf.line, message: "EXT-X-STREAM-INF without a BANDWIDTH")
                }
                guard let bandwidth = bitsPerSecond(text) else {
                    throw PlaylistError(url: url, line: inf.line, message: "BANDWIDTH '\(text.prefix(40))' is not a number of bit/s")
                }
                let codecs = (inf.attributes["CODECS"] ?? "").split(separator: ",").map { String($0.trimmingWhitespace()) }
                variants.append(HLSVariant(url: try absolute(line, line: number), bandwidth: bandwidth,
                                           averageBandwidth: inf.attributes["AVERAGE-BANDWIDTH"].flatMap(bitsPerSecond),
                                           codecs: codecs, audioGroup: inf.attributes["AUDIO"]))
                pending = nil
            }
            guard variants.count <= PlaylistParser.maxEntries else {
                throw PlaylistError(url: url, line: number, message: "more than \(PlaylistParser.maxEntries) variants")
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
        return variants
    }

    /// A decimal-integer as RFC 8216 wants it; a decimal fraction ("1280000.0", written by some packagers) is rounded.
    private static func bitsPerSecond(_ text: String) -> Int? {
        if let whole = Int(text), whole >= 0 { return whole }
        guard text.contains("."), let value = Double(text), value >= 0, value < Double(Int32.max) else { return nil }
        return Int(value.rounded())
    }
}

extension PlaylistParser {
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
                result[String(key.trimmingWhitespace())] = value
                key = ""; value = ""; inKey = true
            } else {
                value.append(ch)
            }
        }
        if !key.isEmpty { result[String(key.trimmingWhitespace())] = value }
        return result
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
