import Foundation
import RadioModel

/// What a response is, told from its first bytes rather than its Content-Type — which servers get wrong
/// both ways: an ASX comes as video/x-ms-asf or audio/x-ms-wax (an "audio" type), an XSPF as
/// application/xspf+xml, a .m3u as audio/mpeg, and an .asx URL may answer with Windows Media itself.
/// Radio players have read playlists this way for twenty years (totem-pl-parser looks for "<ASX" in
/// the first bytes, mopidy for "[playlist]", "#EXTM3U", an `<asx>` or XSPF root); so does onair, so
/// that a playlist is never reported as an audio stream whatever its type says.
public enum PlaylistSniffer {
    /// The formats a body can be, as far as onair reads them.
    public enum Format: String, Sendable, Equatable {
        /// Windows Media metafile (.asx, .wax, .wvx): `<asx>` with ENTRY/REF.
        case asx
        /// XML Shareable Playlist Format: `<playlist>` with trackList/track/location.
        case xspf
        /// Shoutcast/Winamp .pls: `[playlist]` with FileN=.
        case pls
        /// An ASF reference file: `[Reference]` with RefN= (what a .wma/.asf link often is).
        case asfReference
        /// Lines: HLS (master or media), an extended .m3u, or a plain list of URLs (.m3u, RealAudio .ram).
        case lines
        /// XML whose root is none of the above (an HTML page, an MPD, a feed).
        case otherXML
        /// Windows Media (ASF) audio or video itself: not a playlist, and not audio onair plays.
        case windowsMedia
        /// RealMedia itself (.ra, .rm).
        case realMedia
        /// Bytes that are not text.
        case binary
    }

    /// Path suffixes of playlists (lowercased).
    static let playlistSuffixes = [".pls", ".m3u", ".m3u8", ".mpd", ".asx", ".wax", ".wvx", ".xspf", ".ram"]

    /// The first bytes of an ASF file: its Header Object's GUID.
    static let asfMagic: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]

    /// How many bytes of a response whose headers say "audio" are read before deciding it is one.
    public static let sniffLength = 1024

    /// Media types that name a metafile and the media it lists alike (video/x-ms-asf is sent for .asx files
    /// and for ASF streams; audio/x-pn-realaudio for .ram files and RealAudio): the first bytes decide, even
    /// under a playlist's name, so an endless ASF stream is not read as a document.
    static let ambiguousMediaTypes: Set<String> = ["video/x-ms-asf", "audio/x-pn-realaudio"]

    /// Whether a response's headers alone say it is a document to read whole (a playlist, an MPD, a web
    /// page, text) rather than, perhaps, an endless audio stream.
    static func headSaysDocument(_ head: ResponseHead) -> Bool {
        if let type = head.mediaType, ambiguousMediaTypes.contains(type) { return false }
        return PlaylistParser.isPlaylist(mediaType: head.mediaType, url: head.url, body: Data())
            || AudioContentType.isNotAudio(head.mediaType) || head.mediaType?.hasPrefix("text/") == true
    }

    /// What the first bytes of a response whose headers said "audio" show.
    enum Verdict: Equatable {
        /// A text document (a playlist, a page): read it whole.
        case document
        /// Audio (or anything not a text document): the headers were right.
        case stream
        /// Too few bytes yet to tell.
        case needMore
    }

    /// The verdict on `prefix`, the first bytes of a body; `complete` when the body ended there.
    static func verdict(_ prefix: Data, complete: Bool) -> Verdict {
        let text = leadingText(prefix, limit: 64)
        guard let text else { return .stream }
        if text.count < 16 && !complete && prefix.count < sniffLength { return .needMore }
        if text.isEmpty { return prefix.isEmpty ? .stream : .document }
        let lowered = text.lowercased()
        let markers = ["<asx", "<?xml", "<playlist", "<!--", "<!doctype", "<html", "<mpd", "[playlist]", "[reference]",
                       "#extm3u", "#extinf", "http://", "https://"]
        return markers.contains { lowered.hasPrefix($0) } ? .document : .stream
    }

    /// Whether a body's first bytes are a playlist's: an ASX or XSPF root, a `[playlist]` or `[Reference]`
    /// header, an `#EXTM3U` or `#EXTINF` line, or a URL opening a plain list. (A web page is a document,
    /// read whole, but no playlist.)
    static func isPlaylist(_ body: Data) -> Bool {
        switch format(of: body) {
        case .asx, .xspf, .pls, .asfReference: return true
        case .lines:
            let start = leadingText(body, limit: 16)?.lowercased() ?? ""
            return ["#extm3u", "#extinf", "http://", "https://"].contains { start.hasPrefix($0) }
        case .otherXML, .windowsMedia, .realMedia, .binary: return false
        }
    }

    /// What a stream's first bytes show it to be when that is media onair has no demuxer for: Windows Media
    /// (what an mms:-era .asx link or an "ASF" stream answers) or RealMedia. nil for anything else.
    public static func unplayableMedia(_ prefix: Data) -> String? {
        switch format(of: prefix.prefix(16)) {
        case .windowsMedia: "Windows Media (ASF)"
        case .realMedia: "RealMedia"
        default: nil
        }
    }

    /// The format of a whole body.
    public static func format(of body: Data) -> Format {
        if body.starts(with: asfMagic) { return .windowsMedia }
        if body.starts(with: Array(".RMF".utf8)) || body.starts(with: [0x2E, 0x72, 0x61, 0xFD]) { return .realMedia }
        // A short look first: an HLS playlist, read again every few seconds, costs no more than this.
        guard let text = leadingText(body, limit: 64) else { return .binary }
        if text.hasPrefix("<") {
            switch XMLRoot.name(in: leadingText(body, limit: 4096) ?? text).map(XMLRoot.localName)?.lowercased() {
            case "asx": return .asx
            case "playlist": return .xspf
            default: return .otherXML
            }
        }
        if text.lowercased().hasPrefix("[reference]") { return .asfReference }
        if PlaylistParser.plsHeader(in: text) { return .pls }
        return .lines
    }

    /// Up to `limit` characters of the body's text after any byte order mark and leading white space,
    /// or nil when the bytes are not text (a NUL byte, which no text playlist in UTF-8 or Latin-1 holds).
    static func leadingText(_ body: Data, limit: Int) -> String? {
        let head = body.prefix(limit * 4)
        let text: String
        if let utf16 = PlaylistText.utf16(head) {
            text = utf16
        } else {
            guard !head.contains(0) else { return nil }
            var bytes = head[...]
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            text = String(decoding: bytes, as: UTF8.self)
        }
        return String(text.drop { $0.isWhitespace }.prefix(limit))
    }
}

