import Foundation
import RadioModel
import XMLInput

/// Recordings as a podcast feed: RSS 2.0 with the itunes namespace and Podcasting 2.0 chapters, one item
/// per recording in the order given, its enclosure the recording's audio on the daemon
/// (`/api/v1/recordings/ID/audio`), its image its station's logo. The daemon's HTTP side serves it.
public struct RecordingsFeed {
    public let title: String
    public let description: String
    public let link: String
    /// What the enclosures' and chapters' addresses start with: the box's public URL or the request's origin.
    public let base: String
    /// The channel's image: its station's logo.
    public let image: String?
    /// A path on this server as the feed's reader is given it (with its secret token, when needed).
    public let address: (String) -> String
    public let recordings: [IndexedRecording]
    /// A station's logo by its id: each item's image.
    public let logo: (String) -> String?

    public init(title: String, description: String, link: String, base: String, image: String?, address: @escaping (String) -> String,
                recordings: [IndexedRecording], logo: @escaping (String) -> String?) {
        (self.title, self.description, self.link, self.base, self.image) = (title, description, link, base, image)
        (self.address, self.recordings, self.logo) = (address, recordings, logo)
    }

    public var xml: String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">"#,
            "<channel>",
            "<title>\(XMLText.escaped(title))</title>",
            "<link>\(XMLText.escaped(link))</link>",
            "<description>\(XMLText.escaped(description))</description>",
            "<language>en</language>",
            "<itunes:author>onair</itunes:author>",
            "<itunes:explicit>false</itunes:explicit>",
        ]
        if let image { lines.append(Self.itunesImage(image)) }
        for entry in recordings {
            guard let id = entry.id else { continue }
            let audio = base + address("/api/v1/recordings/\(id)/audio")
            let name = entry.episodeTitle ?? entry.programmeName ?? entry.stationName
            let when = HTTPDate.string(entry.startUTC)
            lines += [
                "<item>",
                "<title>\(XMLText.escaped("\(name) — \(entry.startLocal)"))</title>",
                "<description>\(XMLText.escaped(entry.episodeDescription ?? "\(entry.stationName), \(entry.startLocal) (\(entry.timeZone))"))</description>",
                #"<guid isPermaLink="false">onair-recording-\#(id)-\#(Int(entry.startUTC.timeIntervalSince1970))</guid>"#,
                "<pubDate>\(when)</pubDate>",
                #"<enclosure url="\#(XMLText.escaped(audio))" length="\#(entry.size)" type="\#(AudioFileType.mimeType(of: entry.file))"/>"#,
                "<itunes:duration>\(Int(entry.duration.rounded()))</itunes:duration>",
                #"<podcast:chapters url="\#(XMLText.escaped(base + address("/api/v1/recordings/\(id)/chapters.json")))" type="application/json+chapters"/>"#,
            ]
            if let image = logo(entry.station) { lines.append(Self.itunesImage(image)) }
            lines += ["</item>"]
        }
        lines += ["</channel>", "</rss>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func itunesImage(_ url: String) -> String { #"<itunes:image href="\#(XMLText.escaped(url))"/>"# }
}
