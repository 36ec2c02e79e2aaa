import Foundation

/// Repairs the ways hand-written and old player-written XML playlists break XML, before `CheckedXMLParser`
/// reads them. Windows Media metafiles were never meant to be XML (Windows Media Player reads tags and
/// attributes in any case, `&` bare in URLs, attribute values unquoted), and VLC reads them by rewriting
/// them first, as this does; XSPF files copied from players carry the odd break too (a bare `&` in a
/// location's query, `xmlns:omx=""`, which Namespaces in XML forbids).
///
/// The repair keeps every line where it was (what it drops — comments, the XML declaration, a DOCTYPE —
/// leaves its line breaks), so the parser's line numbers still point into the file as served. It says
/// what it repaired, for the warning the reader gives.
struct LenientXML {
    /// Something repaired, named as the warning names it.
    enum Repair: Hashable, CustomStringConvertible {
        case bareAmpersand
        case bareLessThan
        case unquotedValue(String)
        case valuelessAttribute(String)
        case duplicateAttribute(String)
        case emptyPrefixDeclaration(String)
        case unclosedTag

        var description: String {
            switch self {
            case .bareAmpersand: "a bare '&' read as '&amp;'"
            case .bareLessThan: "a bare '<' read as '&lt;'"
            case .unquotedValue(let name): "the unquoted value of \(name) read as quoted"
            case .valuelessAttribute(let name): "the attribute \(name) without a value ignored"
            case .duplicateAttribute(let name): "a second \(name) attribute ignored"
            case .emptyPrefixDeclaration(let name): "the empty namespace declaration \(name)=\"\" ignored"
            case .unclosedTag: "a tag without its '>' closed"
            }
        }
    }

    /// A namespace name that stands in for an empty prefixed declaration, so elements using the prefix are
    /// foreign (ignored) rather than unbound (an error).
    static let emptyPrefixStandIn = "urn:onair:empty-namespace-declaration"

    /// The repaired document and what was repaired. With `foldingNames`, element and attribute names are
    /// lowercased (ASX), and DOCTYPEs and processing instructions dropped; the XML declaration is always
    /// dropped, as the result is UTF-8 text whatever the source's encoding was.
    static func repair(_ text: String, foldingNames: Bool) -> (text: String, repairs: [Repair]) {
        var scanner = Scanner(Array(text.unicodeScalars), foldingNames: foldingNames)
        scanner.run()
        return (String(scanner.out), scanner.repairs)
    }

    private struct Scanner {
        let source: [Unicode.Scalar]
        let foldingNames: Bool
        var index = 0
        var out = String.UnicodeScalarView()
        var repairs: [Repair] = []

        init(_ source: [Unicode.Scalar], foldingNames: Bool) {
            self.source = source
            self.foldingNames = foldingNames
            out.reserveCapacity(source.count + source.count / 16)
        }

        mutating func run() {
            while index < source.count {
                switch source[index] {
                case "<": markup()
                case "&": reference()
                default:
                    out.append(source[index])
                    index += 1
                }
            }
        }

        private func starts(_ prefix: String, at position: Int) -> Bool {
            var offset = position
            for scalar in prefix.unicodeScalars {
                guard offset < source.count, source[offset] == scalar else { return false }
                offset += 1
            }
            return true
        }

        private func find(_ terminator: String, from position: Int) -> Int? {
            var offset = position
            while offset < source.count {
                if starts(terminator, at: offset) { return offset }
                offset += 1
            }
            return nil
        }

        private mutating func copy(upTo end: Int) {
            out.append(contentsOf: source[index..<end])
            index = end
        }

        /// Drops source[index..<end], keeping its line breaks.
        private mutating func drop(upTo end: Int) {
            for scalar in source[index..<end] where scalar == "\n" { out.append(scalar) }
            index = end
        }

        private mutating func note(_ repair: Repair) {
            if !repairs.contains(repair) { repairs.append(repair) }
        }

        private mutating func markup() {
            if starts("<!--", at: index) {
                guard let end = find("-->", from: index + 4) else { return copy(upTo: source.count) }
                return drop(upTo: end + 3)
            }
            if starts("<![CDATA[", at: index) {
                guard let end = find("]]>", from: index + 9) else { return copy(upTo: source.count) }
                return copy(upTo: end + 3)
            }
            if starts("<?", at: index) {
                guard let end = find("?>", from: index + 2) else { return copy(upTo: source.count) }
                let declaration = starts("<?xml", at: index) && (index + 5 < source.count && source[index + 5].properties.isWhitespace)
                return declaration || foldingNames ? drop(upTo: end + 2) : copy(upTo: end + 2)
            }
            if starts("<!", at: index) {
                // A DOCTYPE: to its '>', past an internal subset in brackets.
                var offset = index + 2, depth = 0
                while offset < source.count, !(source[offset] == ">" && depth == 0) {
                    if source[offset] == "[" { depth += 1 } else if source[offset] == "]" { depth -= 1 }
                    offset += 1
                }
                let end = min(offset + 1, source.count)
                return foldingNames ? drop(upTo: end) : copy(upTo: end)
            }
            if starts("</", at: index) {
                out.append(contentsOf: "</".unicodeScalars)
                index += 2
                out.append(contentsOf: folded(name()).unicodeScalars)
                return
            }
            guard index + 1 < source.count, isNameStart(source[index + 1]) else {
                note(.bareLessThan)
                out.append(contentsOf: "&lt;".unicodeScalars)
                index += 1
                return
            }
            startTag()
        }

