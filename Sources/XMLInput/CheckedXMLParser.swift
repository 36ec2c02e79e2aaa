import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Why a document from outside was not read.
public struct XMLInputError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Foundation's XMLParser (libxml2 underneath) for documents other machines send — programme guides,
/// podcast feeds — behind the checks that keep its Linux crashes out.
///
/// swift-corelibs-foundation force-unwraps what libxml2 hands it, and traps on: an element, attribute
/// or comment that is not valid UTF-8; a processing instruction without data (`<?x?>`, a null pointer
/// read with strlen); and DTD declarations with optional parts. So a document read as UTF-8 must be
/// valid UTF-8 (one declaring an encoding libxml2 translates, or UTF-16 by its byte order mark, reaches
/// the parser translated, which is valid), and processing instructions without data and internal DTD
/// declarations — which neither format uses; this also keeps entity expansion bombs out — are refused.
/// Found by the xmltv fuzz target.
public enum CheckedXMLParser {
    /// Single-byte encodings libxml2 translates itself, which feeds and guides declare.
    private static let translatedEncodings: Set<String> = ["iso-8859-1", "latin1", "iso-8859-15", "us-ascii", "ascii"]

    /// Parses `data` into `delegate`; external entities are never resolved. With `namespaces`, the
    /// delegate gets local names and namespace URIs (without, Foundation on Linux writes a prefixed
    /// name backwards: "duration:itunes").
    public static func parse(_ data: Data, into delegate: XMLParserDelegate, namespaces: Bool = false) throws(XMLInputError) {
        if readsAsUTF8(data), String(validating: data, as: UTF8.self) == nil {
            throw XMLInputError("it is not valid UTF-8 and declares no other encoding")
        }
        for declaration in ["<!ENTITY", "<!NOTATION", "<!ATTLIST", "<!ELEMENT"] where data.range(of: Data(declaration.utf8)) != nil {
            throw XMLInputError("it has a DTD declaration (\(declaration))")
        }
        // Bytes that are not UTF-8 become U+FFFD, never "<", "?" or a space, so the pattern matches as on the bytes.
        if String(decoding: data, as: UTF8.self).range(of: #"<\?[^\s?>]*\s*\?>"#, options: .regularExpression) != nil {
            throw XMLInputError("it has a processing instruction without data")
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = namespaces
        parser.delegate = delegate
        // On Linux parse() may report success after an error, so the error itself decides.
        let parsed = parser.parse()
        if let error = parser.parserError ?? (parsed ? nil : XMLInputError("unreadable")) {
            throw XMLInputError("XML error by line \(parser.lineNumber), libxml2 code \((error as NSError).code)")
        }
    }

    /// Whether libxml2 reads `data` as UTF-8: no UTF-16 byte order mark, and no declaration of an
    /// encoding it translates (`<?xml version="1.0" encoding="ISO-8859-1"?>`). Anything else, an
    /// encoding unknown or a declaration malformed, is held to UTF-8.
    private static func readsAsUTF8(_ data: Data) -> Bool {
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return false }
        let head = String(decoding: data.prefix(128), as: UTF8.self)
        let declaration = #"^<\?xml\s+version\s*=\s*["']1\.[0-9]["']\s+encoding\s*=\s*["']([A-Za-z0-9._-]+)["']"#
        guard let match = head.range(of: declaration, options: .regularExpression) else { return true }
        let name = head[match].split(whereSeparator: { $0 == "\"" || $0 == "'" }).last.map { $0.lowercased() } ?? ""
        return !translatedEncodings.contains(name)
    }
}
