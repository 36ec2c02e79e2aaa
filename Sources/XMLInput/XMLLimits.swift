import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// How much of a document from outside onair reads before it refuses it, so a document crafted to be
/// slow to parse (300,000 attributes on one element took 17 s) costs a moment, not the daemon's time.
public struct XMLLimits: Sendable {
    public var depth: Int
    public var attributesPerElement: Int
    /// Bytes of text in one element (its character data and CDATA sections together).
    public var textBytes: Int
    public var elements: Int
    public var time: Duration

    public init(depth: Int, attributesPerElement: Int, textBytes: Int, elements: Int, time: Duration) {
        (self.depth, self.attributesPerElement, self.textBytes, self.elements, self.time) = (depth, attributesPerElement, textBytes, elements, time)
    }

    /// XMLTV guides. A programme with a title, a description, categories and credits is about 1 KB and
    /// ten elements, so the largest guides onair takes (`GuideFetch.maxBytes`, 128 MiB: two weeks of a few
    /// hundred channels) hold some 1.3 million elements, nested 4 deep (tv/programme/credits/actor), with at
    /// most 8 attributes (a programme's start, stop, channel, pdc-start, vps-start, showview, videoplus,
    /// clumpidx). A parse of such a guide takes seconds.
    public static let guide = XMLLimits(depth: 32, attributesPerElement: 64, textBytes: 1 << 20, elements: 4_000_000, time: .seconds(120))
    /// Podcast feeds. An episode is 20 elements or so in 2–5 KB (show notes in HTML, the longest part), so a
    /// feed at `PodcastFetch.maxFeedBytes` (32 MiB; the largest feeds, daily shows with thousands of
    /// episodes, are 10–20 MB) holds some 300,000, nested 5 deep (rss/channel/item/media:group/media:content);
    /// the root declares a namespace per extension, a dozen or two attributes.
    public static let feed = XMLLimits(depth: 32, attributesPerElement: 64, textBytes: 1 << 20, elements: 1_000_000, time: .seconds(30))
    /// DASH manifests. A live MPD is a few KB to tens of KB and a few hundred elements, nested at most 7
    /// deep (MPD/Period/AdaptationSet/Representation/SegmentTemplate/SegmentTimeline/S); a SegmentTimeline
    /// may list thousands of `S` entries. `MPDParser.maxBytes` (2 MiB) holds at most some 210,000 of the
    /// shortest (`<S d="1"/>`), so the element bound sits above that and the reader's own bounds
    /// (`maxTimelineEntries`, `maxPeriods`) speak first. A live MPD is fetched again every few seconds: a
    /// parse slower than that would fall behind the stream anyway.
    public static let manifest = XMLLimits(depth: 32, attributesPerElement: 64, textBytes: 1 << 20, elements: 300_000, time: .seconds(5))
    /// Playlists: ASX and XSPF, at most `PlaylistParser.maxBytes` (512 KiB) with at most 500 entries. A VLC
    /// or Last.fm track is a dozen elements with its extension, so a full list is some 10,000, nested at most
    /// 6 deep (playlist/trackList/track/extension/vlc:item, asx/repeat/entry/ref); an annotation or abstract
    /// is a paragraph. A playlist stands between the user and the first sound, so a slow one is refused soon.
    public static let playlist = XMLLimits(depth: 32, attributesPerElement: 64, textBytes: 256 << 10, elements: 50_000, time: .seconds(5))
    /// Small documents: a UPnP device's description, a SOAP answer (a few KB each).
    public static let small = XMLLimits(depth: 32, attributesPerElement: 64, textBytes: 1 << 20, elements: 100_000, time: .seconds(10))

