import Foundation
import RadioModel

/// A variant stream of an HLS master playlist, or one of its audio renditions (EXT-X-MEDIA TYPE=AUDIO with a URI).
public struct HLSVariant: Sendable, Equatable, Codable {
    public var url: String
    /// bit/s; a rendition borrows the lowest of the variants that use its group.
    public var bandwidth: Int
    public var averageBandwidth: Int?
    public var codecs: [String]
    /// The audio rendition group it refers to (a variant) or belongs to (a rendition).
    public var audioGroup: String?
    /// For an audio rendition, how the playlist offers it; nil for an EXT-X-STREAM-INF variant.
    public var rendition: HLSRenditionSelection?
    /// For a variant, where its audio is, as its group's renditions say; nil for a rendition.
    public var audio: HLSVariantAudio?
    /// CHANNELS of the rendition, or of the variant's group's DEFAULT (else first) rendition; "16/JOC" is 16.
    public var channels: Int?
    /// The master's EXT-X-DEFINE variables, which the variant's media playlist may IMPORT. Not in the JSON:
    /// a QUERYPARAM variable is often the listener's token.
    public var masterVariables: [String: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case url, bandwidth, averageBandwidth, codecs, audioGroup, rendition, audio, channels
    }

    public init(url: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String], audioGroup: String? = nil,
                rendition: HLSRenditionSelection? = nil, audio: HLSVariantAudio? = nil, channels: Int? = nil) {
        self.url = url; self.bandwidth = bandwidth; self.averageBandwidth = averageBandwidth; self.codecs = codecs
        self.audioGroup = audioGroup; self.rendition = rendition; self.audio = audio
        self.channels = channels
    }

    /// The codec as onair names it ("aac", "he-aac", "mp3", ...), from the first audio codec tag.
    public var codec: String? { codecs.lazy.compactMap(HLSCodecs.name(forTag:)).first }

    /// Every codec it lists is audio: a variant with no video to download.
    public var isAudioOnly: Bool { !codecs.isEmpty && codecs.allSatisfy { HLSCodecs.name(forTag: $0) != nil } }

    /// More than two channels, by CHANNELS or, without it, by codecs that are only AC-3 or E-AC-3.
    public var isSurround: Bool {
        if let channels { return channels > 2 }
        let names = codecs.compactMap(HLSCodecs.name(forTag:))
        return !names.isEmpty && names.allSatisfy { $0 == "ac3" || $0 == "eac3" }
    }
}

/// What an EXT-X-MEDIA audio rendition's DEFAULT and AUTOSELECT attributes let a client do with it.
public enum HLSRenditionSelection: String, Sendable, Codable {
    /// DEFAULT=YES: the one to play without word from the user (RFC 8216 §4.3.4.1).
    case `default`
    /// AUTOSELECT=YES: a client may choose it by its own lights (language, channels).
    case autoselect
    /// Neither: only a user's explicit choice plays it.
    case unselected
}

/// Where a variant's audio is (RFC 8216 §4.3.4.2.1: a rendition without a URI is in the variant's own segments).
public enum HLSVariantAudio: String, Sendable, Codable {
    /// Its group's DEFAULT rendition has no URI: the audio to play by default is inside this variant.
    case defaultInside
    /// No group, or one that also has a rendition without a URI: its own segments carry its audio.
    case own
    /// Every rendition of its group has a URI: the audio is in those playlists, and may be absent from its own.
    case inRenditions
}

