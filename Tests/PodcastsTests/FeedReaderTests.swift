import Foundation
import XCTest
@testable import Podcasts

final class FeedReaderTests: XCTestCase {
    func testAnAtomFeedsEntriesWithEnclosures() throws {
        let feed = try FeedReader.read(Data("""
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Talk</title><subtitle>About feeds</subtitle>
          <entry><title>One</title><id>urn:1</id><published>2026-11-20T06:00:00Z</published><summary>First.</summary>
            <link rel="alternate" href="https://example.org/1"/><link rel="enclosure" href="https://example.org/1.opus" type="audio/ogg" length="99"/></entry>
          <entry><title>Text only</title><id>urn:2</id></entry>
        </feed>
        """.utf8))
        XCTAssertEqual(feed.title, "Atom Talk")
        XCTAssertEqual(feed.description, "About feeds")
        XCTAssertEqual(feed.episodes, [FeedEpisode(guid: "urn:1", title: "One", description: "First.",
                                                   published: ISO8601DateFormatter().date(from: "2026-11-20T06:00:00Z"),
                                                   url: "https://example.org/1.opus", mimeType: "audio/ogg", length: 99, duration: nil,
                                                   chaptersURL: nil)])
    }

    func testRSSDurationsDatesAndWhatIsLeftOut() throws {
        let latin1 = Data("""
        <?xml version="1.0" encoding="ISO-8859-1"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Caf
        """.utf8) + [0xE9] + Data("""
         Talk</title>
          <item><title>Local file</title><enclosure url="file:///etc/passwd" type="audio/mpeg"/></item>
          <item><title>Long</title><itunes:duration>1:02:03</itunes:duration><pubDate>Tue, 24 Nov 2026 06:00 +0100</pubDate>
            <enclosure url="http://example.org/long.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8)
        let feed = try FeedReader.read(latin1)
        XCTAssertEqual(feed.title, "Caf\u{E9} Talk")
        XCTAssertEqual(feed.episodes.map(\.title), ["Long"], "only http(s) enclosures")
        XCTAssertEqual(feed.episodes.first?.duration, 3723)
        XCTAssertEqual(feed.episodes.first?.guid, "http://example.org/long.mp3", "no guid: the enclosure's URL")
        XCTAssertEqual(feed.episodes.first?.published, ISO8601DateFormatter().date(from: "2026-11-24T05:00:00Z"))
        XCTAssertEqual(FeedReader.seconds("3723.5"), 3723.5)
        XCTAssertNil(FeedReader.seconds("1:-2"))
        XCTAssertThrowsError(try FeedReader.read(Data("<html><title>x</title></html>".utf8))) {
            XCTAssertEqual("\($0)", "not a podcast feed: its root element is neither <rss> nor an Atom <feed>")
        }
    }

    /// Issue 28: a feed in UTF-16 carried an entity bomb past the DTD check, which read its bytes as UTF-8.
    func testTheShowsAndEpisodesImagesAreWebAddressesOnly() throws {
        let feed = try FeedReader.read(Data("""
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Pictures</title>
          <image><url>https://example.org/rss.png</url><title>Pictures</title><link>https://example.org/</link></image>
          <itunes:image href="art/show.jpg"/>
          <item><title>Own</title><itunes:image href="https://cdn.example.org/one.png"/><enclosure url="https://example.org/1.mp3" type="audio/mpeg"/></item>
          <item><title>Script</title><itunes:image href="javascript:alert(1)"/><enclosure url="https://example.org/2.mp3" type="audio/mpeg"/></item>
          <item><title>None</title><enclosure url="https://example.org/3.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8), url: "https://example.org/feeds/pictures.xml")
        XCTAssertEqual(feed.image, "https://example.org/feeds/art/show.jpg", "itunes:image before the RSS image, read against the feed's URL")
        XCTAssertEqual(feed.episodes.map(\.image), ["https://cdn.example.org/one.png", nil, nil])
        let plain = try FeedReader.read(Data("""
        <rss version="2.0"><channel><title>Plain</title><image><url>https://example.org/rss.png</url></image>
          <textInput><title>Search</title><name>q</name><link>https://example.org/search</link></textInput></channel></rss>
        """.utf8))
        XCTAssertEqual(plain.image, "https://example.org/rss.png", "no itunes:image: the RSS image")
    }

    func testAFeedsDTDIsRefusedInUTF16() {
        let bomb = #"<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa">]>"#
            + #"<rss version="2.0"><channel><title>&a;</title></channel></rss>"#
        XCTAssertThrowsError(try FeedReader.read(Data([0xFF, 0xFE]) + bomb.data(using: .utf16LittleEndian)!)) {
            XCTAssertEqual("\($0)", "not a valid feed: it has a DTD declaration (<!ENTITY)")
        }
    }
}

