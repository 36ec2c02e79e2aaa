import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import RadioModel
import XMLInput

/// A problem with a podcast, told in one plain line.
public struct PodcastError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A podcast feed as read: the show and its episodes with an audio enclosure.
public struct PodcastFeed: Sendable, Equatable {
    public var title: String
    public var description: String?
    /// The show's artwork (itunes:image, else the RSS image's url): an http(s) URL.
    public var image: String?
    public var episodes: [FeedEpisode]
    /// What was read leniently, one line each ("it uses the prefix itunes without declaring it: …").
    public var warnings: [String] = []
}

public struct FeedEpisode: Sendable, Equatable {
    /// The feed's own id of the episode (RSS guid, Atom id), else its enclosure's URL.
    public var guid: String
    public var title: String
    public var description: String?
    public var published: Date?
    public var url: String
    public var mimeType: String?
    public var length: Int64?
    /// Seconds (itunes:duration).
    public var duration: Double?
    /// podcast:chapters (Podcasting 2.0): a JSON chapters file.
    public var chaptersURL: String?
    /// The episode's own artwork (itunes:image): an http(s) URL.
    public var image: String?
}

/// Reads RSS 2.0 feeds (with the iTunes and Podcasting 2.0 namespaces) and Atom feeds. An item is an
/// episode when one of its enclosures is audio (or may be: video, or no type and no image or page
/// extension) on an http(s) URL with a named host; relative URLs are read against the feed's.
public enum FeedReader {
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let podcastIndex = "https://podcastindex.org/namespace/1.0"
    static let atom = "http://www.w3.org/2005/Atom"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let media = "http://search.yahoo.com/mrss/"

    /// The namespaces podcast apps assume for these prefixes when a feed uses them without declaring them.
    static let conventionalPrefixes = ["itunes": itunes, "podcast": podcastIndex, "atom": atom, "content": content, "media": media]

    /// Other names feeds give the same namespaces: Apple's URI in other cases and over https, and the
    /// Podcasting 2.0 namespace's first URI (its specification says both are the one namespace).
    static func canonical(_ namespace: String) -> String {
        switch namespace.lowercased() {
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd": itunes
        case "https://podcastindex.org/namespace/1.0", "http://podcastindex.org/namespace/1.0",
             "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": podcastIndex
        default: namespace
        }
    }

    /// Reads the feed fetched from `url` (which relative URLs are read against, and whose host names a feed
    /// without a title).
    public static func read(_ data: Data, url: String? = nil) throws(PodcastError) -> PodcastFeed {
        let base = url.flatMap { URL(string: $0) }
        let collector = Collector(base: base)
        var warnings: [String] = []
        do {
            let assumed = try CheckedXMLParser.parse(data, into: collector, namespaces: true, assuming: conventionalPrefixes, limits: .feed)
            warnings += assumed.map { "it uses the prefix \($0): without declaring it; read as \(conventionalPrefixes[$0]!), as podcast apps do" }
        } catch {
            throw PodcastError("not a valid feed: \(error)")
        }
        guard let kind = collector.kind else { throw PodcastError("not a podcast feed: its root element is neither <rss> nor an Atom <feed>") }
        var title = collector.title ?? ""
        if title.isEmpty {
            guard let host = base?.host, !host.isEmpty else { throw PodcastError("not a podcast feed: the \(kind) has no title") }
            title = host
            warnings.append("the \(kind) has no title; named after its host, \(host)")
        }
        return PodcastFeed(title: title, description: collector.showDescription, image: collector.showImage, episodes: collector.episodes,
                           warnings: warnings)
    }

    /// itunes:duration in the forms feeds write it: "3723", "62:03", "1:02:03", "3723.5", "1:02:03.250".
    /// Anything else ("1h 2m", "-5", "0") is no duration: 0 is what a publisher writes who does not know.
    static func seconds(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts.dropLast().allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let last = parts.last, last.first?.isNumber == true, last.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              last.filter({ $0 == "." }).count <= 1 else { return nil }
        let total = parts.reduce(0.0) { $0 * 60 + Double($1)! }
        return total > 0 && total <= ClockText.longest ? total : nil
    }

