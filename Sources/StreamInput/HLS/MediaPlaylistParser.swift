import Foundation
import RadioModel

/// Reads the tags of an HLS media playlist (RFC 8216 §4.3.2–4.3.3) that an audio client needs.
/// Unknown tags are skipped, as the RFC asks; a tag it needs but cannot read is an error naming its line.
enum MediaPlaylistParser {
    /// Longest EXTINF or target duration taken seriously (a day); longer is a broken server.
    static let maxDuration = 86_400.0

    /// `lines` are the playlist's lines, trimmed; `url` is where it came from (relative URIs resolve against it);
    /// `escape` turns a URI line with spaces or non-ASCII characters into URL characters; `imported` holds the
    /// master playlist's EXT-X-DEFINE variables, which this one may IMPORT.
    static func parse(_ lines: [String], base: URL, url: String, escape: (String) -> String = { $0 },
                      imported: [String: String] = [:]) throws -> MediaPlaylist {
        var state = State()
        var variables = PlaylistVariables(url: url, imported: imported)
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            func fail(_ message: String) -> PlaylistError { PlaylistError(url: url, line: number, message: message) }
            if line.isEmpty || (line.hasPrefix("#") && !line.hasPrefix("#EXT")) { continue }
            if !line.hasPrefix("#") {
                guard let duration = state.pendingDuration else {
                    throw fail("segment URI '\(line.prefix(80))' without an #EXTINF before it")
                }
                let segmentURL = try PlaylistParser.absolute(try variables.substitute(line, line: number), line: number,
                                                             base: base, url: url, escape: escape)
                var range = state.pendingRange
                if let open = state.pendingOpenRange {
                    guard let previous = state.segments.last, previous.url == segmentURL, let end = previous.byteRange else {
                        throw fail("EXT-X-BYTERANGE without an offset must follow a sub-range of the same resource")
                    }
                    // Each at most 2^53 (`byteRange`), and a follow-on range's offset is checked again.
                    guard end.offset + end.length <= PlaylistParser.largestNumber else {
                        throw fail("EXT-X-BYTERANGE runs past 2^53 bytes")
                    }
                    range = ByteRange(offset: end.offset + end.length, length: open)
                }
                let discontinuity = state.pendingDiscontinuity
                var date = state.pendingDate
                if date == nil, !discontinuity, let previous = state.segments.last, let start = previous.programDateTime {
                    date = start.addingTimeInterval(previous.duration)
                }
                state.segments.append(MediaSegment(
                    sequence: state.mediaSequence + state.segments.count, url: segmentURL, duration: duration,
                    byteRange: range, discontinuity: discontinuity, programDateTime: date,
                    encryption: state.key?.encryption(sequence: state.mediaSequence + state.segments.count),
                    initSection: state.initSection))
                state.pendingDuration = nil
                state.pendingDurationLine = nil
                state.pendingRange = nil
                state.pendingOpenRange = nil
                state.pendingDiscontinuity = false
                state.pendingDate = nil
                continue
            }
            let (tag, value) = split(line)
            switch tag {
            case "#EXT-X-DEFINE":
                try variables.define(line, number: number)
            case "#EXT-X-TARGETDURATION":
                guard let duration = Double(value), duration > 0, duration <= maxDuration else {
                    throw fail("EXT-X-TARGETDURATION '\(value.prefix(40))' is not a positive number of seconds")
                }
                state.targetDuration = duration
            case "#EXT-X-MEDIA-SEQUENCE":
                guard state.segments.isEmpty, let sequence = Int(value), (0...PlaylistParser.largestNumber).contains(sequence) else {
                    throw fail("EXT-X-MEDIA-SEQUENCE '\(value.prefix(40))' is not a sequence number (up to 2^53) before the first segment")
                }
                state.mediaSequence = sequence
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                guard state.segments.isEmpty, let sequence = Int(value), (0...PlaylistParser.largestNumber).contains(sequence) else {
                    throw fail("EXT-X-DISCONTINUITY-SEQUENCE '\(value.prefix(40))' is not a number (up to 2^53) before the first segment")
                }
                state.discontinuitySequence = sequence
            case "#EXTINF":
                guard state.pendingDuration == nil else { throw fail("#EXTINF follows another #EXTINF without a segment URI") }
                let text = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                guard let duration = Double(text.trimmingWhitespace()), duration >= 0, duration <= maxDuration else {
                    throw fail("#EXTINF duration '\(text.prefix(40))' is not a number of seconds")
                }
                state.pendingDuration = duration
                state.pendingDurationLine = number
            case "#EXT-X-BYTERANGE":
                guard let (length, offset) = byteRange(value) else { throw fail("EXT-X-BYTERANGE '\(value.prefix(40))' is not n[@o]") }
                if let offset { state.pendingRange = ByteRange(offset: offset, length: length) } else { state.pendingOpenRange = length }
            case "#EXT-X-DISCONTINUITY":
                state.pendingDiscontinuity = true
            case "#EXT-X-PROGRAM-DATE-TIME":
                guard let date = Timestamp.parse(value) else {
                    throw fail("EXT-X-PROGRAM-DATE-TIME '\(value.prefix(40))' is not an ISO 8601 date")
                }
                state.pendingDate = date
            case "#EXT-X-KEY":
                state.key = try key(try variables.attributes(of: line, number: number), line: number, base: base, url: url)
            case "#EXT-X-MAP":
                let attributes = try variables.attributes(of: line, number: number)
                guard let uri = attributes["URI"] else { throw fail("EXT-X-MAP without a URI") }
                var range: ByteRange?
                if let text = attributes["BYTERANGE"] {
                    guard let (length, offset) = byteRange(text) else { throw fail("EXT-X-MAP BYTERANGE '\(text.prefix(40))' is not n[@o]") }
                    range = ByteRange(offset: offset ?? 0, length: length)
                }
                if let key = state.key, key.iv == nil {
                    throw fail("an encrypted EXT-X-MAP needs the IV attribute on its EXT-X-KEY")
                }
                state.initSection = InitSection(url: try PlaylistParser.absolute(uri, line: number, base: base, url: url),
                                                byteRange: range,
                                                encryption: state.key?.encryption(sequence: state.mediaSequence + state.segments.count))
            case "#EXT-X-ENDLIST":
                state.endList = true
            case "#EXT-X-SKIP":
                // Only sent to a client that asks with _HLS_skip; the segments it stands for would shift every sequence number.
                throw fail("EXT-X-SKIP: a delta update of a playlist, which onair never asks for")
            case "#EXT-X-I-FRAMES-ONLY":
                throw fail("EXT-X-I-FRAMES-ONLY: a playlist of video key frames for trick play, with no audio")
            default:
                continue
            }
        }
        // A live playlist caught while the server appends to it may end in the next segment's #EXTINF:
        // that segment is simply not there yet. An ended playlist has no such excuse.
        if let line = state.pendingDurationLine, state.endList {
            throw PlaylistError(url: url, line: line, message: "the playlist ends after an #EXTINF without its segment URI")
        }
        guard let targetDuration = state.targetDuration else {
            throw PlaylistError(url: url, line: nil, message: "media playlist without EXT-X-TARGETDURATION")
        }
        return MediaPlaylist(url: url, targetDuration: targetDuration, mediaSequence: state.mediaSequence,
                             discontinuitySequence: state.discontinuitySequence, segments: state.segments,
                             endList: state.endList)
    }

    /// What has been read so far, and the tags waiting for their segment's URI line.
    private struct State {
        var targetDuration: Double?
        var mediaSequence = 0
        var discontinuitySequence = 0
        var segments: [MediaSegment] = []
        var endList = false
        /// The EXT-X-KEY in effect; nil when segments are clear.
        var key: KeyTag?
        var initSection: InitSection?
        var pendingDuration: Double?
        var pendingDurationLine: Int?
        var pendingRange: ByteRange?
        var pendingOpenRange: Int?
        var pendingDiscontinuity = false
        var pendingDate: Date?
    }

    /// "#EXT-X-TAG:value" → ("#EXT-X-TAG", "value"); a tag without a colon has an empty value.
    private static func split(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        return (String(line[..<colon]), String(line[line.index(after: colon)...].trimmingWhitespace()))
    }

    /// "n[@o]" → (length, offset).
    private static func byteRange(_ text: String) -> (Int, Int?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = Int(parts[0]), (1...PlaylistParser.largestNumber).contains(length) else { return nil }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = Int(parts[1]), (0...PlaylistParser.largestNumber).contains(offset) else { return nil }
        return (length, offset)
    }

    /// An AES-128 EXT-X-KEY; without an IV, each segment's comes from its sequence number.
    private struct KeyTag {
        var keyURL: String
        var iv: [UInt8]?

        func encryption(sequence: Int) -> SegmentEncryption {
            SegmentEncryption(keyURL: keyURL, iv: iv ?? SegmentEncryption.sequenceIV(sequence))
        }
    }

    /// EXT-X-KEY: nil for METHOD=NONE; AES-128 with or without an IV; anything else refused.
    private static func key(_ attributes: [String: String], line: Int, base: URL, url: String) throws -> KeyTag? {
        func fail(_ message: String) -> PlaylistError { PlaylistError(url: url, line: line, message: message) }
        switch attributes["METHOD"] {
        case "NONE":
            return nil
        case "AES-128":
            if let format = attributes["KEYFORMAT"], format != "identity" {
                throw fail("key format '\(format.prefix(40))' is DRM, which onair cannot play")
            }
            guard let uri = attributes["URI"] else { throw fail("EXT-X-KEY METHOD=AES-128 without a URI") }
            let keyURL = try PlaylistParser.absolute(uri, line: line, base: base, url: url)
            guard let text = attributes["IV"] else { return KeyTag(keyURL: keyURL, iv: nil) }
            guard let iv = initializationVector(text) else { throw fail("EXT-X-KEY IV '\(text.prefix(40))' is not a 128-bit hex number") }
            return KeyTag(keyURL: keyURL, iv: iv)
        case let method?:
            throw fail("encryption METHOD=\(method.prefix(40)) is not supported (only AES-128; SAMPLE-AES is DRM)")
        case nil:
            throw fail("EXT-X-KEY without a METHOD")
        }
    }

    /// "0x…" with up to 32 hex digits → 16 bytes, big-endian.
    private static func initializationVector(_ text: String) -> [UInt8]? {
        guard text.lowercased().hasPrefix("0x") else { return nil }
        let digits = Array(text.dropFirst(2))
        guard (1...32).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        let padded = String(repeating: "0", count: 32 - digits.count) + String(digits)
        return stride(from: 0, to: 32, by: 2).map { start in
            let begin = padded.index(padded.startIndex, offsetBy: start)
            return UInt8(padded[begin..<padded.index(begin, offsetBy: 2)], radix: 16)!
        }
    }
}
