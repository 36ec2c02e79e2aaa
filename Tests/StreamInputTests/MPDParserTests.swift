import Foundation
import XCTest
import RadioModel
@testable import StreamInput

/// MPDs as FFmpeg's dash muxer writes them live (fixtures captured from `-f dash -streaming 1`), and
/// hand-written ones for what FFmpeg never writes: several periods, BaseURLs at every level, $Time$,
/// `r="-1"`, UTCTiming schemes, a server restart.
final class MPDParserTests: XCTestCase {
    private let mpdURL = "http://radio.example/dash/live.mpd"

    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)"))
    }

    private func parse(_ text: String) throws -> MPD { try MPDParser.parse(Data(text.utf8), url: mpdURL) }

    private func date(_ text: String) -> Date { Timestamp.parse(text)! }

    // MARK: What FFmpeg writes

    func testFFmpegsLiveTimelineMPDListsItsSegmentsOnThePresentationClock() throws {
        let mpd = try MPDParser.parse(try fixture("ffmpeg-dash-aac-timeline.mpd"), url: mpdURL)
        XCTAssertEqual(mpd.type, .dynamic)
        let start = date("2026-11-24T04:36:10.540Z")
        XCTAssertEqual(mpd.availabilityStartTime, start)
        XCTAssertEqual(mpd.minimumUpdatePeriod, 1)
        XCTAssertEqual(mpd.suggestedPresentationDelay, 1)
        XCTAssertEqual(mpd.timeShiftBufferDepth, 5.1)
        XCTAssertEqual(mpd.utcTimings, [MPD.UTCTiming(scheme: .httpISO, value: "http://127.0.0.1:1/time")])
        let representation = try XCTUnwrap(mpd.periods.first?.representations.first)
        XCTAssertEqual(representation.bandwidth, 64000)
        XCTAssertEqual(representation.mimeType, "audio/mp4")
        XCTAssertEqual(representation.template?.timeline, [MPD.TimelineEntry(time: 44032, duration: 45056, repeatCount: 4)])

        var timeline = DASHTimeline(quality: .high)
        // Half a second after it was published (at 04:36:16.670): segments 2 to 6, the last ending 6.106 s in.
        let listing = try timeline.playlist(mpd, now: date("2026-11-24T04:36:17.170Z"))
        let segments = listing.playlist.segments
        XCTAssertEqual(segments.map(\.sequence), [2, 3, 4, 5, 6])
        XCTAssertEqual(segments.first?.url, "http://radio.example/dash/chunk-stream0-00002.m4s")
        XCTAssertEqual(segments.first?.initSection?.url, "http://radio.example/dash/init-stream0.m4s")
        XCTAssertEqual(try XCTUnwrap(segments.first?.programDateTime).timeIntervalSince(start), 44032.0 / 44100, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(segments.last?.programDateTime).timeIntervalSince(start), (44032.0 + 4 * 45056) / 44100, accuracy: 1e-6)
        XCTAssertEqual(segments.first?.duration ?? 0, 45056.0 / 44100, accuracy: 1e-9)
        XCTAssertEqual(listing.bandwidth, 64000)
        XCTAssertEqual(listing.codec, "aac")
        XCTAssertFalse(listing.playlist.endList)
        // As published, the last segment is not yet to be asked for: its file may be renamed into place late.
        XCTAssertEqual(try timeline.playlist(mpd, now: date("2026-11-24T04:36:16.670Z")).playlist.segments.last?.sequence, 5)
    }

    func testFFmpegsOpusTemplateMPDIsComputedFromTheClockAlone() throws {
        let mpd = try MPDParser.parse(try fixture("ffmpeg-dash-opus-template.mpd"), url: mpdURL)
        let start = try XCTUnwrap(mpd.availabilityStartTime)
        XCTAssertEqual(mpd.minimumUpdatePeriod, 500)
        XCTAssertEqual(mpd.periods.first?.representations.first?.mimeType, "audio/webm")
        var timeline = DASHTimeline(quality: .high)
        // 20.7 s in: segments ending by 20.2 s and after 15.7 s (a 5 s time-shift buffer), numbered from 1.
        let listing = try timeline.playlist(mpd, now: start.addingTimeInterval(20.7))
        XCTAssertEqual(listing.playlist.segments.map(\.sequence), [16, 17, 18, 19, 20])
        XCTAssertEqual(listing.playlist.segments.last?.url, "http://radio.example/dash/chunk-stream0-00020.webm")
        XCTAssertEqual(listing.playlist.segments.last?.programDateTime, start.addingTimeInterval(19))
        XCTAssertEqual(listing.codec, "opus")
        XCTAssertEqual(AudioContentType.demuxerHint(for: AudioContentType.mediaType(forSegmentPath: "/chunk-stream0-00020.webm")),
                       "matroska")
    }

    // MARK: Hand-written

    /// Two periods (a programme, then an ad break from another server), BaseURLs at every level,
    /// a video set to ignore, two audio representations to choose from.
    private let twoPeriods = """
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"
         timeShiftBufferDepth="PT1M" minimumUpdatePeriod="PT2S">
      <BaseURL>https://cdn.example/live/</BaseURL>
      <Period id="show" start="PT0S">
        <BaseURL>show/</BaseURL>
        <SegmentTemplate timescale="48000" media="$RepresentationID$/$Time$.m4s" initialization="$RepresentationID$/init.m4s">
          <SegmentTimeline><S t="0" d="96000" r="-1"/></SegmentTimeline>
        </SegmentTemplate>
        <AdaptationSet contentType="video" mimeType="video/mp4">
          <Representation id="v" bandwidth="5000000"/>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2">
          <BaseURL>audio/</BaseURL>
          <Representation id="a48" bandwidth="48000"/>
          <Representation id="a128" bandwidth="128000"><BaseURL>hq/</BaseURL></Representation>
        </AdaptationSet>
      </Period>
      <Period id="ad" start="PT20S">
        <BaseURL>https://ads.example/break/</BaseURL>
        <AdaptationSet contentType="audio">
          <SegmentTemplate timescale="1000" duration="2000" startNumber="7" media="ad-$Number%03d$.m4s" initialization="ad-init.m4s"/>
          <Representation id="ad" bandwidth="96000" mimeType="audio/mp4"/>
        </AdaptationSet>
      </Period>
    </MPD>
    """

    func testPeriodsContinueOneSequenceAndEveryBaseURLLevelCounts() throws {
        let mpd = try parse(twoPeriods)
        XCTAssertEqual(mpd.periods.map { $0.representations.map(\.id) }, [["a48", "a128"], ["ad"]], "the video set is not audio")
        var timeline = DASHTimeline(quality: .high)
        let origin = date("2026-01-01T00:00:00Z")
        // 24.6 s in: the show's ten 2-second segments (r=-1 runs to the next period), then the ad's first two.
        let listing = try timeline.playlist(mpd, now: origin.addingTimeInterval(24.6))
        let segments = listing.playlist.segments
        XCTAssertEqual(segments.count, 12)
        XCTAssertEqual(segments.map(\.sequence), Array(1...12), "numbered from 1; an ad break's period follows on: no hole")
        XCTAssertEqual(segments[0].url, "https://cdn.example/live/show/audio/hq/a128/0.m4s", "the 128 kbit/s one, $Time$ in it")
        XCTAssertEqual(segments[9].url, "https://cdn.example/live/show/audio/hq/a128/864000.m4s")
        XCTAssertEqual(segments[9].initSection?.url, "https://cdn.example/live/show/audio/hq/a128/init.m4s")
        XCTAssertEqual(segments[10].url, "https://ads.example/break/ad-007.m4s")
        XCTAssertEqual(segments[10].initSection?.url, "https://ads.example/break/ad-init.m4s")
        XCTAssertEqual(segments[10].programDateTime, origin.addingTimeInterval(20), "the ad starts where the period does")
        XCTAssertEqual(segments[11].programDateTime, origin.addingTimeInterval(22))

        var low = DASHTimeline(quality: .low)
        XCTAssertEqual(try low.playlist(mpd, now: origin.addingTimeInterval(10.6)).playlist.segments.first?.url,
                       "https://cdn.example/live/show/audio/a48/0.m4s")
    }

    /// A start number a follower would overflow adding its segments to is refused, as HLS's media sequence is.
    func testAStartNumberPastTwoToTheFiftyThirdIsRefused() throws {
        let mpd = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="PT10S">
          <Period id="0" start="PT0S"><AdaptationSet contentType="audio">
            <SegmentTemplate timescale="1" duration="2" startNumber="9223372036854775807" media="s$Number$.m4s" initialization="i.m4s"/>
            <Representation id="0" bandwidth="64000"/></AdaptationSet></Period>
        </MPD>
        """
        XCTAssertThrowsError(try parse(mpd)) { XCTAssertTrue("\($0)".contains("startNumber is past 2^53"), "\($0)") }
    }

    func testAServerRestartedLaterLeavesAHoleCountedBySegment() throws {
        let before = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="PT10S">
          <Period id="0" start="PT0S"><AdaptationSet contentType="audio">
            <SegmentTemplate timescale="1" duration="2" startNumber="1" media="s$Number$.m4s" initialization="i.m4s"/>
            <Representation id="0" bandwidth="64000"/></AdaptationSet></Period>
        </MPD>
        """
        var timeline = DASHTimeline(quality: .high)
        let origin = date("2026-01-01T00:00:00Z")
        let first = try timeline.playlist(try parse(before), now: origin.addingTimeInterval(10.6))
        XCTAssertEqual(first.playlist.segments.map(\.sequence), [1, 2, 3, 4, 5])
        // Restarted 10 s after the last segment listed ended (at 10 s): numbering starts again at 1.
        let after = before.replacingOccurrences(of: "2026-01-01T00:00:00Z", with: "2026-01-01T00:00:20Z")
        let second = try timeline.playlist(try parse(after), now: origin.addingTimeInterval(24.6))
        XCTAssertEqual(second.playlist.segments.map(\.sequence), [11, 12], "five 2-second segments never existed")
        XCTAssertEqual(second.playlist.segments.first?.programDateTime, origin.addingTimeInterval(20))
        var tracker = SegmentTracker()
        _ = tracker.begin(first.playlist, startAt: nil, liveEdgeDistance: 0.1)
        _ = tracker.fetched(try XCTUnwrap(tracker.next()).segment)
        _ = tracker.update(second.playlist, liveEdgeDistance: 3)
        let hole = try XCTUnwrap(tracker.next()?.hole)
        XCTAssertEqual(hole.sequences, 6...10)
        XCTAssertEqual(hole.seconds, 10, accuracy: 1e-9, "from the end of the last segment to the restart")
    }

    func testTimelineRepeatsAndTimeGapsBetweenEntries() throws {
        let text = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT12S">
          <Period><AdaptationSet mimeType="audio/mp4"><Representation id="r" bandwidth="1">
            <SegmentTemplate timescale="10" presentationTimeOffset="100" startNumber="3" media="$Number$-$Time%08d$.m4s">
              <SegmentTimeline><S t="100" d="20" r="1"/><S d="30"/><S t="200" d="10" r="-1"/></SegmentTimeline>
            </SegmentTemplate></Representation></AdaptationSet></Period>
        </MPD>
        """
        var timeline = DASHTimeline(quality: .high)
        let listing = try timeline.playlist(try parse(text), now: Date())
        XCTAssertTrue(listing.playlist.endList, "a static MPD is a finished stream")
        let segments = listing.playlist.segments
        XCTAssertEqual(segments.map { URL(string: $0.url)!.lastPathComponent },
                       ["3-00000100.m4s", "4-00000120.m4s", "5-00000140.m4s", "6-00000200.m4s", "7-00000210.m4s"])
        XCTAssertEqual(segments.map(\.duration), [2, 2, 3, 1, 1])
        XCTAssertEqual(segments.map { $0.programDateTime!.timeIntervalSince1970 }, [0, 2, 4, 10, 11],
                       "presentationTimeOffset is time 0; the jump from 17 to 20 s stays a jump")
    }

    func testUTCTimingSchemesAndDurations() throws {
        let mpd = try parse("""
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"
             timeShiftBufferDepth="P1DT2H3M4.5S" suggestedPresentationDelay="PT0.25S">
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-head:2014" value="/time"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://time.example/iso"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-01-01T00:01:00.5Z"/>
        </MPD>
        """)
        XCTAssertEqual(mpd.utcTimings.map(\.scheme), [.httpHead, .httpISO, .direct], "NTP is not for an HTTP client")
        XCTAssertEqual(mpd.timeShiftBufferDepth, 93_784.5, "1 day, 2 h, 3 min, 4.5 s")
        XCTAssertEqual(mpd.suggestedPresentationDelay, 0.25)
        XCTAssertEqual(HTTPDate.date("Thu, 01 Jan 2026 00:01:02 GMT"), date("2026-01-01T00:01:02Z"))
        XCTAssertNil(XSDuration.seconds("1S"))
        XCTAssertNil(XSDuration.seconds("PT"))
        XCTAssertNil(XSDuration.seconds("PTS"))
    }

    func testTemplateIdentifiers() {
        XCTAssertEqual(SegmentTemplateExpansion.substitute("$RepresentationID$/$Bandwidth$/$Number%05d$-$Time$-$$-$Unknown$.m4s",
                                                           representationID: "a1", bandwidth: 64000, number: 42, time: 123456),
                       "a1/64000/00042-123456-$-$Unknown$.m4s")
        XCTAssertEqual(SegmentTemplateExpansion.substitute("x$Number%3d$y$", representationID: "", bandwidth: 0, number: 1234, time: 0),
                       "x1234y$")
    }

    // MARK: Refused

    func testBadMPDsAreOnePlainLine() {
        func message(_ text: String) -> String {
            do { _ = try parse(text); return "parsed" } catch { return "\(error)" }
        }
        XCTAssertEqual(message("<html><body>Not found</body></html>"),
                       "http://radio.example/dash/live.mpd:1: the document is not an MPD (its root is <html>)")
        XCTAssertTrue(message("<MPD type=\"dynamic\"><Period>").hasPrefix("http://radio.example/dash/live.mpd:1: not well-formed XML"),
                      message("<MPD><Period>"))
        XCTAssertEqual(message(#"<MPD type="dynamic"/>"#), "http://radio.example/dash/live.mpd: a dynamic MPD without availabilityStartTime")
        XCTAssertEqual(message(#"<MPD><BaseURL>file:///etc/</BaseURL></MPD>"#),
                       "http://radio.example/dash/live.mpd: BaseURL 'file:///etc/' is not an http(s) URL")
        // Found by the mpd fuzz target: FoundationXML traps on an attribute that is not UTF-8.
        XCTAssertThrowsError(try MPDParser.parse(Data(#"<MPD type="static"><Period id=""#.utf8) + Data([0xE3, 0xFF, 0xC0]) + Data(#""/></MPD>"#.utf8),
                                                 url: mpdURL)) { error in
            XCTAssertEqual("\(error)", "http://radio.example/dash/live.mpd: the MPD is not UTF-8 text")
        }
        XCTAssertEqual(message(#"<MPD mediaPresentationDuration="forever"/>"#),
                       "http://radio.example/dash/live.mpd: @mediaPresentationDuration 'forever' is not an xs:duration")
    }

    /// Failed before MPDParser went through CheckedXMLParser: libxml2 read the DTD, expanded its entities
    /// and counted no attributes.
    func testADTDOrAnEntityBombInAnyEncodingIsRefusedInOneLine() {
        func message(_ body: Data) -> String {
            do { _ = try MPDParser.parse(body, url: mpdURL); return "parsed" } catch { return "\(error)" }
        }
        let laughs = (1...9).map { level in
            "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }.joined()
        let bomb = """
        <?xml version="1.0"?>
        <!DOCTYPE MPD [<!ENTITY l0 "lol">\(laughs)]>
        <MPD type="static" mediaPresentationDuration="PT4S"><BaseURL>http://radio.example/&l9;/</BaseURL><Period/></MPD>
        """
        XCTAssertEqual(message(Data(bomb.utf8)), "http://radio.example/dash/live.mpd: not a valid MPD: it has a DTD declaration (<!ENTITY)")
        // One harmless entity is refused all the same: a DTD has no place in an MPD.
        let entity = #"<!DOCTYPE MPD [<!ENTITY host "radio.example">]><MPD type="static" mediaPresentationDuration="PT4S"><BaseURL>http://&host;/</BaseURL><Period/></MPD>"#
        XCTAssertEqual(message(Data(entity.utf8)), "http://radio.example/dash/live.mpd: not a valid MPD: it has a DTD declaration (<!ENTITY)")
        let utf16 = #"<?xml version="1.0" encoding="UTF-16"?>"# + bomb.drop { $0 != "\n" }
        // Without a byte order mark UTF-16's bytes are valid UTF-8 (NULs and ASCII): only the checks see its DTD.
        XCTAssertEqual(message(utf16.data(using: .utf16BigEndian)!),
                       "http://radio.example/dash/live.mpd: not a valid MPD: it has a DTD declaration (<!ENTITY)")
        XCTAssertEqual(message(Data([0xFF, 0xFE]) + utf16.data(using: .utf16LittleEndian)!),
                       "http://radio.example/dash/live.mpd: the MPD is not UTF-8 text")
        let attributes = (1...65).map { " a\($0)=\"1\"" }.joined()
        XCTAssertEqual(message(Data(#"<MPD type="static" mediaPresentationDuration="PT4S"><Period\#(attributes)/></MPD>"#.utf8)),
                       "http://radio.example/dash/live.mpd: not a valid MPD: it has an element with more than 64 attributes")
    }

    func testASegmentTemplateCannotLeadOffTheWeb() throws {
        let mpd = try parse("""
        <MPD type="static" mediaPresentationDuration="PT4S"><Period><AdaptationSet contentType="audio">
          <Representation id="r" bandwidth="1"><SegmentTemplate duration="2" media="file:///etc/passwd?$Number$"/></Representation>
        </AdaptationSet></Period></MPD>
        """)
        var timeline = DASHTimeline(quality: .high)
        XCTAssertThrowsError(try timeline.playlist(mpd, now: Date())) { error in
            XCTAssertEqual("\(error)", "http://radio.example/dash/live.mpd: segment URL 'file:///etc/passwd?1' is not an http(s) URL")
        }
    }
}