/// Playlist bytes as text.
enum PlaylistText {
    /// The body decoded from UTF-16 when it says it is (a byte order mark, or "<?" spelled in UTF-16 as
    /// libxml2 detects it); nil otherwise. A file saved by a Windows tool may be UTF-16.
    static func utf16(_ body: Data) -> String? {
        let head = [UInt8](body.prefix(4))
        guard head.count >= 2 else { return nil }
        let encoding: String.Encoding
        var start = 0
        switch (head[0], head[1]) {
        case (0xFF, 0xFE): (encoding, start) = (.utf16LittleEndian, 2)
        case (0xFE, 0xFF): (encoding, start) = (.utf16BigEndian, 2)
        case (0x3C, 0x00) where head.count == 4 && head[2] == 0x3F && head[3] == 0x00: encoding = .utf16LittleEndian
        case (0x00, 0x3C) where head.count == 4 && head[2] == 0x00 && head[3] == 0x3F: encoding = .utf16BigEndian
        default: return nil
        }
        // A body cut inside a character (a sniffed prefix) loses that character only.
        let bytes = body.dropFirst(start)
        return String(data: bytes.prefix(bytes.count & ~1), encoding: encoding)
    }
}

/// The root element of an XML document, found by skipping what may precede it.
enum XMLRoot {
    /// The root element's name as written (prefix included), or nil when none can be found.
    static func name(in text: String) -> String? {
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard rest.hasPrefix("<") else { return nil }
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!") {
                // A DOCTYPE, to its '>' past an internal subset in brackets.
                var depth = 0
                guard let end = rest.firstIndex(where: { character in
                    if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
                    return character == ">" && depth <= 0
                }) else { return nil }
                rest = rest[rest.index(after: end)...]
            } else {
                let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
                return name.isEmpty ? nil : String(name)
            }
        }
    }

    /// The local part of a name: "xspf:playlist" → "playlist".
    static func localName(_ name: String) -> Substring {
        name.lastIndex(of: ":").map { name[name.index(after: $0)...] } ?? Substring(name)
    }
}