/// Reads an HLS master playlist (RFC 8216 §4.3.4): its variants, and its audio renditions as variants too.
/// I-frame playlists, subtitles, captions, session data and keys, content steering are no audio: skipped.
enum MasterPlaylistParser {
    /// `lines` are the playlist's lines, trimmed; `url` is where it came from (relative URIs resolve against it,
    /// EXT-X-DEFINE's QUERYPARAM reads its query); `escape` turns a URI line with spaces or non-ASCII
    /// characters into URL characters.
    static func parse(_ lines: [String], base: URL, url: String, escape: (String) -> String = { $0 }) throws -> [HLSVariant] {
        func absolute(_ reference: String, line: Int) throws -> String {
            try PlaylistParser.absolute(reference, line: line, base: base, url: url, escape: escape)
        }
        var variables = PlaylistVariables(url: url, imported: nil)
        var variants: [HLSVariant] = []
        var renditions: [AudioRendition] = []
        var pending: (line: Int, attributes: [String: String])?
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if line.hasPrefix("#EXT-X-DEFINE:") {
                try variables.define(line, number: number)
            } else if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = (number, try variables.attributes(of: line, number: number))
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let attributes = try variables.attributes(of: line, number: number)
                guard attributes["TYPE"] == "AUDIO" else { continue }
                renditions.append(AudioRendition(
                    url: try attributes["URI"].map { try absolute($0, line: number) }, group: attributes["GROUP-ID"],
                    selection: attributes["DEFAULT"] == "YES" ? .default : attributes["AUTOSELECT"] == "YES" ? .autoselect : .unselected,
                    channels: attributes["CHANNELS"].flatMap { Int($0.prefix { $0 != "/" }) }))
            } else if !line.isEmpty, !line.hasPrefix("#"), let inf = pending {
                guard let text = inf.attributes["BANDWIDTH"] else {
                    throw PlaylistError(url: url, line: inf.line, message: "EXT-X-STREAM-INF without a BANDWIDTH")
                }
                guard let bandwidth = bitsPerSecond(text) else {
                    throw PlaylistError(url: url, line: inf.line, message: "BANDWIDTH '\(text.prefix(40))' is not a number of bit/s")
                }
                let codecs = (inf.attributes["CODECS"] ?? "").split(separator: ",").map { String($0.trimmingWhitespace()) }
                variants.append(HLSVariant(url: try absolute(try variables.substitute(line, line: number), line: number),
                                           bandwidth: bandwidth,
                                           averageBandwidth: inf.attributes["AVERAGE-BANDWIDTH"].flatMap(bitsPerSecond),
                                           codecs: codecs, audioGroup: inf.attributes["AUDIO"]))
                pending = nil
            }
            guard variants.count + renditions.count <= PlaylistParser.maxEntries else {
                throw PlaylistError(url: url, line: number, message: "more than \(PlaylistParser.maxEntries) variants and renditions")
            }
        }
        for index in variants.indices {
            let group = renditions.filter { $0.group != nil && $0.group == variants[index].audioGroup }
            let defaultRendition = group.first { $0.selection == .default }
            variants[index].audio = defaultRendition.map { $0.url == nil } == true ? .defaultInside
                : !group.isEmpty && group.allSatisfy { $0.url != nil } ? .inRenditions : .own
            variants[index].channels = (defaultRendition ?? group.first)?.channels
        }
        // A rendition without a URI is audio inside the variants: not a stream of its own. One with a URI
        // borrows the bandwidth and audio codecs of the variants that use it, so quality choice sees it.
        let renditionVariants = renditions.compactMap { rendition -> HLSVariant? in
            guard let renditionURL = rendition.url else { return nil }
            let users = variants.filter { $0.audioGroup != nil && $0.audioGroup == rendition.group }
            return HLSVariant(url: renditionURL, bandwidth: users.map(\.bandwidth).min() ?? 0,
                              codecs: users.first?.codecs.filter { HLSCodecs.name(forTag: $0) != nil } ?? [],
                              audioGroup: rendition.group, rendition: rendition.selection, channels: rendition.channels)
        }
        // Renditions, then variants, each in the playlist's order (which breaks ties in `StreamResolver.ranked`).
        var entries = renditionVariants + variants
        for index in entries.indices { entries[index].masterVariables = variables.values }
        guard !entries.isEmpty else {
            throw PlaylistError(url: url, line: nil, message: "master playlist without any variant")
        }
        guard entries.contains(where: { $0.rendition != .unselected }) else {
            throw PlaylistError(url: url, line: nil,
                                message: "master playlist whose only streams are audio renditions marked DEFAULT=NO and AUTOSELECT=NO")
        }
        return entries
    }

    /// An EXT-X-MEDIA TYPE=AUDIO tag; `url` is nil when its audio is inside the variants.
    private struct AudioRendition {
        var url: String?
        var group: String?
        var selection: HLSRenditionSelection
        var channels: Int?
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
