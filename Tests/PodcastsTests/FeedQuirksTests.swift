import Foundation
import XCTest
@testable import Podcasts

/// What real feeds send, read as podcast apps read it. Each fixture is ours; the comment names where the
/// quirk was seen or tested (feedparser's tests/, AntennaPod's parser/feed tests, the feeds of the real-world corpus).
final class FeedQuirksTests: XCTestCase {
    private func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    private func rss(_ items: String, title: String = "Night Radio", namespaces: String = "") -> Data {
        Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"\(namespaces)><channel><title>\(title)</title>
        \(items)
        </channel></rss>
        """.utf8)
    }

    /// Feeds written by hand or by templates use itunes: and podcast: without declaring them (libxml2 code 201);
    /// podcast apps read them by the prefix's usual meaning.
    func testUndeclaredWellKnownPrefixesAreAssumedWithAWarning() throws {
        let feed = try FeedReader.read(rss("""
        <item><title>One</title><guid>one</guid><itunes:duration>12:30</itunes:duration>
          <podcast:chapters url="https://example.org/1.json" type="application/json+chapters"/>
          <content:encoded>Notes</content:encoded><enclosure url="https://example.org/1.mp3" type="audio/mpeg"/></item>
        """))
        XCTAssertEqual(feed.episodes.map(\.duration), [750])
        XCTAssertEqual(feed.episodes.map(\.chaptersURL), ["https://example.org/1.json"])
        XCTAssertEqual(feed.episodes.map(\.description), ["Notes"])
        XCTAssertEqual(feed.warnings.count, 3, "\(feed.warnings)")
        XCTAssertTrue(feed.warnings.contains { $0.contains("itunes") && $0.contains("without declaring it") }, "\(feed.warnings)")
        XCTAssertEqual(feed.warnings.filter { $0.contains("\n") }, [], "a warning is one line")
        // An unknown prefix is still an error: nothing is known of what it means.
        XCTAssertThrowsError(try FeedReader.read(rss("<item><foo:bar>x</foo:bar></item>")))
    }

    /// The other names feeds give the namespaces: Apple's URI in other cases (feedparser's
    /// itunes_core_element_uppercase.xml, AntennaPod's feed-rss-testLegacyItunesNamespace.xml) and the
    /// Podcasting 2.0 namespace's GitHub URI (the corpus' No Agenda and Homegrown Hits feeds).
    func testOtherSpellingsOfTheNamespacesAreTheSameNamespaces() throws {
        let feed = try FeedReader.read(rss("""
        <item><guid>a</guid><itunes:duration>61</itunes:duration><podcast:chapters url="
            https://example.org/a.json
          "/><enclosure url="https://example.org/a.mp3" type="audio/mpeg"/></item>
        """, namespaces: """
         xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd" \
        xmlns:podcast="https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md"
        """))
        XCTAssertEqual(feed.episodes.map(\.duration), [61])
        XCTAssertEqual(feed.episodes.map(\.chaptersURL), ["https://example.org/a.json"], "the URL on its own line, trimmed")
        XCTAssertEqual(feed.warnings, [])
    }

    /// WordPress writes `<title></title>` when a blog has none (the corpus' wordpress-empty-channel-title.xml),
    /// with an image as the item's only enclosure.
    func testAFeedWithoutATitleIsNamedAfterItsHostAndAnImageIsNoEpisode() throws {
        let feed = try FeedReader.read(rss("""
        <item><title>A photo</title><enclosure url="http://blog.example.net/wp-content/uploads/photo-90x68.jpg"/></item>
        """, title: ""), url: "http://blog.example.net/feed/")
        XCTAssertEqual(feed.title, "blog.example.net")
        XCTAssertEqual(feed.episodes, [])
        XCTAssertEqual(feed.warnings, ["the RSS channel has no title; named after its host, blog.example.net"])
        XCTAssertThrowsError(try FeedReader.read(rss("", title: ""))) { error in
            XCTAssertEqual("\(error)", "not a podcast feed: the RSS channel has no title")
        }
    }

    /// Several enclosures on one item (feedparser's rss_item_enclosure tests; RSS 2.0 allows one, feeds send
    /// more): the audio one is the episode, whatever their order; video stays playable for its sound.
    func testTheAudioOneOfSeveralEnclosures() throws {
        let feed = try FeedReader.read(rss("""
        <item><guid>cover-first</guid><enclosure url="https://example.org/cover.jpg" type="image/jpeg"/>
          <enclosure url="https://example.org/show.m4a" type="audio/mp4" length=" 1234 "/></item>
        <item><guid>video</guid><enclosure url="https://example.org/show.mp4" type="video/mp4"/>
          <enclosure url="https://example.org/show.mp3" type="audio/mpeg"/></item>
        <item><guid>untyped</guid><enclosure url="https://example.org/stream"/></item>
        <item><guid>transcript</guid><enclosure url="https://example.org/show.pdf" type="application/pdf"/></item>
        <item><guid>no-url</guid><enclosure type="audio/mpeg"/></item>
        """))
        XCTAssertEqual(feed.episodes.map(\.url), ["https://example.org/show.m4a", "https://example.org/show.mp3", "https://example.org/stream"])
        XCTAssertEqual(feed.episodes.first?.length, 1234)
    }

    /// Relative enclosure URLs (feedparser resolves them against the feed, tests/wellformed/base), URLs padded
    /// with spaces and line breaks, and schemes other than http(s), which onair never fetches.
    func testURLsAreResolvedAgainstTheFeedTrimmedAndOnlyHTTP() throws {
        let feed = try FeedReader.read(rss("""
        <item><title>Relative</title><enclosure url="audio/1.mp3" type="audio/mpeg"/><podcast:chapters url="/chapters/1.json"/></item>
        <item><title>Padded</title><enclosure url="
           https://cdn.example.org/2.mp3  " type="audio/mpeg"/><podcast:chapters url="ftp://example.org/2.json"/></item>
        <item><title>Local</title><enclosure url="file:///etc/passwd" type="audio/mpeg"/></item>
        <item><title>Elsewhere</title><enclosure url="rtsp://example.org/3.mp3" type="audio/mpeg"/></item>
        """, namespaces: " xmlns:podcast=\"https://podcastindex.org/namespace/1.0\""), url: "https://example.org/feeds/night.xml")
        XCTAssertEqual(feed.episodes.map(\.url), ["https://example.org/feeds/audio/1.mp3", "https://cdn.example.org/2.mp3"])
        XCTAssertEqual(feed.episodes.map(\.chaptersURL), ["https://example.org/chapters/1.json", nil])
    }

    /// An item without a guid, or with an empty one (the corpus' Deutsche Welle feed): its enclosure's URL is its identity.
    func testItemsWithoutAGuidAreKnownByTheirEnclosure() throws {
        let feed = try FeedReader.read(rss("""
        <item><title>No guid</title><enclosure url="https://example.org/a.mp3" type="audio/mpeg"/></item>
        <item><title>Empty guid</title><guid>  </guid><enclosure url="https://example.org/b.mp3" type="audio/mpeg"/></item>
        """))
        XCTAssertEqual(feed.episodes.map(\.guid), ["https://example.org/a.mp3", "https://example.org/b.mp3"])
    }

    /// itunes:duration as publishers write it (AntennaPod's DurationParserTest: "00:45", "05:10", "02:15:45",
    /// "00:00:00.123", seconds alone).
    func testDurationsInEveryFormAndGarbageAsNone() {
        let forms: [(String, Double?)] = [
            ("7200", 7200), ("00:45", 45), ("05:10", 310), ("02:15:45", 8145), ("1234.5", 1234.5), ("1:02:03.250", 3723.25),
            (" 62:03 ", 3723), ("0", nil), ("1h 2m", nil), ("-5", nil), ("1:-2", nil), ("0x10", nil), ("1e3", nil), ("1.5:00", nil),
            ("1:2:3:4", nil), ("", nil), ("nan", nil), ("::", nil),
            // Past a year is no episode's length (shown, it stopped the daemon: a whole number of seconds it has none of).
            ("99999999999999999999999", nil), ("9999999:00:00", nil),
        ]
        for (text, seconds) in forms { XCTAssertEqual(FeedReader.seconds(text), seconds, text) }
    }

    /// RSS dates as feeds write them (feedparser's tests/test_date_parsers.py, AntennaPod's DateUtilsTest and
    /// feed-rss-testRss2Basic.xml's "01 Jan 70 01:00:00 +0100").
    func testRFC822DatesAsPodcastAppsReadThem() {
        let forms: [(String, String?)] = [
            ("01 Jan 70 01:00:00 +0100", "1970-01-01T00:00:00Z"),
            ("Thu, 01 Jan 04 19:48:21 GMT", "2004-01-01T19:48:21Z"),
            ("Thu,  5 Apr 2012 10:00:00 GMT", "2012-04-05T10:00:00Z"),
            ("Mon, 13 Feb, 2012 06:28:00 UTC", "2012-02-13T06:28:00Z"),
            ("Thu, 01 Jan 2004 00:00 GMT", "2004-01-01T00:00:00Z"),
            ("Thu, 01 Jan 2004", "2004-01-01T00:00:00Z"),
            ("Wed, 25 May 2011 12:33:00", "2011-05-25T12:33:00Z"),
            ("Sat, 28 March 2015 08:16:12 -0400", "2015-03-28T12:16:12Z"),
            ("Mon, 8 Sept 2014 00:00:00 GMT", "2014-09-08T00:00:00Z"),
            ("Thu Aug 30 2012 17:26:16 +0200", "2012-08-30T15:26:16Z"),
            ("Sun 01 Mar 2015 01:00:00 GMT-0400 (EDT)", "2015-03-01T05:00:00Z"),
            ("Wed, 19 Feb 2012 22:40:00 -01:01", "2012-02-19T23:41:00Z"),
            ("Sun, 14 Feb 2021 15:59:21 +13:00", "2021-02-14T02:59:21Z"),
            ("Mon, 8 Dec 2008 13:20:00 CST", "2008-12-08T19:20:00Z"),
            ("Sun, 29 Jan 2017 00:00:00 CET", "2017-01-28T23:00:00Z"),
            ("Thu, 30 Apr 2015 08:57:00 MEST", "2015-04-30T06:57:00Z"),
            ("Thu, 8 Oct 2014 09:00:00 GMT", "2014-10-08T09:00:00Z"),
            ("2024-05-08T22:18:52Z", "2024-05-08T22:18:52Z"),
            ("Sun, 16 Dec 2012 1:2:3:4 GMT", nil), ("Sun, 16 zzz 2012 11:47:32 GMT", nil), ("Sun, 16 Dec zz 11:47:32 GMT", nil),
            ("Sun, 16 Dec 2012 11:47:32 +zz:00", nil), ("Sun, 99 Jun 2009 12:00:00 GMT", nil), ("Sun, 31 Dec 9999 23:59:59 -9999", nil),
            ("mercredi 26 novembre 2008", nil), ("Tue, 24 Nov 2026 04:00:00 XYZ", nil), ("Tue, 31 Feb 2026 04:00:00 GMT", nil),
        ]
        for (text, expected) in forms { XCTAssertEqual(FeedReader.rssDate(text), expected.map(date), text) }
    }

    /// Feeds written on Windows declare windows-1252 and put its curly quote (0x92) in titles (feedparser's
    /// tests/encoding; the corpus' Tennis Abstract feed has the byte but declares UTF-8, and stays refused).
    func testAWindows1252FeedIsRead() throws {
        let feed = try FeedReader.read(Data("<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<rss version=\"2.0\"><channel><title>Caf".utf8)
            + [0xE9] + Data("</title><item><title>It".utf8) + [0x92] + Data("s late</title><enclosure url=\"https://example.org/a.mp3\" type=\"audio/mpeg\"/></item></channel></rss>".utf8))
        XCTAssertEqual(feed.title, "Caf\u{E9}")
        XCTAssertEqual(feed.episodes.map(\.title), ["It\u{2019}s late"])
        XCTAssertThrowsError(try FeedReader.read(Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><channel><title>It".utf8) + [0x92]
            + Data("s</title></channel></rss>".utf8))) { error in
            XCTAssertEqual("\(error)", "not a valid feed: it is not valid UTF-8 and declares no other encoding")
        }
    }

    /// What a podcast app might guess at but onair refuses in one line (feedparser's illformed/ stray end tags and
    /// chardet/ encodings, RSS 1.0), and feedparser's itunes_core_element_uppercase.xml, whose `<TiTlE>` XML does
    /// not make a title.
    func testWhatIsNotReadIsOneLine() throws {
        let refusals: [(String, String)] = [
            (#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><channel><title>x</title></channel></rdf:RDF>"#,
             "not a podcast feed: its root element is neither <rss> nor an Atom <feed>"),
            ("<rss><channel><title>x</title><image><height>1</height></width></image></channel></rss>", "not a valid feed: XML error by line 1"),
            (#"<?xml version="1.0" encoding="big5"?><rss/>"#,
             "not a valid feed: it declares the encoding big5, which onair does not read (UTF-8, UTF-16, UTF-32, ISO-8859-1 or windows-1252)"),
        ]
        for (document, refusal) in refusals {
            XCTAssertThrowsError(try FeedReader.read(Data(document.utf8)), document) { error in
                XCTAssertTrue("\(error)".hasPrefix(refusal), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        let uppercase = try FeedReader.read(Data("<rss><channel><TiTlE>Example title</TiTlE></channel></rss>".utf8), url: "https://example.com/rss")
        XCTAssertEqual(uppercase.title, "example.com")
        XCTAssertEqual(uppercase.warnings.count, 1)
    }

    /// A strict XML reader refuses an undefined entity (the corpus' No Agenda feed, "&gtgt;") and a bare "&"
    /// (feedparser's rss_item_link_corrupted_ampersands.xml): one line naming it and its line, not libxml2's
    /// code and the line it had read to.
    func testAnUndefinedEntityOrABareAmpersandIsRefusedNamingItsLine() {
        XCTAssertThrowsError(try FeedReader.read(rss("""
        <item><title>Fine &amp; dandy &#8217; &#x2019;</title>
          <description>Notes&nbsp;here</description></item>
        """))) { error in
            XCTAssertEqual("\(error)", "not a valid feed: it has the undefined entity &nbsp; at line 4")
        }
        XCTAssertThrowsError(try FeedReader.read(rss("<item><link>https://example.org/?a=1&b=2</link></item>"))) { error in
            XCTAssertEqual("\(error)", "not a valid feed: it has an \"&\" not written as &amp; at line 3")
        }
        XCTAssertThrowsError(try FeedReader.read(rss("<item><title>AT&T <![CDATA[ & ]]></title></item>"))) { error in
            XCTAssertTrue("\(error)".contains("line 3"), "\(error)")
        }
    }
}
