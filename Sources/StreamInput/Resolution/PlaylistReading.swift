import Foundation
import RadioModel

/// One entry of a playlist as a listener sees it: its title, when the list gives one, and the URLs that play
/// it in the order to try them — the REFs of an ASX ENTRY, the locations of an XSPF track, the one URL of a
/// .pls or .m3u entry. Every URL is absolute and http or https.
public struct PlaylistItem: Sendable, Equatable {
    public var title: String?
    public var urls: [String]

    public init(title: String?, urls: [String]) { self.title = title; self.urls = urls }
}

/// A playlist read whole: what the resolver follows, the items a list of stations is made of, what was
/// left out and what was read leniently.
public struct PlaylistReading: Sendable {
    public var format: PlaylistSniffer.Format
    public var content: PlaylistContent
    /// A list of streams' items with their titles (empty for HLS playlists, which are one stream).
    public var items: [PlaylistItem]
    /// References that lead nowhere onair goes (mms:, rtsp:, file:, a location that is not a URI), each
    /// naming itself and its line.
    public var skipped: [PlaylistError]
    /// Where the playlist breaks its format's rules and was read as players read it: one line each.
    public var warnings: [String]
}

extension PlaylistParser {
    /// A reference as a playlist writes it, before it is made absolute.
    struct Reference {
        var line: Int
        var value: String
        /// What a relative reference resolves against: the playlist's URL, or an XML base inside it.
        var base: URL
        /// It must be a URI as it stands (XSPF's `<location>`): a space is refused, not escaped.
        var mustBeURI = false
    }

    /// An entry before its references are made absolute.
    struct RawItem {
        var title: String?
        var references: [Reference] = []
    }

    /// The items with their references made absolute and checked: http or https only, none beyond the bound.
    /// A reference that fails is skipped (and said); a playlist none of whose references works is refused with
    /// the first reason, or as listing no stream.
    static func reading(_ items: [RawItem], format: PlaylistSniffer.Format, source: Source,
                        warnings: [String] = []) throws -> PlaylistReading {
        let references = items.flatMap(\.references)
        guard references.count <= maxEntries else {
            throw PlaylistError(url: source.url, line: references[maxEntries].line, message: "more than \(maxEntries) entries")
        }
        var accepted: [PlaylistItem] = []
        var skipped: [PlaylistError] = []
        for item in items {
            var urls: [String] = []
            for reference in item.references {
                do {
                    let url = try absolute(reference, source)
                    if !urls.contains(url) { urls.append(url) }
                } catch let error as PlaylistError {
                    skipped.append(error)
                }
            }
            let title = item.title.map { String($0.trimmingWhitespace()) }
            if !urls.isEmpty { accepted.append(PlaylistItem(title: title?.isEmpty == false ? title : nil, urls: urls)) }
        }
        guard !accepted.isEmpty else {
            throw skipped.first ?? PlaylistError(url: source.url, line: nil, message: "playlist lists no stream")
        }
        return PlaylistReading(format: format, content: .entries(accepted.flatMap(\.urls)), items: accepted,
                               skipped: skipped, warnings: warnings)
    }

    private static func absolute(_ reference: Reference, _ source: Source) throws -> String {
        let value = String(reference.value.trimmingWhitespace())
        guard !value.isEmpty else {
            throw PlaylistError(url: source.url, line: reference.line, message: "an empty reference")
        }
        if reference.mustBeURI, value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            throw PlaylistError(url: source.url, line: reference.line,
                                message: "<location> '\(value.prefix(80))' is not a URI: it contains a space")
        }
        return try absolute(value, line: reference.line, base: reference.base, url: source.url, escape: source.escape)
    }
}
