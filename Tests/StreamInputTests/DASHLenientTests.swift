import Foundation
import XCTest
import RadioModel
import TestSupport
@testable import StreamInput

/// What real MPDs contain that the schema does not allow, or that onair cannot play: each fixture
/// under Fixtures/dash-quirks/ reproduces one project's or packager's quirk (its comment names the
/// origin), and each is either followed — read leniently with one warning line — or refused in one line
/// naming the construct. The constructs come from androidx/media's DashManifestParserTest and its test
/// MPDs, dash.js's test MPDs, and MPDs captured from packagers.
final class DASHLenientTests: XCTestCase {
    private let mpdURL = "https://radio.example/dash/show.mpd"

    private func quirk(_ name: String) throws -> MPD {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/dash-quirks/\(name)")
        return try MPDParser.parse(try Data(contentsOf: url), url: mpdURL)
    }

    private func refusal(_ text: String) -> String {
        do {
            let mpd = try MPDParser.parse(Data(text.utf8), url: mpdURL)
            var timeline = DASHTimeline(quality: .high)
            _ = try timeline.playlist(mpd, now: Date())
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    private func date(_ text: String) -> Date { Timestamp.parse(text)! }

    func testAnMPDWithoutTheDASHNamespaceIsReadWithAWarningAndItsBaseURLIsTheOneSegment() throws {
        let mpd = try quirk("no-namespace-baseurl-only.mpd")
        XCTAssertEqual(mpd.warnings, ["the MPD has no DASH namespace (urn:mpeg:dash:schema:mpd:2011); read leniently"])
        var timeline = DASHTimeline(quality: .high)
        let listing = try timeline.playlist(mpd, now: Date())
        XCTAssertEqual(listing.playlist.segments.map(\.url), ["https://audio.example/programme.m4a"])
        XCTAssertEqual(listing.playlist.segments.first?.duration, 2)
        XCTAssertNil(listing.playlist.segments.first?.initSection, "the resource starts with its own initialisation")
        XCTAssertEqual(listing.codec, "aac")
        XCTAssertEqual(listing.bandwidth, 96000)
    }

    func testResolvingSaysWhatTheMPDGetsWrong() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/dash-quirks/no-namespace-baseurl-only.mpd")
        let server = try FixtureHTTPServer(routes: ["/show.mpd": FixtureHTTPServer.file(try Data(contentsOf: fixture), contentType: "application/dash+xml")])
        defer { server.stop() }
        let resolved = try StreamResolver().resolve(server.url("/show.mpd").absoluteString)
        XCTAssertEqual(resolved.kind, .dash)
        XCTAssertEqual(resolved.warnings, ["the MPD has no DASH namespace (urn:mpeg:dash:schema:mpd:2011); read leniently"])
    }

    func testYouTubesLiveSegmentListIsFollowedAndSaysNothingIsAvailableOnceItsBufferHasPassed() throws {
        let mpd = try quirk("youtube-live-segmentlist.mpd")
        XCTAssertEqual(mpd.warnings, [
            "the MPD uses namespace prefixes it never declares (yt); read leniently",
            "the MPD's namespace 'urn:mpeg:DASH:schema:MPD:2011' differs in letter case from urn:mpeg:dash:schema:mpd:2011; read leniently",
        ])
        XCTAssertEqual(mpd.type, .dynamic)
        // A date without a zone is UTC.
        XCTAssertEqual(mpd.availabilityStartTime, date("2026-03-01T10:00:00Z"))
        var timeline = DASHTimeline(quality: .high)
        // The period starts 100 s in; its three 5-second segments end at 105, 110 and 115 s.
        let listing = try timeline.playlist(mpd, now: date("2026-03-01T10:01:56Z"))
        let segments = listing.playlist.segments
        XCTAssertEqual(segments.map(\.url), ["https://live.example/audio/sq/700", "https://live.example/audio/sq/701",
                                             "https://live.example/audio/sq/702"])
        XCTAssertEqual(segments.map(\.byteRange), [nil, ByteRange(offset: 0, length: 10000), nil])
        XCTAssertEqual(segments.first?.initSection?.url, "https://live.example/audio/init.mp4")
        XCTAssertEqual(segments.first?.programDateTime, date("2026-03-01T10:01:40Z"))
        XCTAssertEqual(listing.bandwidth, 128000, "the audio, not the video")

        // 30 s of time-shift buffer after the last one ended, none is left.
        let later = try timeline.playlist(mpd, now: date("2026-03-01T10:02:46Z"))
        XCTAssertTrue(later.playlist.segments.isEmpty)
        XCTAssertEqual(later.bandwidth, 128000, "still the stream it was")
        XCTAssertEqual(later.lastSegmentEnded, date("2026-03-01T10:01:55Z"), "nothing is available now, and nothing more will be")
        XCTAssertNil(listing.lastSegmentEnded)
    }

    func testMediaPackagesUndeclaredSCTE35PrefixAndMissingNamespaceCountEveryPeriod() throws {
        let mpd = try quirk("mediapackage-no-namespace-scte35.mpd")
        XCTAssertEqual(mpd.warnings, [
            "the MPD uses namespace prefixes it never declares (scte35); read leniently",
            "the MPD has no DASH namespace (urn:mpeg:dash:schema:mpd:2011); read leniently",
        ])
        XCTAssertEqual(mpd.type, .static, "static when MPD@type is missing")
        var timeline = DASHTimeline(quality: .high)
        let segments = try timeline.playlist(mpd, now: Date()).playlist.segments
        XCTAssertEqual(segments.count, 4 + 5, "both periods")
        XCTAssertEqual(segments.first?.url, "https://radio.example/dash/audio_6.mp4?m=1528")
        XCTAssertEqual(segments.last?.url, "https://radio.example/dash/audio_26.mp4?m=1528")
        XCTAssertEqual(segments.map(\.sequence), Array(segments[0].sequence..<segments[0].sequence + 9), "one unbroken sequence")
    }

    func testDecimalsForWholeNumbersAreReadWithAWarningAndAFractionIsRefusedByName() throws {
        let mpd = try quirk("decimal-integers.mpd")
        XCTAssertEqual(mpd.warnings.count, 4, "\(mpd.warnings)")
        XCTAssertTrue(mpd.warnings.contains("SegmentTemplate@duration '96000.0' is a decimal where DASH wants a whole number; read as 96000"),
                      "\(mpd.warnings)")
        var timeline = DASHTimeline(quality: .high)
        let segments = try timeline.playlist(mpd, now: Date()).playlist.segments
        XCTAssertEqual(segments.count, 5)
        XCTAssertEqual(segments.first?.url, "https://radio.example/dash/seg-1.m4s")
        XCTAssertEqual(segments.first?.duration, 2)

        let fraction = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dash-quirks/decimal-integers.mpd"), encoding: .utf8)
            .replacingOccurrences(of: "duration=\"96000.0\"", with: "duration=\"634.566\"")
        XCTAssertEqual(refusal(fraction), "https://radio.example/dash/show.mpd: SegmentTemplate@duration '634.566' is not a whole number")
    }

    func testEncryptedAudioIsPassedOverForClearAudioAndRefusedInOneLineWhenItIsAllThereIs() throws {
        let mpd = try quirk("protected-and-clear-audio.mpd")
        XCTAssertEqual(mpd.periods.first?.representations.first?.refusal,
                       "the audio is encrypted (ContentProtection: cenc, Widevine, PlayReady): DRM-protected audio onair cannot play")
        var timeline = DASHTimeline(quality: .high)
        let listing = try timeline.playlist(mpd, now: Date())
        XCTAssertEqual(listing.bandwidth, 64000, "the clear set, though the encrypted one is richer")
        XCTAssertEqual(listing.playlist.segments.first?.url, "https://radio.example/dash/clear-1.m4s")

        let text = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dash-quirks/protected-and-clear-audio.mpd"), encoding: .utf8)
        let onlyProtected = text.replacingOccurrences(of: #"<AdaptationSet contentType="audio" mimeType="audio/mp4" lang="fra">\s*<SegmentTemplate[^>]*clear[\s\S]*?</AdaptationSet>"#,
                                                      with: "", options: .regularExpression)
        XCTAssertFalse(onlyProtected.contains("clear-"))
        XCTAssertEqual(refusal(onlyProtected), "https://radio.example/dash/show.mpd: the audio is encrypted "
                       + "(ContentProtection: cenc, Widevine, PlayReady): DRM-protected audio onair cannot play")
    }

    func testAC4AudioIsRefusedInOneLineNamingIt() throws {
        var timeline = DASHTimeline(quality: .high)
        XCTAssertThrowsError(try timeline.playlist(try quirk("ac4-only.mpd"), now: Date())) { error in
            XCTAssertEqual("\(error)", "https://radio.example/dash/show.mpd: the audio is AC-4 (ac-4.02.01.02), which FFmpeg cannot decode")
        }
    }

    func testAnAudioSetThatSaysNothingOfItsTypeIsFoundByItsRepresentationAndStartsLate() throws {
        var timeline = DASHTimeline(quality: .high)
        let listing = try timeline.playlist(try quirk("audio-set-without-type-late-timeline.mpd"), now: Date())
        let segments = listing.playlist.segments
        XCTAssertEqual(listing.bandwidth, 128000, "the audio set, not the video")
        XCTAssertEqual(segments.count, 5)
        XCTAssertEqual(segments.first?.url, "https://vod.example/show/a1_2.m4s", "numbered from startNumber")
        XCTAssertEqual(segments.first?.programDateTime, Date(timeIntervalSince1970: 3), "3 s into the period: a gap before it")
        XCTAssertEqual(listing.playlist.windowDuration, 4 * 6 + 0.5, accuracy: 1e-9)
    }

    func testConstructsOnairCannotFollowAreRefusedInOneLine() {
        func mpd(_ representation: String) -> String {
            """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S"><Period>
            <AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2">\(representation)</AdaptationSet></Period></MPD>
            """
        }
        let cases: [(String, String)] = [
            (#"<Representation id="a" bandwidth="1"><SegmentList><SegmentURL media="1.m4s"/><SegmentURL media="2.m4s"/></SegmentList></Representation>"#,
             "the audio's SegmentList gives no duration and no SegmentTimeline, so its segments cannot be placed"),
            (#"<Representation id="a" bandwidth="1"><SegmentList duration="2"><SegmentURL media="1.m4s" mediaRange="9-3"/></SegmentList></Representation>"#,
             "SegmentURL@mediaRange '9-3' is not a byte range first-last"),
            (#"<Representation id="a" bandwidth="1"><SegmentList duration="2"><SegmentURL media="file:///etc/passwd"/></SegmentList></Representation>"#,
             "SegmentURL@media 'file:///etc/passwd' is not an http(s) URL"),
            (#"<Representation id="a" bandwidth="1"><SegmentBase indexRange="0-"/></Representation>"#,
             "SegmentBase@indexRange '0-' is not a byte range first-last"),
            (#"<Representation id="a" bandwidth="1"><SegmentBase indexRange="100-2000000"/></Representation>"#,
             "SegmentBase@indexRange spans more than 1048576 bytes"),
            (#"<Representation id="a" bandwidth="1"><SegmentTemplate media="$Number$" duration="2" timescale="0.0"/></Representation>"#,
             "SegmentTemplate@timescale is 0"),
            (#"<Representation id="a" bandwidth="1"><SegmentTemplate media="$Number$"><SegmentTimeline><S d="1.5"/></SegmentTimeline></SegmentTemplate></Representation>"#,
             "S@d '1.5' is not a whole number"),
        ]
        for (representation, message) in cases {
            let said = refusal(mpd(representation))
            XCTAssertTrue(said.hasSuffix(message), "\(representation): \(said)")
            XCTAssertFalse(said.contains("\n"), said)
        }
    }

    func testALocationMovesWhereTheMPDIsLoadedFromAndAListMPDOrNonsenseIsRefusedInOneLine() throws {
        XCTAssertEqual(try quirk("location-relative.mpd").location, "https://radio.example/relative/redirect.mpd")
        let list = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dash-quirks/list-mpd-imported.mpd"), encoding: .utf8)
        XCTAssertEqual(refusal(list), "https://radio.example/dash/show.mpd: MPD@type 'list' is neither static nor dynamic")
        // ExoPlayer's parse_withMalformedManifest and dash.js's manifest_error.xml: bytes that are no XML at all.
        XCTAssertEqual(refusal("data \n"), "https://radio.example/dash/show.mpd:1: not well-formed XML")
        XCTAssertEqual(refusal(#"<MPD xmlns="urn:mpeg:dash:schema:mpd:2011"><Location>file:///etc/passwd</Location></MPD>"#),
                       "https://radio.example/dash/show.mpd: Location 'file:///etc/passwd' is not an http(s) URL")
    }

    /// androidx/media's availabilityTimeOffset_dynamicManifest_valuesInSegmentList: a low-latency live
    /// SegmentList whose segments may be fetched 1.5 s before they end.
    func testASegmentListsAvailabilityTimeOffsetListsSegmentsEarly() throws {
        func mpd(_ offset: String) -> String {
            let urls = (1...10).map { "<SegmentURL media=\"s\($0).m4s\"/>" }.joined()
            return """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"><Period start="PT0S">
            <AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2"><Representation id="a" bandwidth="64000">
            <SegmentList timescale="1000" duration="2000" \(offset)>\(urls)</SegmentList></Representation></AdaptationSet></Period></MPD>
            """
        }
        let now = date("2026-01-01T00:00:05Z")
        for (offset, expected) in [("", ["s1.m4s", "s2.m4s"]), (#"availabilityTimeOffset="1.5""#, ["s1.m4s", "s2.m4s", "s3.m4s"]),
                                   (#"availabilityTimeOffset="1.5" availabilityTimeComplete="false""#, ["s1.m4s", "s2.m4s"])] {
            var timeline = DASHTimeline(quality: .high)
            let segments = try timeline.playlist(try MPDParser.parse(Data(mpd(offset).utf8), url: mpdURL), now: now).playlist.segments
            XCTAssertEqual(segments.map { URL(string: $0.url)!.lastPathComponent }, expected, offset)
        }
    }

    func testUndeclaredPrefixesAreOnlyDeclaredWhenTheDocumentNeedsIt() throws {
        let declared = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:yt="http://youtube.com/yt/2012/10/10" yt:x="1" type="static"/>
        """
        XCTAssertNil(UndeclaredPrefixes.declared(in: Data(declared.utf8)))
        XCTAssertTrue(try MPDParser.parse(Data(declared.utf8), url: mpdURL).warnings.isEmpty)
        let many = "<MPD " + (0..<9).map { "p\($0):a=\"1\"" }.joined(separator: " ") + "/>"
        XCTAssertNil(UndeclaredPrefixes.declared(in: Data(many.utf8)), "more than a stray vendor attribute: not repaired")
    }
}
