import Foundation
import RadioModel

/// A document's bytes made checkable: `CheckedXMLParser` looks for DTD declarations, processing
/// instructions and start tags in the bytes, which works only where every ASCII character libxml2 reads
/// is that ASCII byte. So UTF-16 and UTF-32 — which libxml2 reads by their byte order mark, or without
/// one by how `<?` is spelled — are transcoded to UTF-8 first (their declaration then says UTF-8), and a
/// document in any other encoding libxml2 might read where "<" need not be the byte 0x3C (EBCDIC, UTF-7,
/// UTF-16 declared on 8-bit bytes, …) is refused.
enum XMLEncoding {
    /// Encodings in which a byte below 0x80 is always that ASCII character, so the checks read them as they
    /// are, and which libxml2 translates itself (its own tables, not iconv: with an encoding it cannot
    /// translate, it would hand Foundation bytes that are not UTF-8, which traps).
    private static let asciiCompatible: Set<String> = ["iso-8859-1", "latin1", "iso-8859-15", "us-ascii", "ascii"]

    private enum Wide {
        case utf16(bigEndian: Bool), utf32(bigEndian: Bool)

        var encoding: String.Encoding {
            switch self {
            case .utf16(let big): big ? .utf16BigEndian : .utf16LittleEndian
            case .utf32(let big): big ? .utf32BigEndian : .utf32LittleEndian
            }
        }

        var name: String {
            switch self {
            case .utf16: "UTF-16"
            case .utf32: "UTF-32"
            }
        }

        /// The names a declaration may give it (the endianness is the byte order mark's or the bytes').
        var names: Set<String> {
            switch self {
            case .utf16: ["utf-16", "utf-16le", "utf-16be", "utf16", "ucs-2", "iso-10646-ucs-2"]
            case .utf32: ["utf-32", "utf-32le", "utf-32be", "utf32", "ucs-4", "iso-10646-ucs-4"]
            }
        }
    }

    /// `data` as UTF-8 or an ASCII-compatible encoding libxml2 translates, or why it cannot be checked.
    static func checkable(_ data: Data) throws(XMLInputError) -> Data {
        let head = [UInt8](data.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - data.count))
        // The byte order marks and spellings of "<?" libxml2 detects (xmlDetectCharEncoding), UTF-32's before UTF-16's.
        let detected: (Wide, bom: Int)? = switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): (.utf32(bigEndian: true), 4)
        case (0xFF, 0xFE, 0x00, 0x00): (.utf32(bigEndian: false), 4)
        case (0x00, 0x00, 0x00, 0x3C): (.utf32(bigEndian: true), 0)
        case (0x3C, 0x00, 0x00, 0x00): (.utf32(bigEndian: false), 0)
        case (0xFE, 0xFF, _, _): (.utf16(bigEndian: true), 2)
        case (0xFF, 0xFE, _, _): (.utf16(bigEndian: false), 2)
        case (0x00, 0x3C, 0x00, 0x3F): (.utf16(bigEndian: true), 0)
        case (0x3C, 0x00, 0x3F, 0x00): (.utf16(bigEndian: false), 0)
        default: nil
        }
        if let (wide, bom) = detected {
            guard let text = String(data: data.dropFirst(bom), encoding: wide.encoding) else {
                throw XMLInputError("it is not valid \(wide.name)")
            }
            let (declared, range) = declaredEncoding(text)
            if let declared, !wide.names.contains(declared) {
                throw XMLInputError("it declares the encoding \(shown(declared)) but is written in \(wide.name)")
            }
            return Data((range.map { text.replacingCharacters(in: $0, with: "UTF-8") } ?? text).utf8)
        }
        if head[0] == 0x4C && head[1] == 0x6F && head[2] == 0xA7 && head[3] == 0x94 || head.contains(0x00) {
            throw XMLInputError("it is in an encoding onair does not read (not UTF-8, UTF-16, UTF-32, ISO-8859-1 or windows-1252)")
        }
        let declared = declaredEncoding(String(decoding: data.prefix(256), as: UTF8.self)).name
        if let declared, asciiCompatible.contains(declared) { return data }
        // Feeds written on Windows declare windows-1252 (curly quotes at 0x91–0x94), which libxml2 reads only
        // through iconv: transcoded here, as UTF-16 is.
        if let declared, ["windows-1252", "cp1252"].contains(declared) {
            guard let text = String(data: data, encoding: .windowsCP1252) else { throw XMLInputError("it is not valid windows-1252") }
            let range = declaredEncoding(text).range
            return Data((range.map { text.replacingCharacters(in: $0, with: "UTF-8") } ?? text).utf8)
        }
        guard String(validating: data, as: UTF8.self) != nil else {
            throw XMLInputError("it is not valid UTF-8 and declares no other encoding")
        }
        if let declared, declared != "utf-8", declared != "utf8" {
            throw XMLInputError("it declares the encoding \(shown(declared)), which onair does not read (UTF-8, UTF-16, UTF-32, ISO-8859-1 or windows-1252)")
        }
        return data
    }

    /// A declared encoding as an error quotes it: the declaration is read loosely, so its value may run on to
    /// the document's next quote, line breaks and all (found by the xmltv fuzz target); an error is one line.
    private static func shown(_ declared: String) -> String {
        UntrustedText.printable(declared, maxLength: 40)
    }

    /// The encoding the XML declaration at the start of `text` names, lowercased, and where its value is.
    /// Loose on purpose (any declaration libxml2 might act on, well-formed or not).
    private static func declaredEncoding(_ text: String) -> (name: String?, range: Range<String.Index>?) {
        let text = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") ?? text.range(of: ">"),
              let attribute = text[..<end.lowerBound].range(of: #"encoding\s*=\s*["'][^"']*"#, options: .regularExpression) else {
            return (nil, nil)
        }
        let value = text[attribute].drop { $0 != "\"" && $0 != "'" }.dropFirst()
        return (value.lowercased(), value.startIndex..<value.endIndex)
    }
}
