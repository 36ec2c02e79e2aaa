import Foundation
import RadioModel
import TestSupport
import XCTest
@testable import StreamInput

/// Every case of the real-world corpus (`Fixtures/realworld`: playlists and ICY blocks that
/// broadcasters and other projects wrote, not us), judged as its `check.py` judges `onair resolve`:
/// only a PASS passes — an accepted-but-doubtful answer (CHECK) or an unreadable error (UNCLEAR) fails.
///
/// Where the corpus accepts two answers, ours is:
/// - windows-path-segment: refused, naming `C:\…` as a Windows path — it can reach nothing on the server.
/// - negative-media-sequence: refused naming EXT-X-MEDIA-SEQUENCE — sequence numbers place gaps and cuts.
/// - akamai-token-query: a live playlist's final #EXTINF without a URI is the next segment being
///   written, so it is dropped, not the playlist; an ended playlist so cut is still refused.
/// - no-extm3u: read as the media playlist its tags say it is (RFC 8216 wants #EXTM3U, servers forget it).
/// - comment-before-extm3u: the comment is skipped, then the master is refused for its STREAM-INF
///   without BANDWIDTH, a required attribute we need to choose.
/// - master-stray-uris, alternate-audio: the audio rendition (the DEFAULT=YES one) rather than a video variant.
/// - mopidy-file-urls: quotes are stripped as mopidy and VLC do, so the refusal names the file: scheme.
/// - twitch-bandwidth-missing, media-aes-short-iv, junk-line, media-no-segments: as before (refused
///   naming BANDWIDTH; a short IV zero-padded; JUNK ignored; a live playlist with no segment yet).
final class RealWorldCorpusTests: XCTestCase {
    private static let passVerdict = "PASS"

