import Foundation

/// Two readings of a document's bytes made before or after libxml2's, for what it reads strictly:
/// the prefixes used without a declaration (which a caller may assume the conventional namespaces for),
/// and the "&" that made it refuse a document. Comments, CDATA sections and processing instructions are
/// skipped as the parser skips them; the bytes are `XMLEncoding.checkable`'s, so ASCII is ASCII.
public enum MarkupScan {
    /// `data` with `xmlns:PREFIX="URI"` added to its root element for each prefix that a name uses, no element
    /// declares and `namespace` gives a URI for (feeds write `<itunes:duration>` in an `<rss>` that never
    /// declares `itunes`; MPDs carry YouTube's `yt:` undeclared: libxml2 refuses both, code 201), and the
    /// prefixes so assumed, sorted.
    public static func declaringUndeclared(in data: Data, as namespace: (String) -> String?) -> (data: Data, assumed: [String]) {
        var used = Set<String>(), declared = Set<String>(), rootNameEnd: Int?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            func noteName(_ range: Range<Int>) {
                // Most names have no prefix: no string is made for them.
                guard bytes[range].contains(UInt8(ascii: ":")) else { return }
                let name = text(range)
                if name.hasPrefix("xmlns:") { declared.insert(String(name.dropFirst(6))) }
                else if let colon = name.firstIndex(of: ":") { used.insert(String(name[..<colon])) }
            }
            walkTags(bytes) { start, end in
                // start: just after "<" (or "</"); end: the ">" or the end of the bytes.
                var index = start
                while index < end, !isNameEnd(bytes[index]) { index += 1 }
                noteName(start..<index)
                if rootNameEnd == nil, bytes[start - 1] != UInt8(ascii: "/") { rootNameEnd = index }
                while index < end {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        index += 1
                        while index < end, bytes[index] != byte { index += 1 }
                        index += 1
                    } else if isNameEnd(byte) || byte == UInt8(ascii: "=") {
                        index += 1
                    } else {
                        let nameStart = index
                        while index < end, !isNameEnd(bytes[index]), bytes[index] != UInt8(ascii: "=") { index += 1 }
                        noteName(nameStart..<index)
                    }
                }
            }
        }
        let assumed = used.subtracting(declared).compactMap { prefix in namespace(prefix).map { (prefix, $0) } }
            .sorted { $0.0 < $1.0 }
        guard let rootNameEnd, !assumed.isEmpty else { return (data, []) }
        let declarations = assumed.map { " xmlns:\($0.0)=\"\($0.1)\"" }.joined()
        var repaired = Data(data.prefix(rootNameEnd))
        repaired.append(Data(declarations.utf8))
        repaired.append(data.dropFirst(rootNameEnd))
        return (repaired, assumed.map(\.0))
    }

    /// The first "&" in text or an attribute that starts neither a reference to an entity XML predefines
    /// (`&lt;` `&gt;` `&amp;` `&quot;` `&apos;`) nor a character reference, told with its line: "the undefined
    /// entity &nbsp; at line 12", or "an "&" not written as &amp; at line 3".
    static func firstStrayAmpersand(in data: Data) -> String? {
        let predefined: Set<String> = ["lt", "gt", "amp", "quot", "apos"]
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var index = 0
            while index < bytes.count {
                if let skipped = skipUnparsed(bytes, at: index) { index = skipped; continue }
                guard bytes[index] == UInt8(ascii: "&") else { index += 1; continue }
                var end = index + 1
                while end < bytes.count, end - index <= 64, isReferenceByte(bytes[end]) { end += 1 }
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
                let terminated = end < bytes.count && bytes[end] == UInt8(ascii: ";")
                if terminated, predefined.contains(name) || isCharacterReference(name) { index = end + 1; continue }
                let line = 1 + bytes[..<index].lazy.filter { $0 == UInt8(ascii: "\n") }.count
                return terminated && !name.isEmpty && !name.hasPrefix("#")
                    ? "the undefined entity &\(name); at line \(line)"
                    : "an \"&\" not written as &amp; at line \(line)"
            }
            return nil
        }
    }

    /// Calls `tag` with the bounds of each tag's inside (after "<" or "</", up to its ">").
    private static func walkTags(_ bytes: UnsafeRawBufferPointer, _ tag: (Int, Int) -> Void) {
        var index = 0
        while index < bytes.count {
            if let skipped = skipUnparsed(bytes, at: index) { index = skipped; continue }
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if starts("<!", bytes, at: index) { index = skip(past: ">", bytes, from: index + 2); continue }
            let start = index + (starts("</", bytes, at: index) ? 2 : 1)
            var end = start
            var quote: UInt8?
            while end < bytes.count {
                let byte = bytes[end]
                if let open = quote { if byte == open { quote = nil } } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") { break }
                end += 1
            }
            tag(start, end)
            index = end + 1
        }
    }

    /// Where a comment, CDATA section or processing instruction starting at `index` ends; nil if none starts there.
    private static func skipUnparsed(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
        guard bytes[index] == UInt8(ascii: "<") else { return nil }
        if starts("<!--", bytes, at: index) { return skip(past: "-->", bytes, from: index + 4) }
        if starts("<![CDATA[", bytes, at: index) { return skip(past: "]]>", bytes, from: index + 9) }
        if starts("<?", bytes, at: index) { return skip(past: "?>", bytes, from: index + 2) }
        return nil
    }

    private static func starts(_ prefix: String, _ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        prefix.utf8.enumerated().allSatisfy { index + $0.offset < bytes.count && bytes[index + $0.offset] == $0.element }
    }

    private static func skip(past terminator: String, _ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if starts(terminator, bytes, at: index) { return index + terminator.utf8.count }
            index += 1
        }
        return bytes.count
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    private static func isReferenceByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":") || (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    /// "#38" or "#x26" (the name after "&"): libxml2 checks the character's value itself.
    private static func isCharacterReference(_ name: String) -> Bool {
        guard name.hasPrefix("#") else { return false }
        let digits = name.dropFirst()
        if digits.hasPrefix("x") { return digits.count > 1 && digits.dropFirst().allSatisfy(\.isHexDigit) }
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }
}
