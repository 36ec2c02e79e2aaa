import Foundation
import RadioModel

/// The text of an ID3v2 tag (v2.2, v2.3, v2.4): how HLS stations send now-playing titles, as timed
/// ID3 in MPEG-TS and as a tag at the start of each packed-audio (ADTS/MP3) segment.
///
/// The bytes come from other people's servers, so reading is bounded and defensive: a size that
/// overruns, an unknown encoding or a truncated frame ends the reading of that frame or tag, never
/// the process. Compressed and encrypted frames are skipped.
public struct ID3Tag: Sendable, Equatable {
    /// Text frames by four-letter id (v2.2's three-letter ids are mapped): "TIT2", "TPE1", …
    public var text: [String: String] = [:]
    /// TXXX frames: description → value.
    public var userText: [String: String] = [:]
    /// Bytes the tag takes in its input, header and footer included.
    public var size: Int

    /// Tags larger than this are not read (a title tag is a few hundred bytes; artwork is not wanted).
    public static let maxSize = 1 << 20
    /// Characters kept of any one text value.
    public static let maxTextLength = 1024
    private static let headerSize = 10

    /// The now-playing line the way ICY titles read: "Artist - Title", or the title alone.
    /// Falls back to TXXX frames named title/StreamTitle (and artist), which some encoders use.
    public var nowPlaying: String? {
        func user(_ names: String...) -> String? {
            userText.first { key, value in names.contains(key.lowercased()) && !value.isEmpty }?.value
        }
        let title = text["TIT2"].flatMap { $0.isEmpty ? nil : $0 } ?? user("title", "streamtitle")
        let artist = text["TPE1"].flatMap { $0.isEmpty ? nil : $0 } ?? user("artist")
        switch (artist, title) {
        case let (artist?, title?): return "\(artist) - \(title)"
        case let (nil, title?): return title
        case let (artist?, nil): return artist
        default: return nil
        }
    }

    /// The tags of one segment or timed-ID3 packet as one: some packagers send the artist (TPE1) and
    /// the title (TIT2) in tags of their own. Later frames win over earlier ones of the same id.
    public static func combined(_ tags: [ID3Tag]) -> ID3Tag? {
        guard var result = tags.first else { return nil }
        for tag in tags.dropFirst() {
            result.text.merge(tag.text) { $1 }
            result.userText.merge(tag.userText) { $1 }
            result.size += tag.size
        }
        return result
    }

    /// A URL the station attached (TXXX url/StreamUrl), like ICY's StreamUrl.
    public var url: String? {
        userText.first { ["url", "streamurl"].contains($0.key.lowercased()) && !$0.value.isEmpty }?.value
    }

    /// The size of the tag `bytes` start with, if they start with a well-formed ID3v2 header.
    public static func size(atStartOf bytes: some Collection<UInt8>) -> Int? {
        let header = Array(bytes.prefix(headerSize))
        guard header.count == headerSize, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33, // "ID3"
              (2...4).contains(header[3]), header[4] != 0xFF,
              let body = syncsafe(header[6..<10]) else { return nil }
        let footer = header[3] == 4 && header[5] & 0x10 != 0 ? headerSize : 0
        return headerSize + body + footer
    }

    /// Every tag at the start of `bytes`, back to back, and how many bytes they take: the ID3 in
    /// front of a packed-audio segment, or the payload of a timed-ID3 packet.
    public static func leadingTags(in bytes: some Collection<UInt8>) -> (tags: [ID3Tag], byteCount: Int) {
        guard size(atStartOf: bytes) != nil else { return ([], 0) } // most segments: no copy
        let all = Array(bytes)
        var tags: [ID3Tag] = []
        var offset = 0
        while tags.count < 16, let size = size(atStartOf: all[offset...]), offset + size <= all.count {
            if let tag = ID3Tag(all[offset..<offset + size]) { tags.append(tag) }
            offset += size
        }
        return (tags, offset)
    }

    /// The tags in the payload of a timed-ID3 packet from FFmpeg's MPEG-TS demuxer. FFmpeg 5.1 takes
    /// the first five bytes of every stream-type 0x15 PES payload for a metadata AU cell header and
    /// drops them — "ID3", the version and the revision — so a payload whose remaining header (flags,
    /// then a syncsafe size) declares a tag that fits in it gets them back (more tags may follow: some
    /// packagers send the artist and the title in tags of their own); v2.4 is what HLS uses.
    public static func timedMetadataTags(in payload: some Collection<UInt8>) -> [ID3Tag] {
        let bytes = Array(payload)
        guard size(atStartOf: bytes) == nil, bytes.count >= 5, let body = syncsafe(bytes[1..<5]),
              body + headerSize <= bytes.count + 5 else { return leadingTags(in: bytes).tags }
        let restored = [0x49, 0x44, 0x33, 4, 0] + bytes
        return leadingTags(in: restored).tags
    }