    func testEveryResolutionCaseIsAnswered() throws {
        let corpus = try RealWorldCorpus()
        let server = try corpus.serve()
        let cases = try corpus.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 68, "cases.json lost cases")
        for entry in cases {
            let id = entry["id"] as! String, file = entry["file"] as! String
            let query = entry["query"] as? String ?? ""
            let url: String
            switch entry["mode"] as! String {
            case "local": url = server.url("local/\(file)" + (query.isEmpty ? "" : "?\(query)"))
            case "raw": url = server.url("_raw/\(file)")
            default: url = server.url(file)
            }
            let quality: StreamQuality = entry["quality"] as? String == "low" ? .low : .high
            let outcome = Outcome(Result { try StreamResolver(quality: quality).resolve(url) })
            let verdict = Self.verdict(entry, outcome, ownName: (file as NSString).lastPathComponent)
            XCTAssertEqual(verdict, Self.passVerdict, "\(id) (\(file)): expected \(entry["expected"] as? String ?? "?"); got \(outcome)")
        }
    }

    func testEveryICYMetadataBlockGivesTheTitleAListenerShouldSee() throws {
        let corpus = try RealWorldCorpus()
        let cases = try corpus.metadataCases()
        XCTAssertGreaterThanOrEqual(cases.count, 21, "metadata-cases.json lost cases")
        for entry in cases {
            let id = entry["id"] as! String, block = entry["block"] as! String
            let bytes = entry["latin1"] as? Bool == true ? block.unicodeScalars.map { UInt8($0.value) } : Array(block.utf8)
            let metadata = ICYMetadata(block: bytes)
            let accepted = [entry["expect_title"] as? String].compactMap { $0 } + (entry["accept_titles"] as? [String] ?? [])
            if entry["expect_title"] is NSNull {
                XCTAssertTrue(metadata.title?.isEmpty ?? true, "\(id): no title expected, got \(metadata.title ?? "")")
            } else {
                XCTAssertTrue(accepted.contains(metadata.title ?? "\u{0}"), "\(id): got \(metadata.title ?? "no title"), want one of \(accepted)")
            }
            if let url = entry["expect_url"] as? String {
                XCTAssertEqual(metadata.url ?? "", url, "\(id): StreamUrl")
            }
        }
    }

    // MARK: The parsers on single artifacts, for what the resolver's answer does not show

    func testIHeartFieldsBecomeTitleArtworkLengthAndKind() throws {
        let corpus = try RealWorldCorpus()
        let blocks = Dictionary(uniqueKeysWithValues: try corpus.metadataCases().map { ($0["id"] as! String, $0["block"] as! String) })
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

    // MARK: check.py's judgement, for one case

    /// What `onair resolve --json` would have answered: the stream, or the error line it prints.
    private struct Outcome: CustomStringConvertible {
        var json: [String: Any]?
        var error: String?

        init(_ result: Result<ResolvedStream, Error>) {
            switch result {
            case .success(let stream):
                json = try? JSONSerialization.jsonObject(with: JSONEncoder().encode(stream)) as? [String: Any]
            case .failure(let failure):
                error = "onair: \(failure)" // as the CLI prints it
            }
        }

        var exit: Int { json == nil ? 1 : 0 }
        var url: String { json?["url"] as? String ?? "" }
        var description: String { error ?? "\(json?["kind"] ?? "?") \(url)" }
    }

    /// The verdict of the first alternative the outcome matches, as check.py gives it.
    private static func verdict(_ entry: [String: Any], _ outcome: Outcome, ownName: String) -> String {
        for alternative in entry["expect"] as? [[String: Any]] ?? [] {
            guard matches(alternative, outcome, ownName: ownName) else { continue }
            let line = (outcome.error ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if alternative["stderr_one_line"] as? Bool == true, line.contains("\n") { return "UNCLEAR: several lines" }
            if let limit = alternative["stderr_max_chars"] as? Int, line.count > limit { return "UNCLEAR: \(line.count) characters" }
            return alternative["verdict"] as? String ?? passVerdict
        }
        return entry["on_mismatch"] as? String ?? "FAIL"
    }

    private static func matches(_ alternative: [String: Any], _ outcome: Outcome, ownName: String) -> Bool {
        guard alternative["exit"] as? Int == outcome.exit else { return false }
        let error = (outcome.error ?? "").lowercased().replacingOccurrences(of: ownName.lowercased(), with: "<playlist>")
        let strings = { (key: String) in (alternative[key] as? [String] ?? []).map { $0.lowercased() } }
        guard strings("stderr_contains").allSatisfy(error.contains),
              alternative["stderr_contains_any"] == nil || strings("stderr_contains_any").contains(where: error.contains),
              !strings("stderr_not_contains").contains(where: error.contains) else { return false }
        guard let json = outcome.json else { return true }
        let url = outcome.url
        func string(_ key: String) -> String? { alternative[key] as? String }
        if let kind = string("kind"), json["kind"] as? String != kind { return false }
        if let suffix = string("url_endswith"), !url.hasSuffix(suffix) { return false }
        if let part = string("url_contains"), !url.contains(part) { return false }
        if let part = string("url_contains_ci"), !url.lowercased().contains(part.lowercased()) { return false }
        if let parts = alternative["url_contains_any"] as? [String], !parts.contains(where: url.contains) { return false }
        let variants = (json["variants"] as? [Any])?.count ?? 0
        if let count = alternative["variants"] as? Int, variants != count { return false }
        if let most = alternative["variants_max"] as? Int, variants > most { return false }
        if let bandwidth = alternative["chosen_bandwidth"] as? Int,
           (json["chosenVariant"] as? [String: Any])?["bandwidth"] as? Int != bandwidth { return false }
        for key in ["name", "bitrate", "contentType"] where alternative[key] != nil {
            guard let got = json[key] as? NSObject, got.isEqual(alternative[key]) else { return false }
        }
        let hls = json["hls"] as? [String: Any] ?? [:]
        for (key, value) in alternative["hls"] as? [String: Any] ?? [:] {
            guard let got = hls[key] as? NSObject, got.isEqual(value) else { return false }
        }
        if let window = alternative["window"] as? Double, abs((hls["windowSeconds"] as? Double ?? -1) - window) > 0.05 { return false }
        return true
    }
}
