import Foundation
import RadioModel
import XMLInput
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Windows Media metafiles (.asx, .wax, .wvx; ASX 3.0) as Windows Media Player, VLC and totem-pl-parser
/// read them: tag and attribute names in any case (`<Asx Version>`, `<ENTRY>`, `<Ref HREF>`), attribute
/// values unquoted or with a bare `&` (`LenientXML` rewrites the file first, as VLC's ASXToXML does), and
///
/// - each ENTRY is one item; its REFs are alternatives, tried in order (an mms:// REF before an http://
///   one is the common case: mms: is skipped, onair fetches http and https only);
/// - ENTRYs are tried in order, one after another, as a .pls's files are;
/// - an ENTRYREF names another playlist, followed as nested playlists are (within the resolver's depth);
/// - BASE (under ASX or an ENTRY) is what the REFs after it are relative to;
/// - an ENTRY with `<PARAM name="showwhilebuffering" value="true">` is what a player shows while it buffers
///   (a banner, an advert), not the programme: it is left out, as totem does;
/// - ENTRYs inside EVENT are played when the server signals that event, never on their own: left out;
/// - `<ENTRY href="…">` (no REF; mopidy reads it) is taken as a REF.
///
/// Titles (the ENTRY's, else the playlist's) name the stations `onair stations import` adds.
enum ASXPlaylist {
    static func read(_ text: String, source: PlaylistParser.Source) throws -> PlaylistReading {
        let (repaired, _) = LenientXML.repair(text, foldingNames: true)
        let reader = ASXReader(base: source.base)
        do {
            try CheckedXMLParser.parse(Data(repaired.utf8), into: reader, limits: .playlist)
        } catch {
            throw reader.problem ?? PlaylistError(url: source.url, line: nil, message: "not a readable ASX playlist: \(error)")
        }
        if let problem = reader.problem { throw problem }
        // An entry without a title of its own takes the playlist's: the station's name, in a one-station .asx.
        let items = reader.items.map { item in
            var item = item
            if item.title?.trimmingWhitespace().isEmpty ?? true { item.title = reader.title }
            return item
        }
        return try PlaylistParser.reading(items, format: .asx, source: source)
    }
}

/// The SAX side of `ASXPlaylist`, on a document whose names are lowercased.
private final class ASXReader: NSObject, XMLParserDelegate {
    private(set) var items: [PlaylistParser.RawItem] = []
    private(set) var title: String?
    private(set) var problem: PlaylistError?
    private let playlistURL: URL
    private var path: [String] = []
    /// The base in effect inside each open element.
    private var bases: [URL] = []
    private var entry: PlaylistParser.RawItem?
    private var entryIsBuffering = false
    private var text: String?
    /// How deep the EVENT being skipped is, if one is.
    private var eventDepth: Int?

    init(base: URL) { playlistURL = base }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let base = bases.last ?? playlistURL
        path.append(name)
        bases.append(base)
        if path.count == 1, name != "asx" {
            problem = PlaylistError(url: playlistURL.absoluteString, line: parser.lineNumber,
                                    message: "not an ASX playlist: its root element is <\(name.prefix(40))>, not <asx>")
            return parser.abortParsing()
        }
        guard eventDepth == nil else { return }
        func reference(_ href: String) -> PlaylistParser.Reference {
            PlaylistParser.Reference(line: parser.lineNumber, value: href, base: base)
        }
        switch name {
        case "event":
            eventDepth = path.count
        case "base":
            // It sets the base of the element it stands in, for what follows it there.
            if let href = attributes["href"], let url = URL(string: String(href.trimmingWhitespace()), relativeTo: base)?.absoluteURL,
               bases.count >= 2 {
                bases[bases.count - 2] = url
            }
        case "entry":
            entry = PlaylistParser.RawItem()
            entryIsBuffering = false
            if let href = attributes["href"] { entry?.references.append(reference(href)) }
        case "ref":
            guard let href = attributes["href"] else { break }
            if entry != nil {
                entry?.references.append(reference(href))
            } else {
                // A REF straight under ASX (written so by hand): an entry of its own.
                items.append(PlaylistParser.RawItem(title: nil, references: [reference(href)]))
            }
        case "entryref":
            if let href = attributes["href"] { items.append(PlaylistParser.RawItem(title: nil, references: [reference(href)])) }
        case "title":
            text = ""
        case "param" where entry != nil:
            if attributes["name"]?.lowercased() == "showwhilebuffering", attributes["value"]?.lowercased() == "true" {
                entryIsBuffering = true
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            if eventDepth == path.count { eventDepth = nil }
            path.removeLast()
            bases.removeLast()
        }
        guard eventDepth == nil else { return }
        switch name {
        case "title":
            let parent = path.dropLast().last
            if parent == "entry", entry != nil, entry?.title == nil {
                entry?.title = text
            } else if parent == "asx", title == nil {
                title = text
            }
            text = nil
        case "entry":
            if let entry, !entryIsBuffering { items.append(entry) }
            entry = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text?.append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text?.append(String(decoding: block, as: UTF8.self))
    }
}
