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
/// podcast feeds — behind the checks that keep its Linux crashes, entity bombs and slow documents out.
///
/// swift-corelibs-foundation force-unwraps what libxml2 hands it, and traps on: an element, attribute
/// or comment that is not valid UTF-8; a processing instruction without data (`<?x?>`, a null pointer
/// read with strlen); and DTD declarations with optional parts. So the checks read the document as
/// libxml2 will (UTF-16 and UTF-32 transcoded first, other encodings it cannot check refused:
/// `XMLEncoding`); a document read as UTF-8 must be valid UTF-8; processing instructions without data
/// and internal DTD declarations — which neither format uses; this also keeps entity expansion bombs
/// out — are refused; and `XMLLimits` bounds the attributes of a tag before the parse, the depth, the
/// elements, the text and the time during it. Found by the xmltv fuzz target and an attacker's probes.
public enum CheckedXMLParser {
    /// libxml2's XML_ERR_ENTITYREF_NO_NAME, _SEMICOL_MISSING, XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY
    /// and XML_ERR_NAME_REQUIRED (a bare "&" followed by a space).
    private static let referenceErrors: Set<Int> = [22, 23, 26, 27, 68]

    /// Parses `data` into `delegate` within `limits`; external entities are never resolved. With
    /// `namespaces`, the delegate gets local names and namespace URIs (without, Foundation on Linux writes
    /// a prefixed name backwards: "duration:itunes"), and a prefix of `assuming` (prefix: URI) that the
    /// document uses without declaring it stands for that URI. Returns the prefixes so assumed.
    @discardableResult
    public static func parse(_ data: Data, into delegate: XMLParserDelegate, namespaces: Bool = false,
                             assuming conventional: [String: String] = [:], limits: XMLLimits = .small) throws(XMLInputError) -> [String] {
        var (data, assumed) = (try XMLEncoding.checkable(data), [String]())
        if namespaces, !conventional.isEmpty { (data, assumed) = MarkupScan.declaringUndeclared(in: data) { conventional[$0] } }
        for declaration in ["<!ENTITY", "<!NOTATION", "<!ATTLIST", "<!ELEMENT"] where data.range(of: Data(declaration.utf8)) != nil {
            throw XMLInputError("it has a DTD declaration (\(declaration))")
        }
        // Bytes that are not UTF-8 become U+FFFD, never "<", "?" or a space, so the pattern matches as on the bytes.
        if String(decoding: data, as: UTF8.self).range(of: #"<\?[^\s?>]*\s*\?>"#, options: .regularExpression) != nil {
            throw XMLInputError("it has a processing instruction without data")
        }
        try limits.checkStartTags(data)
        let limited = LimitedDelegate(delegate, limits: limits)
        // From a stream, Foundation hands libxml2 the document in chunks; given as one piece, a document past
        // 10 MB (XML_MAX_LOOKUP_LIMIT) is refused with "Huge input lookup", code 1: large guides and feeds.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = namespaces
        parser.delegate = limited
        // On Linux parse() may report success after an error, so the error itself decides.
        let parsed = parser.parse()
        if let refusal = limited.refusal { throw refusal }
        if let error = parser.parserError ?? (parsed ? nil : XMLInputError("unreadable")) {
            let code = (error as NSError).code
            // libxml2's errors about a reference (no name, no ";", an entity never declared) are told by the
            // reference itself: its line number is where the parser had read to, often far past it.
            if Self.referenceErrors.contains(code), let stray = MarkupScan.firstStrayAmpersand(in: data) {
                throw XMLInputError("it has \(stray)")
            }
            throw XMLInputError("XML error by line \(parser.lineNumber), libxml2 code \(code)")
        }
        return assumed
    }
}