    /// RSS's pubDate: RFC 822 (`RFC822Date`), else the ISO 8601 some feeds write there.
    static func rssDate(_ text: String) -> Date? {
        RFC822Date.parse(text) ?? Timestamp.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// An enclosure, and how surely it is the episode's audio (0: not audio; the highest is taken).
    struct Enclosure {
        var url: String
        var type: String?
        var length: String?

        var audioRank: Int {
            let type = (type ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            if type.hasPrefix("audio/") { return 3 }
            if type.hasPrefix("video/") { return 2 }
            if type.hasPrefix("image/") || type.hasPrefix("text/") || type == "application/pdf" { return 0 }
            let pathExtension = URL(string: url)?.pathExtension.lowercased() ?? ""
            return ["jpg", "jpeg", "png", "gif", "webp", "svg", "pdf", "html", "htm", "txt"].contains(pathExtension) ? 0 : 1
        }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        /// The item or entry being read: the depth it opened at, its fields and enclosures.
        private struct OpenItem {
            var depth: Int
            var fields: [String: String] = [:]
            var enclosures: [Enclosure] = []
        }

        var kind: String?
        var title: String?
        var showDescription: String?
        var showImage: String?
        var episodes: [FeedEpisode] = []
        private let base: URL?
        private var depth = 0
        private var item: OpenItem?
        private var text = ""

        init(base: URL?) { self.base = base }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            depth += 1
            text = ""
            let namespace = FeedReader.canonical(namespaceURI ?? "")
            if depth == 1 {
                kind = name == "rss" && namespace.isEmpty ? "RSS channel" : (name == "feed" && namespace == atom ? "Atom feed" : nil)
            } else if item == nil, (name == "item" && namespace.isEmpty) || (name == "entry" && namespace == atom) {
                item = OpenItem(depth: depth)
            } else if item != nil {
                switch (namespace, name) {
                case ("", "enclosure"):
                    if let url = attributes["url"] { item?.enclosures.append(Enclosure(url: url, type: attributes["type"], length: attributes["length"])) }
                case (atom, "link") where attributes["rel"] == "enclosure":
                    if let url = attributes["href"] { item?.enclosures.append(Enclosure(url: url, type: attributes["type"], length: attributes["length"])) }
                case (podcastIndex, "chapters"): item?.fields["chapters"] = attributes["url"]
                case (itunes, "image"): item?.fields["image"] = attributes["href"]
                default: break
                }
            } else if depth == 3, namespace == itunes, name == "image", let href = attributes["href"].flatMap(webURL) {
                // <rss><channel><itunes:image href>: podcast apps prefer it to the RSS image.
                showImage = href
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { depth -= 1; text = "" }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let namespace = FeedReader.canonical(namespaceURI ?? "")
            if let open = item, open.depth == depth {
                item = nil
                if let episode = episode(open) { episodes.append(episode) }
                return
            }
            guard !value.isEmpty else { return }
            if var open = item {
                // Only the item's own fields: nested elements (e.g. media:group) do not overwrite them.
                guard depth == open.depth + 1 else { return }
                switch (namespace, name) {
                case ("", "title"), (atom, "title"): open.fields["title"] = value
                case ("", "guid"), (atom, "id"): open.fields["guid"] = value
                case ("", "pubDate"): open.fields["pubDate"] = value
                case (atom, "published"), (atom, "updated"): open.fields["updated"] = open.fields["updated"] ?? value
                case ("", "description"), (itunes, "summary"), (atom, "summary"), (content, "encoded"), (atom, "content"):
                    open.fields["description"] = open.fields["description"] ?? value
                case (itunes, "duration"): open.fields["duration"] = value
                default: break
                }
                item = open
            } else if depth == 4, namespace.isEmpty, name == "url", showImage == nil {
                // <rss><channel><image><url>, when there is no itunes:image.
                showImage = webURL(value)
            } else if (depth == 3 && namespace.isEmpty) || (depth == 2 && namespace == atom) {
                // The show's own title and description: <rss><channel><title>, <feed><title>.
                switch name {
                case "title": title = title ?? value
                case "description", "subtitle": showDescription = showDescription ?? value
                default: break
                }
            }
        }

        /// The item as an episode: its most surely audio enclosure on an http(s) URL; nil if it has none.
        private func episode(_ item: OpenItem) -> FeedEpisode? {
            let playable = item.enclosures.compactMap { enclosure -> (Enclosure, String)? in
                guard enclosure.audioRank > 0, let url = webURL(enclosure.url) else { return nil }
                return (enclosure, url)
            }
            guard let (enclosure, url) = playable.max(by: { $0.0.audioRank < $1.0.audioRank }) else { return nil }
            let fields = item.fields
            let published = fields["pubDate"].flatMap(FeedReader.rssDate) ?? fields["updated"].flatMap { Timestamp.parse($0) }
            let length = enclosure.length.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            return FeedEpisode(guid: fields["guid"] ?? url, title: fields["title"] ?? url, description: fields["description"],
                               published: published, url: url, mimeType: enclosure.type, length: length,
                               duration: fields["duration"].flatMap(FeedReader.seconds), chaptersURL: fields["chapters"].flatMap(webURL),
                               image: fields["image"].flatMap(webURL))
        }

        /// `text` as an absolute http(s) URL on a named host, read against the feed's URL when relative.
        private func webURL(_ text: String) -> String? {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let parsed = URL(string: trimmed, relativeTo: base)?.absoluteURL, let scheme = parsed.scheme?.lowercased(),
                  ["http", "https"].contains(scheme), parsed.host?.isEmpty == false else { return nil }
            // An absolute URL stays as the feed wrote it (its escapes included).
            return URL(string: trimmed)?.scheme != nil ? trimmed : parsed.absoluteString
        }
    }
}