        private func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar == "_" || scalar == ":" || scalar.value > 0x7F
        }

        private func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            !scalar.properties.isWhitespace && !"=<>/\"'".unicodeScalars.contains(scalar)
        }

        private mutating func name() -> String {
            let start = index
            while index < source.count, isNameCharacter(source[index]) { index += 1 }
            return String(String.UnicodeScalarView(source[start..<index]))
        }

        private func folded(_ name: String) -> String {
            guard foldingNames else { return name }
            return String(String.UnicodeScalarView(name.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
        }

        private mutating func skipWhitespace() -> String.UnicodeScalarView {
            let start = index
            while index < source.count, source[index].properties.isWhitespace { index += 1 }
            return String.UnicodeScalarView(source[start..<index])
        }

        private mutating func startTag() {
            index += 1
            out.append("<")
            out.append(contentsOf: folded(name()).unicodeScalars)
            var seen: Set<String> = []
            while true {
                let space = skipWhitespace()
                out.append(contentsOf: space)
                guard index < source.count else { return }
                let scalar = source[index]
                if scalar == ">" {
                    out.append(">")
                    index += 1
                    return
                }
                if scalar == "/" {
                    index += 1
                    if index < source.count, source[index] == ">" {
                        out.append(contentsOf: "/>".unicodeScalars)
                        index += 1
                        return
                    }
                    continue // a stray slash
                }
                if scalar == "<" {
                    note(.unclosedTag)
                    out.append(">")
                    return
                }
                let attribute = folded(name())
                guard !attribute.isEmpty else {
                    index += 1 // a quote or '=' where a name belongs
                    continue
                }
                let beforeEquals = skipWhitespace()
                guard index < source.count, source[index] == "=" else {
                    note(.valuelessAttribute(attribute))
                    out.append(contentsOf: beforeEquals)
                    continue
                }
                index += 1
                _ = skipWhitespace()
                var (value, quote) = self.value(of: attribute)
                if seen.contains(attribute) {
                    note(.duplicateAttribute(attribute))
                    continue
                }
                seen.insert(attribute)
                if attribute.hasPrefix("xmlns:") && value.isEmpty {
                    note(.emptyPrefixDeclaration(attribute))
                    value = LenientXML.emptyPrefixStandIn
                }
                if space.isEmpty { out.append(" ") }
                out.append(contentsOf: attribute.unicodeScalars)
                out.append("=")
                out.append(quote)
                out.append(contentsOf: value.unicodeScalars)
                out.append(quote)
            }
        }

        /// An attribute's value, escaped for the quote it will be written in.
        private mutating func value(of attribute: String) -> (String, Unicode.Scalar) {
            guard index < source.count else { return ("", "\"") }
            let quote = source[index]
            var value = String.UnicodeScalarView()
            if quote == "\"" || quote == "'" {
                index += 1
                while index < source.count, source[index] != quote {
                    appendEscaped(source[index], to: &value, quote: quote)
                    index += 1
                }
                index = min(index + 1, source.count)
                return (String(value), quote)
            }
            note(.unquotedValue(attribute))
            while index < source.count, !source[index].properties.isWhitespace, source[index] != ">" {
                // "/>" ends the tag: `<ref href=http://host:8000/>` is an empty element.
                if source[index] == "/", index + 1 < source.count, source[index + 1] == ">" { break }
                appendEscaped(source[index], to: &value, quote: "\"")
                index += 1
            }
            return (String(value), "\"")
        }

        private mutating func appendEscaped(_ scalar: Unicode.Scalar, to value: inout String.UnicodeScalarView, quote: Unicode.Scalar) {
            switch scalar {
            case "&" where !isReference(at: index):
                note(.bareAmpersand)
                value.append(contentsOf: "&amp;".unicodeScalars)
            case "<":
                note(.bareLessThan)
                value.append(contentsOf: "&lt;".unicodeScalars)
            case quote:
                value.append(contentsOf: (quote == "\"" ? "&quot;" : "&apos;").unicodeScalars)
            default:
                value.append(scalar)
            }
        }

        private mutating func reference() {
            if isReference(at: index) {
                out.append("&")
            } else {
                note(.bareAmpersand)
                out.append(contentsOf: "&amp;".unicodeScalars)
            }
            index += 1
        }

        /// Whether the '&' at `position` starts one of XML's five entity references or a character reference.
        private func isReference(at position: Int) -> Bool {
            for name in ["amp;", "lt;", "gt;", "quot;", "apos;"] where starts(name, at: position + 1) { return true }
            guard starts("#", at: position + 1) else { return false }
            var offset = position + 2
            let hex = offset < source.count && source[offset] == "x"
            if hex { offset += 1 }
            let digitsStart = offset
            while offset < source.count,
                  hex ? source[offset].properties.isASCIIHexDigit : ("0"..."9").contains(source[offset]) { offset += 1 }
            return offset > digitsStart && offset < source.count && source[offset] == ";"
        }
    }
}
