/// Builds the byte stream an ICY client that asked for `Icy-MetaData: 1` expects: after every
/// `metaint` audio bytes, one metadata slot — a length byte L and L × 16 bytes — carrying the title
/// when it changed and L = 0 otherwise. The inverse of `ICYDeinterleaver`; one per listener, since
/// each listener's slots fall at its own positions.
public struct ICYInterleaver: Sendable {
    public let metaint: Int
    private var untilSlot: Int
    /// The block for the next slot, when the title changed since the last one.
    private var pendingBlock: [UInt8]?

    public init(metaint: Int) {
        precondition(metaint > 0)
        self.metaint = metaint
        untilSlot = metaint
    }

    /// The next slot announces this title (a later call before the slot replaces it).
    public mutating func setTitle(_ title: String, url: String? = nil) {
        pendingBlock = Self.block(title: title, url: url)
    }

    /// Appends audio to `output`, with a metadata slot wherever one is due.
    public mutating func append<Bytes: Collection<UInt8>>(audio: Bytes, to output: inout [UInt8]) {
        var rest = audio[...]
        while !rest.isEmpty {
            let take = min(untilSlot, rest.count)
            let end = rest.index(rest.startIndex, offsetBy: take)
            output.append(contentsOf: rest[..<end])
            rest = rest[end...]
            untilSlot -= take
            if untilSlot == 0 {
                output.append(contentsOf: pendingBlock ?? [0])
                pendingBlock = nil
                untilSlot = metaint
            }
        }
    }

    /// One framed slot: `StreamTitle='…';` (and `StreamUrl='…';`), NUL padded to a multiple of 16 and
    /// preceded by its length byte. Apostrophes stay as they are — readers end a value at `';` — and
    /// a title too long for the 255 × 16 bytes a slot can hold is cut at a character boundary.
    public static func block(title: String, url: String? = nil) -> [UInt8] {
        let prefix = Array("StreamTitle='".utf8)
        let suffix = Array("';".utf8)
        let urlField = url.map { Array("StreamUrl='\($0)';".utf8) } ?? []
        // The URL is dropped rather than the title when both do not fit.
        let keepURL = prefix.count + suffix.count + urlField.count < ICYDeinterleaver.maxBlockBytes
        let room = ICYDeinterleaver.maxBlockBytes - prefix.count - suffix.count - (keepURL ? urlField.count : 0)
        var payload = prefix + truncated(title, toUTF8Bytes: room) + suffix
        if keepURL { payload += urlField }
        let slots = (payload.count + 15) / 16
        payload += [UInt8](repeating: 0, count: slots * 16 - payload.count)
        return [UInt8(slots)] + payload
    }

    private static func truncated(_ text: String, toUTF8Bytes limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= limit else { break }
            bytes += encoded
        }
        return bytes
    }
}