    /// Refuses a start tag with more attributes than the limit, before libxml2 sees it: libxml2 compares
    /// each attribute with every earlier one, so such a tag costs it seconds before any callback could stop it.
    /// Reads the bytes as the parser does (comments, CDATA sections, processing instructions skipped; quotes
    /// only after "="), and refuses what it cannot read that way, which libxml2 would refuse too.
    func checkStartTags(_ data: Data) throws(XMLInputError) {
        let refusal: XMLInputError? = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> XMLInputError? in
            let count = bytes.count
            func skip(past terminator: [UInt8], from start: Int) -> Int {
                var index = start
                while index + terminator.count <= count {
                    if bytes[index] == terminator[0], (1..<terminator.count).allSatisfy({ bytes[index + $0] == terminator[$0] }) {
                        return index + terminator.count
                    }
                    index += 1
                }
                return count
            }
            func starts(_ prefix: String, at index: Int) -> Bool {
                prefix.utf8.enumerated().allSatisfy { index + $0.offset < count && bytes[index + $0.offset] == $0.element }
            }
            var index = 0
            while index < count {
                guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
                if starts("<!--", at: index) { index = skip(past: Array("-->".utf8), from: index + 4); continue }
                if starts("<![CDATA[", at: index) { index = skip(past: Array("]]>".utf8), from: index + 9); continue }
                if starts("<?", at: index) { index = skip(past: Array("?>".utf8), from: index + 2); continue }
                // A tag (or <!DOCTYPE …>): attributes counted by their "=", quoted values skipped whole.
                var (attributes, afterEquals) = (0, false)
                index += 1
                tag: while index < count {
                    switch bytes[index] {
                    case UInt8(ascii: ">"): break tag
                    case UInt8(ascii: "<"): return XMLInputError("it has a \"<\" inside a tag")
                    case UInt8(ascii: "["): return XMLInputError("it has an internal DTD subset")
                    case UInt8(ascii: "="):
                        attributes += 1
                        if attributes > attributesPerElement {
                            return XMLInputError("it has an element with more than \(attributesPerElement) attributes")
                        }
                        afterEquals = true
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        // A quote opens a value after "=" only; a DOCTYPE's public and system literals have no "=".
                        let quote = bytes[index]
                        index += 1
                        while index < count, bytes[index] != quote {
                            if bytes[index] == UInt8(ascii: "<") { return XMLInputError("it has a \"<\" inside an attribute value") }
                            index += 1
                        }
                        afterEquals = false
                    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
                    default:
                        if afterEquals { return XMLInputError("it has an attribute whose value is not quoted") }
                    }
                    index += 1
                }
                index += 1
            }
            return nil
        }
        if let refusal { throw refusal }
    }
}

/// Stands between libxml2 and a reader's delegate, counting what `XMLLimits` bounds and stopping the parse
/// past a limit or the time budget (the reason is kept for the error). Forwards the callbacks onair's
/// readers implement: elements, characters, CDATA and parse errors.
final class LimitedDelegate: NSObject, XMLParserDelegate {
    private let inner: XMLParserDelegate
    private let limits: XMLLimits
    private let deadline: ContinuousClock.Instant
    private var depth = 0, elements = 0, textBytes = 0
    private(set) var refusal: XMLInputError?

    init(_ inner: XMLParserDelegate, limits: XMLLimits) {
        self.inner = inner
        self.limits = limits
        deadline = .now + limits.time
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        (depth, elements, textBytes) = (depth + 1, elements + 1, 0)
        if depth > limits.depth { return stop(parser, "it nests elements more than \(limits.depth) deep") }
        if elements > limits.elements { return stop(parser, "it has more than \(limits.elements) elements") }
        guard withinTime(parser) else { return }
        inner.parser(parser, didStartElement: name, namespaceURI: namespaceURI, qualifiedName: qualifiedName, attributes: attributes)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        (depth, textBytes) = (depth - 1, 0)
        guard withinTime(parser) else { return }
        inner.parser(parser, didEndElement: name, namespaceURI: namespaceURI, qualifiedName: qualifiedName)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard withinText(parser, adding: string.utf8.count) else { return }
        inner.parser(parser, foundCharacters: string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        guard withinText(parser, adding: block.count) else { return }
        inner.parser(parser, foundCDATA: block)
    }

    /// Where libxml2 found the document ill-formed, for a reader that names the line — unless a limit stopped
    /// the parse, whose reason is the one to give.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard refusal == nil else { return }
        inner.parser(parser, parseErrorOccurred: parseError)
    }

    private func withinText(_ parser: XMLParser, adding bytes: Int) -> Bool {
        textBytes += bytes
        guard textBytes <= limits.textBytes else {
            stop(parser, "it has an element with more than \(limits.textBytes / 1024) KiB of text")
            return false
        }
        return withinTime(parser)
    }

    private func withinTime(_ parser: XMLParser) -> Bool {
        guard refusal == nil else { return false }
        guard ContinuousClock.now < deadline else {
            stop(parser, "it took more than \(limits.time.components.seconds) s to read")
            return false
        }
        return true
    }

    private func stop(_ parser: XMLParser, _ reason: String) {
        guard refusal == nil else { return }
        refusal = XMLInputError(reason)
        parser.abortParsing()
    }
}
