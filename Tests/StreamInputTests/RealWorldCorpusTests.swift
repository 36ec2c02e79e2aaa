import Foundation
import RadioModel
import TestSupport
import XCTest
@testable import StreamInput

/// The parsers on artifacts of the real-world corpus (`Tests/RealWorld`: playlists and ICY data that
/// broadcasters and other projects wrote, not us), for what onair's answers do not show.
/// Every case of the corpus, run through the `onair` command, is `OnairCLITests.RealWorldCorpusCLITests`.
final class RealWorldCorpusTests: XCTestCase {
    func testEveryICYMetadataBlockGivesTheTitleAListenerShouldSee() throws {
        let corpus = try RealWorldCorpus()
        let blocks = try corpus.metadataBlocks()
        let cases = try corpus.cases().filter { $0.command == .icyMetadata }
        XCTAssertEqual(cases.count, 21, "expectations.json lost ICY metadata cases")
        for corpusCase in cases {
            let block = try XCTUnwrap(corpusCase.metadataBlockID.flatMap { blocks[$0] }, corpusCase.id)
            let metadata = ICYMetadata(block: Array(block.utf8))
            let passes = corpusCase.outcomes.contains { outcome in
                let titled = outcome.noTitle == true ? metadata.title?.isEmpty ?? true : metadata.title == outcome.title
                return titled && (outcome.streamURL.map { (metadata.url ?? "") == $0 } ?? true)
            }
            XCTAssertTrue(passes, "\(corpusCase.id): got title \(metadata.title ?? "none"), url \(metadata.url ?? "none")")
        }
    }

    // MARK: The parsers on single artifacts, for what the resolver's answer does not show

    func testIHeartFieldsBecomeTitleArtworkLengthAndKind() throws {
        let corpus = try RealWorldCorpus()
        let blocks = try corpus.metadataBlocks()
        let music = ICYMetadata(block: Array(blocks["iheart-wxdx-music"]!.utf8))
        XCTAssertEqual(music.title, "Three Days Grace - Don't Wanna Go Home Tonight")
        XCTAssertEqual(music.details, TitleDetails(
            artworkURL: "https://i.iheart.com/v3/catalog/track/345521489?ops=fit(200,200),format(%22jpeg%22)", length: 207, kind: .song))
        let message = ICYMetadata(block: Array(blocks["iheart-wxdx-station-message"]!.utf8))
        XCTAssertEqual(message.title, "Home Of The Penguins - 105.9 the X")
        XCTAssertEqual(message.details, TitleDetails(kind: .stationMessage), "an empty artwork URL and a zero length are not kept")
        // A title that merely contains '=' is no payload.
        XCTAssertEqual(ICYMetadata(block: Array(blocks["ad-break-marker"]!.utf8)).details, nil)
    }

    func testHTMLEntitiesAndStreamURLSpellings() {
        let metadata = ICYMetadata(block: Array("StreamTitle='Simon &amp; Garfunkel - Mrs. Robinson &#39;68&#x21;';streamurl='http://x/a&amp;b';".utf8))
        XCTAssertEqual(metadata.title, "Simon & Garfunkel - Mrs. Robinson '68!")
        XCTAssertEqual(metadata.url, "http://x/a&amp;b", "a URL is passed on as sent")
        XCTAssertEqual(ICYMetadata(block: Array("StreamTitle='AT&T &bogus; &'".utf8)).title, "AT&T &bogus; &", "not an entity: kept")
    }

    func testPLSWithoutHeaderWithBOMOrQuotesIsStillAPLS() throws {
        let corpus = try RealWorldCorpus()
        let base = "http://radio.example/pls/"
        XCTAssertEqual(try PlaylistParser.parse(corpus.data("pls/sverigesradio-p3-no-header.pls"), url: base + "a.pls"),
                       .entries(["https://http-live.sr.se/p3-aac-192"]))
        guard case .entries(let somafm) = try PlaylistParser.parse(corpus.data("pls/DERIVED-somafm-groovesalad-bom-crlf.pls"), url: base + "b.pls") else {
            return XCTFail("the BOM hid the [playlist] line")
        }
        XCTAssertEqual(somafm.count, 4)
        XCTAssertEqual(somafm.first, "http://streamer-dtc-aa05.somafm.com:80/stream/1018")
        XCTAssertEqual(try PlaylistParser.parse(corpus.data("pls/DERIVED-mopidy-quoted-http-urls.pls"), url: base + "c.pls"),
                       .entries(["http://radio.example/foo", "http://radio.example/bar", "http://radio.example/baz"]))
    }

    func testALatin1EntryIsEscapedFromItsBytes() throws {
        let corpus = try RealWorldCorpus()
        XCTAssertEqual(try PlaylistParser.parse(corpus.data("m3u/latin1-relative-entry.m3u"), url: "http://radio.example/m3u/list.m3u"),
                       .entries(["http://radio.example/m3u/%E6%F8%E5.mp3"]))
        // The same name in UTF-8 is escaped from its UTF-8 bytes.
        XCTAssertEqual(try PlaylistParser.parse(Data("æøå.mp3\n".utf8), url: "http://radio.example/list.m3u"),
                       .entries(["http://radio.example/%C3%A6%C3%B8%C3%A5.mp3"]))
    }

    func testRedundantVariantsAreRankedPrimaryFirstThenBackupAndTheDefaultRenditionLeads() throws {
        let corpus = try RealWorldCorpus()
        guard case .hlsMaster(let rthk) = try PlaylistParser.parse(corpus.data("hls/rthk-radio2-master-primary-backup.m3u8"),
                                                                   url: "https://radio.example/master.m3u8") else { return XCTFail("not a master") }
        XCTAssertEqual(StreamResolver().ranked(rthk).map { $0.url.contains("a-p.m3u8") }, [true, false], "primary, then its backup")
        guard case .hlsMaster(let alternate) = try PlaylistParser.parse(corpus.data("hls/alternate-audio-renditions.m3u8"),
                                                                        url: "https://radio.example/master.m3u8") else { return XCTFail("not a master") }
        let ranked = StreamResolver().ranked(alternate).map { URL(string: $0.url)!.pathComponents.suffix(2).joined(separator: "/") }
        XCTAssertEqual(ranked, ["eng/prog_index.m3u8", "fre/prog_index.m3u8", "sp/prog_index.m3u8", "hi/prog_index.m3u8", "lo/prog_index.m3u8"])
        guard case .hlsMaster(let float) = try PlaylistParser.parse(corpus.data("hls/bandwidth-float-mislabelled-audio.m3u8"),
                                                                    url: "https://radio.example/master.m3u8") else { return XCTFail("not a master") }
        XCTAssertEqual(float.map(\.bandwidth), [1_280_000, 2_560_000, 7_680_001, 65000])
    }

    func testManyFailuresAreOneLineWithCountAndFirstTwoReasons() {
        let reasons = (1...16).map { "http://mirror\($0).example/stream: HTTP 503" }
        let line = FailureSummary.line(reasons, of: "entries")
        XCTAssertEqual(line, "all 16 entries failed: http://mirror1.example/stream: HTTP 503; http://mirror2.example/stream: HTTP 503; and 14 more")
        let long = FailureSummary.line([String(repeating: "x", count: 5000), "a\nb"], of: "variants")
        XCTAssertFalse(long.contains("\n"))
        XCTAssertLessThan(long.count, 600)
    }
}
