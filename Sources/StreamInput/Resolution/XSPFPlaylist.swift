import Foundation
import RadioModel
import XMLInput
#if canImport(FoundationXML)
import FoundationXML
#endif

/// XSPF playlists (xspf.org/xspf-v1: `<playlist xmlns="http://xspf.org/ns/0/">`, trackList, track, location)
/// as the specification and its errata have them, read where real files break them as players read them:
///
/// - each track is one item; its locations are alternatives, tried in order, and the tracks are tried one
///   after another (a list of stations: the first that plays);
/// - relative locations resolve by XML Base: `xml:base` on playlist, trackList, track and location, each
///   against the one above it, the outermost against the playlist's own URL (XSPF v1 errata);
/// - a location is a URI: one with a space in it is refused, naming it (totem passes such a string on,
///   which reaches no server; taking the part before the space would be a guess);
/// - extension, meta, link and attribution are not tracks, and elements of other namespaces (VLC's
///   `vlc:option`, Last.fm's) are ignored with everything inside them;
/// - element names are compared without case, as totem-pl-parser and mopidy compare them (`tracklist`);
/// - a playlist without the XSPF namespace (old Last.fm output) is read as XSPF, with a warning;
/// - `xmlns:omx=""` (an empty prefixed declaration, which Namespaces in XML forbids) and a bare `&` are
///   repaired before reading (`LenientXML`), with a warning.
///
/// Titles (a track's title, else its creator) name the stations `onair stations import` adds.
enum XSPFPlaylist {
    static let namespace = "http://xspf.org/ns/0/"

    static func read(_ body: Data, text: String, source: PlaylistParser.Source) throws -> PlaylistReading {
        var document = body
        var warnings: [String] = []
        let (repaired, repairs) = LenientXML.repair(text, foldingNames: false)
        if !repairs.isEmpty {
            document = Data(repaired.utf8)
            warnings.append("\(URLRedaction.redact(source.url)): not well-formed XML, read as players read it: "
                            + repairs.map(\.description).joined(separator: "; "))
        }
        let reader = XSPFReader(base: source.base)
        do {
            try CheckedXMLParser.parse(document, into: reader, namespaces: true, limits: .playlist)
        } catch {
            throw reader.problem ?? PlaylistError(url: source.url, line: nil, message: "not a readable XSPF playlist: \(error)")
        }
        if let problem = reader.problem { throw problem }
        if reader.withoutNamespace {
            warnings.append("\(URLRedaction.redact(source.url)): <playlist> without the XSPF namespace (xmlns=\"\(namespace)\"); read as XSPF")
        }
        return try PlaylistParser.reading(reader.items, format: .xspf, source: source, warnings: warnings)
    }
}

/// The SAX side of `XSPFPlaylist`.
private final class XSPFReader: NSObject, XMLParserDelegate {
    private(set) var items: [PlaylistParser.RawItem] = []
    private(set) var problem: PlaylistError?
    /// The root has no namespace: its unprefixed descendants are taken as XSPF's.
    private(set) var withoutNamespace = false
    private let playlistURL: URL
    /// Lowercased local names of the open elements.
    private var path: [String] = []
    /// The base in effect inside each open element.
    private var bases: [URL] = []
    /// How many open elements are being ignored (a foreign element or an extension, and what it holds).
    private var ignored = 0
    private var track: PlaylistParser.RawItem?
    private var creator: String?
    private var text: String?
    private var textLine = 0

    init(base: URL) { playlistURL = base }

    private static let trackPath = ["playlist", "tracklist", "track"]

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let parentBase = bases.last ?? playlistURL
        let base = attributes["xml:base"].flatMap { URL(string: String($0.trimmingWhitespace()), relativeTo: parentBase)?.absoluteURL }
        bases.append(base ?? parentBase)
        let local = name.lowercased()
        path.append(local)
        if path.count == 1 {
            guard local == "playlist" else {
                return refuse(parser, "not an XSPF playlist: its root element is <\(name.prefix(40))>, not <playlist>")
            }
            switch namespaceURI ?? "" {
            case XSPFPlaylist.namespace: break
            case "": withoutNamespace = true
            case let other:
                return refuse(parser, "not an XSPF playlist: its <playlist> is in the namespace '\(other.prefix(80))', not \(XSPFPlaylist.namespace)")
            }
        }
        let isXSPF = namespaceURI == XSPFPlaylist.namespace || (withoutNamespace && (namespaceURI ?? "").isEmpty)
        if ignored > 0 || !isXSPF || local == "extension" {
            ignored += 1
            return
        }
        switch path {
        case Self.trackPath:
            track = PlaylistParser.RawItem()
            creator = nil
        case Self.trackPath + ["location"], Self.trackPath + ["title"], Self.trackPath + ["creator"]:
            text = ""
            textLine = parser.lineNumber
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            path.removeLast()
            bases.removeLast()
        }
        guard ignored == 0 else {
            ignored -= 1
            return
        }
        switch path {
        case Self.trackPath + ["location"]:
            if let text, let base = bases.last {
                track?.references.append(PlaylistParser.Reference(line: textLine, value: text, base: base, mustBeURI: true))
            }
        case Self.trackPath + ["title"]:
            if track?.title == nil { track?.title = text }
        case Self.trackPath + ["creator"]:
            if creator == nil { creator = text }
        case Self.trackPath:
            if var track {
                if track.title?.trimmingWhitespace().isEmpty ?? true { track.title = creator }
                items.append(track)
            }
            track = nil
        default:
            break
        }
        text = nil
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text?.append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text?.append(String(decoding: block, as: UTF8.self))
    }

    private func refuse(_ parser: XMLParser, _ message: String) {
        problem = PlaylistError(url: playlistURL.absoluteString, line: parser.lineNumber, message: message)
        parser.abortParsing()
    }
}
