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
    public var episodes: [FeedEpisode]
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
}

/// Reads RSS 2.0 feeds (with the iTunes and Podcasting 2.0 namespaces) and Atom feeds. Items without
/// an http(s) enclosure on a named host are left out.
public enum FeedReader {
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let podcastIndex = "https://podcastindex.org/namespace/1.0"
    static let atom = "http://www.w3.org/2005/Atom"
    static let content = "http://purl.org/rss/1.0/modules/content/"

    public static func read(_ data: Data) throws(PodcastError) -> PodcastFeed {
        let collector = Collector()
        do {
            try CheckedXMLParser.parse(data, into: collector, namespaces: true, limits: .feed)
        } catch {
            throw PodcastError("not a valid feed: \(error)")
        }
        guard let kind = collector.kind else { throw PodcastError("not a podcast feed: its root element is neither <rss> nor an Atom <feed>") }
        guard let title = collector.title, !title.isEmpty else { throw PodcastError("not a podcast feed: the \(kind) has no title") }
        return PodcastFeed(title: title, description: collector.showDescription, episodes: collector.episodes)
    }

    /// "1:02:03", "62:03", "3723" or "3723.5".
    static func seconds(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else { return nil }
        return parts.reduce(0) { $0 * 60 + $1! }
    }

    /// RFC 822 dates as RSS writes them ("Tue, 24 Nov 2026 04:00:00 GMT", "+0100", seconds or weekday left off).
    static func rssDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for format in ["EEE, d MMM yyyy HH:mm:ss zzz", "EEE, d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss zzz", "d MMM yyyy HH:mm:ss Z",
                       "EEE, d MMM yyyy HH:mm zzz", "EEE, d MMM yyyy HH:mm Z"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text.trimmingCharacters(in: .whitespacesAndNewlines)) { return date }
        }
        return nil
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var kind: String?
        var title: String?
        var showDescription: String?
        var episodes: [FeedEpisode] = []
        private var depth = 0
        /// The item or entry being read, and the depth it opened at.
        private var item: (depth: Int, fields: [String: String])?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            depth += 1
            text = ""
            let namespace = namespaceURI ?? ""
            if depth == 1 {
                kind = name == "rss" && namespace.isEmpty ? "RSS channel" : (name == "feed" && namespace == atom ? "Atom feed" : nil)
            } else if item == nil, (name == "item" && namespace.isEmpty) || (name == "entry" && namespace == atom) {
                item = (depth, [:])
            } else if item != nil {
                switch (namespace, name) {
                case ("", "enclosure"):
                    item?.fields["url"] = attributes["url"]; item?.fields["type"] = attributes["type"]; item?.fields["length"] = attributes["length"]
                case (atom, "link") where attributes["rel"] == "enclosure":
                    item?.fields["url"] = attributes["href"]; item?.fields["type"] = attributes["type"]; item?.fields["length"] = attributes["length"]
                case (podcastIndex, "chapters"): item?.fields["chapters"] = attributes["url"]
                default: break
                }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { depth -= 1; text = "" }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let namespace = namespaceURI ?? ""
            if let open = item, open.depth == depth {
                item = nil
                if let episode = episode(open.fields) { episodes.append(episode) }
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
            } else if (depth == 3 && namespace.isEmpty) || (depth == 2 && namespace == atom) {
                // The show's own title and description: <rss><channel><title>, <feed><title>.
                switch name {
                case "title": title = title ?? value
                case "description", "subtitle": showDescription = showDescription ?? value
                default: break
                }
            }
        }

        private func episode(_ fields: [String: String]) -> FeedEpisode? {
            guard let url = fields["url"]?.trimmingCharacters(in: .whitespaces), let parsed = URL(string: url),
                  let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme), parsed.host?.isEmpty == false else { return nil }
            let published = fields["pubDate"].flatMap(FeedReader.rssDate) ?? fields["updated"].flatMap { Timestamp.parse($0) }
            return FeedEpisode(guid: fields["guid"] ?? url, title: fields["title"] ?? url, description: fields["description"],
                               published: published, url: url, mimeType: fields["type"], length: fields["length"].flatMap { Int64($0) },
                               duration: fields["duration"].flatMap(FeedReader.seconds), chaptersURL: fields["chapters"])
        }
    }
}