    /// Parses one whole tag; nil when `bytes` do not start with one or it is too large to bother.
    public init?(_ bytes: ArraySlice<UInt8>) {
        guard let size = Self.size(atStartOf: bytes), size <= Self.maxSize, size <= bytes.count else { return nil }
        self.size = size
        let start = bytes.startIndex
        let version = bytes[start + 3]
        let flags = bytes[start + 5]
        var body = Array(bytes[(start + Self.headerSize)..<(start + size - (version == 4 && flags & 0x10 != 0 ? Self.headerSize : 0))])
        // v2.2/v2.3 unsynchronise the whole tag; v2.4 does it per frame.
        if version < 4 && flags & 0x80 != 0 { body = Self.resynchronised(body) }
        var offset = 0
        if version >= 3 && flags & 0x40 != 0 {
            guard body.count >= 4 else { return }
            let declared = version == 4 ? Self.syncsafe(body[0..<4]) : Self.bigEndian(body[0..<4]).map { $0 + 4 }
            guard let extended = declared, extended <= body.count else { return }
            offset = extended
        }
        readFrames(body, from: offset, version: version, tagUnsynchronised: flags & 0x80 != 0)
    }

    private mutating func readFrames(_ body: [UInt8], from start: Int, version: UInt8, tagUnsynchronised: Bool) {
        let headerLength = version == 2 ? 6 : 10
        var offset = start
        var frames = 0
        while offset + headerLength <= body.count, frames < 256 {
            frames += 1
            let idLength = version == 2 ? 3 : 4
            let idBytes = body[offset..<offset + idLength]
            guard idBytes.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { return } // padding or junk
            let id = String(decoding: idBytes, as: UTF8.self)
            let sizeBytes = body[(offset + idLength)..<(offset + idLength + (version == 2 ? 3 : 4))]
            let declared = version == 4 ? Self.syncsafe(sizeBytes) ?? Self.bigEndian(sizeBytes) : Self.bigEndian(sizeBytes)
            guard let size = declared, size >= 0, offset + headerLength + size <= body.count else { return }
            let formatFlags = version == 2 ? 0 : body[offset + 9]
            var content = Array(body[(offset + headerLength)..<(offset + headerLength + size)])
            offset += headerLength + size
            if version == 4 {
                guard formatFlags & 0x0C == 0 else { continue } // compressed or encrypted
                if formatFlags & 0x02 != 0 || tagUnsynchronised { content = Self.resynchronised(content) }
                if formatFlags & 0x01 != 0 { content = Array(content.dropFirst(4)) } // data length indicator
            } else if version == 3 {
                guard formatFlags & 0xC0 == 0 else { continue }
                if formatFlags & 0x20 != 0 { content = Array(content.dropFirst(1)) } // group id
            }
            store(frame: Self.fourLetterID(id), content)
        }
    }

    private mutating func store(frame id: String, _ content: [UInt8]) {
        guard let encoding = content.first else { return }
        let payload = content.dropFirst()
        if id == "TXXX" {
            let width = encoding == 1 || encoding == 2 ? 2 : 1
            guard let end = Self.terminator(in: payload, width: width) else { return }
            let description = Self.decode(payload[payload.startIndex..<end], encoding: encoding)
            let value = Self.decode(payload[(end + width)...], encoding: encoding)
            if let description, let value, userText.count < 64 { userText[description] = value }
        } else if id.hasPrefix("T"), let value = Self.decode(payload, encoding: encoding) {
            text[id] = value
        }
    }

    // MARK: Byte-level helpers

    /// v2.2's three-letter ids as their v2.3 names, for the frames that matter here.
    private static func fourLetterID(_ id: String) -> String {
        switch id {
        case "TT2": return "TIT2"
        case "TP1": return "TPE1"
        case "TAL": return "TALB"
        case "TXX": return "TXXX"
        default: return id
        }
    }

    /// Text in one of ID3's four encodings; several values (v2.4 separates them with NUL) are joined with " / ".
    static func decode(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> String? {
        let raw: String?
        switch encoding {
        case 0: raw = String(latin1: bytes)
        case 1, 2: raw = utf16(bytes, bigEndianByDefault: encoding == 2)
        case 3: raw = String(decoding: bytes, as: UTF8.self)
        default: raw = nil
        }
        guard let raw else { return nil }
        let values = raw.split(separator: "\0").map { UntrustedText.printable(String($0)).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return String(values.joined(separator: " / ").prefix(maxTextLength))
    }

    /// UTF-16 with an optional byte-order mark; an odd trailing byte is dropped.
    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndianByDefault: Bool) -> String {
        var units: [UInt16] = []
        var bigEndian = bigEndianByDefault
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (bytes[index], bytes[index + 1])
            index += 2
            if first == 0xFE && second == 0xFF { bigEndian = true; continue }
            if first == 0xFF && second == 0xFE { bigEndian = false; continue }
            units.append(bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first))
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Where a NUL terminator of `width` bytes (aligned for UTF-16) starts.
    private static func terminator(in bytes: ArraySlice<UInt8>, width: Int) -> Int? {
        var index = bytes.startIndex
        while index + width <= bytes.endIndex {
            if bytes[index..<index + width].allSatisfy({ $0 == 0 }) { return index }
            index += width
        }
        return nil
    }

    /// Undoes unsynchronisation: every 0xFF 0x00 pair loses its 0x00.
    private static func resynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0) { out.append(byte) }
            previous = byte
        }
        return out
    }

    /// Four 7-bit bytes; nil when a high bit is set (not syncsafe).
    private static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count <= 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
