import Foundation
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// The fields of one ICY metadata block: `StreamTitle='…';StreamUrl='…';`.
public struct ICYMetadata: Sendable, Equatable {
    /// The title to show: StreamTitle with a station's packed fields taken apart (`StationTitle`).
    public var title: String?
    /// StreamUrl, whatever its spelling (StreamURL, streamurl); nil when empty.
    public var url: String?
    /// Artwork, length, song or station message, where the title carried them.
    public var details: TitleDetails?
    /// Every field, decoded, in block order.
    public var fields: [String: String]

    /// Parses a raw block. Values end at `';` — not at the next apostrophe, since titles contain them
    /// ("Guns N' Roses"). Text is decoded as UTF-8 when valid, else in `charset`, else Latin-1.
    public init(block: [UInt8], charset: String? = nil) {
        var bytes = block[...]
        while let last = bytes.last, last == 0 { bytes = bytes.dropLast() }
        var fields: [String: String] = [:]
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let equals = bytes[index...].firstIndex(of: UInt8(ascii: "=")) else { break }
            let key = TitleText.decode(Array(bytes[index..<equals]), charset: nil)
                .trimmingCharacters(in: .whitespaces)
            var valueStart = bytes.index(after: equals)
            let quoted = valueStart < bytes.endIndex && bytes[valueStart] == UInt8(ascii: "'")
            if quoted { valueStart = bytes.index(after: valueStart) }
            let valueEnd: Int
            let next: Int
            if quoted, let close = Self.find(terminator: [UInt8(ascii: "'"), UInt8(ascii: ";")], in: bytes, from: valueStart) {
                valueEnd = close
                next = close + 2
            } else if let semicolon = bytes[valueStart...].firstIndex(of: UInt8(ascii: ";")), !quoted {
                valueEnd = semicolon
                next = semicolon + 1
            } else {
                // Last field without its `';`: take the rest, minus a closing quote.
                var end = bytes.endIndex
                if quoted, end > valueStart, bytes[end - 1] == UInt8(ascii: "'") { end -= 1 }
                valueEnd = end
                next = bytes.endIndex
            }
            if !key.isEmpty {
                fields[key] = TitleText.decode(Array(bytes[valueStart..<max(valueStart, valueEnd)]), charset: charset)
            }
            index = next
        }
        self.fields = fields
        func field(_ name: String) -> String? { fields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value }
        let stationTitle = field("StreamTitle").map(StationTitle.init(raw:))
        title = stationTitle?.text
        details = stationTitle?.details
        url = field("StreamUrl").flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func find(terminator: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var i = start
        while i + terminator.count <= bytes.endIndex {
            if bytes[i] == terminator[0] && bytes[i + 1] == terminator[1] { return i }
            i += 1
        }
        return nil
    }
}

/// Decodes title bytes whose charset nobody declared.
public enum TitleText {
    /// Valid UTF-8 is taken as it is; otherwise the station's charset (an iconv name such as
    /// "windows-1251"); otherwise Latin-1, which maps every byte and so never fails. Made printable
    /// (`UntrustedText`): no control character or bidi override reaches a terminal, a file or a log.
    public static func decode(_ bytes: [UInt8], charset: String?) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return UntrustedText.printable(utf8) }
        if let charset, let converted = convert(bytes, from: charset) { return UntrustedText.printable(converted) }
        return UntrustedText.printable(String(latin1: bytes))
    }

    /// iconv conversion to UTF-8; nil if the charset is unknown or the bytes are invalid in it.
    public static func convert(_ bytes: [UInt8], from charset: String) -> String? {
        let converter = iconv_open("UTF-8", charset)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 4)
        let produced: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer = outBuffer.baseAddress
                var outLeft = outBuffer.count
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 else { return nil }
                return outBuffer.count - outLeft
            }
        }
        guard let produced else { return nil }
        return String(validating: output[..<produced].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
