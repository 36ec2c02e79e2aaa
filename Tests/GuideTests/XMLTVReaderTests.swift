import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import Guide
import XMLInput

final class XMLTVReaderTests: XCTestCase {
    private func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func testReadsChannelsProgrammesOffsetsLanguagesAndEpisodeNumbers() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE tv SYSTEM "xmltv.dtd">
        <tv generator-info-name="test">
          <channel id="jazz.example"><display-name lang="en">Jazz FM</display-name><display-name lang="de">Jazz-Welle</display-name></channel>
          <programme start="20261124200000 +0100" stop="20261124210000 +0100" channel="jazz.example">
            <title lang="de">Jazzstunde</title>
            <title lang="en">Jazz Hour</title>
            <sub-title lang="en">Blue Notes &amp; More</sub-title>
            <desc lang="en"><![CDATA[Records from 1959.]]></desc>
            <category lang="en">Music</category>
            <episode-num system="xmltv_ns">1.4/10.</episode-num>
            <episode-num system="dd_progid">EP0123.0005</episode-num>
            <credits><actor>Not a title</actor></credits>
          </programme>
          <programme start="20261124210000" channel="jazz.example"><title>News</title><episode-num>E12</episode-num></programme>
          <programme start="202611242230 -0530" channel="jazz.example"><title>Late</title></programme>
          <programme start="yesterday" channel="jazz.example"><title>Broken</title></programme>
          <programme start="20261124200000" stop="20261124190000" channel="jazz.example"><title>Backwards</title></programme>
        </tv>
        """
        let guide = try XMLTVReader.read(Data(xml.utf8))
        XCTAssertEqual(guide.channels, [XMLTVChannel(id: "jazz.example", names: [LocalizedText("Jazz FM", lang: "en"),
                                                                                 LocalizedText("Jazz-Welle", lang: "de")])])
        XCTAssertEqual(guide.programmes.count, 2, "the last programme has no stop and nothing after it: \(guide.skipped)")
        let jazz = guide.programmes[0]
        XCTAssertEqual(jazz.start, date("2026-11-24T19:00:00Z"))
        XCTAssertEqual(jazz.stop, date("2026-11-24T20:00:00Z"))
        XCTAssertEqual(jazz.titles.preferring("en"), "Jazz Hour")
        XCTAssertEqual(jazz.titles.preferring("de-AT"), "Jazzstunde")
        XCTAssertEqual(jazz.titles.preferring(nil), "Jazzstunde")
        XCTAssertEqual(jazz.subTitles.preferring("en"), "Blue Notes & More")
        XCTAssertEqual(jazz.descriptions.first?.text, "Records from 1959.")
        XCTAssertEqual(jazz.categories.first?.text, "Music")
        XCTAssertEqual(jazz.episodeNumbers.first?.display, "S2E5")
        XCTAssertEqual(jazz.episodeNumbers.compactMap(\.seriesID), ["EP0123"])
        let news = guide.programmes[1]
        XCTAssertEqual(news.start, date("2026-11-24T21:00:00Z"), "no offset is UTC")
        XCTAssertEqual(news.stop, date("2026-11-25T04:00:00Z"), "without a stop it ends where the next one starts (22:30 -0530)")
        XCTAssertEqual(news.episodeNumbers, [EpisodeNumber(system: "onscreen", value: "E12")])
        XCTAssertEqual(guide.skipped.count, 3, "\(guide.skipped)")
        XCTAssertTrue(guide.skipped.contains { $0.contains("no valid start") }, "\(guide.skipped)")
        XCTAssertTrue(guide.skipped.contains { $0.contains("stop is not after its start") }, "\(guide.skipped)")
    }

    func testEpisodeNumbersReadAsAListenerWould() {
        XCTAssertEqual(EpisodeNumber(system: "xmltv_ns", value: "0.0.").display, "S1E1")
        XCTAssertEqual(EpisodeNumber(system: "xmltv_ns", value: ".11/20.").display, "E12")
        XCTAssertEqual(EpisodeNumber(system: "xmltv_ns", value: "2.3.0/2").display, "S3E4 (part 1/2)")
        XCTAssertNil(EpisodeNumber(system: "xmltv_ns", value: "..").display)
        XCTAssertNil(EpisodeNumber(system: "xmltv_ns", value: "-5.99999999999999999999.").display)
    }

    func testTimesTakeEveryPrecisionAndOffsetTheFormatAllows() {
        XCTAssertEqual(XMLTVTime.parse("20261124"), date("2026-11-24T00:00:00Z"))
        XCTAssertEqual(XMLTVTime.parse("202611241830 GMT"), date("2026-11-24T18:30:00Z"))
        XCTAssertEqual(XMLTVTime.parse("20260329013000 +02:00"), date("2026-03-28T23:30:00Z"))
        for bad in ["", "2026112", "20261324000000", "20260230000000", "20261124000000 +2500", "20261124000000 IST", "20261124 +0100 x"] {
            XCTAssertNil(XMLTVTime.parse(bad), bad)
        }
    }

    func testWhatIsNotXMLTVIsOneError() {
        for broken in ["<tv><programme start='20260101' channel='a'><title>x</title></programme>", "<tv><programme></tv>",
                       "<tv>\n<a x='1' x='2'/></tv>"] {
            XCTAssertThrowsError(try XMLTVReader.read(Data(broken.utf8))) { error in
                XCTAssertTrue("\(error)".hasPrefix("not a valid XMLTV document: XML error by line "), "\(error)")
            }
        }
        XCTAssertThrowsError(try XMLTVReader.read(Data("<rss/>".utf8))) { error in
            XCTAssertEqual("\(error)", "not an XMLTV document: its root element is not <tv>")
        }
    }
}

extension XMLTVReaderTests {
    /// Found by the xmltv fuzz target: an element name cut inside a UTF-8 sequence ("<credits\xC2<")
    /// made Foundation's parser trap.
    func testAnElementNameThatIsNotUTF8IsOneErrorNotACrash() {
        XCTAssertThrowsError(try XMLTVReader.read(Data("<tv><programme start=\"20261124200000\" channel=\"c\"><credits".utf8) + [0xC2]
                                                  + Data("<actor>x</actor></credits></programme></tv>".utf8))) {
            XCTAssertEqual("\($0)", "not a valid XMLTV document: it is not valid UTF-8 and declares no other encoding")
        }
    }

    /// Found by the fuzz target too: a declaration naming an encoding libxml2 does not know ("UT") must
    /// not let bytes that are not UTF-8 through.
    func testAnUnknownEncodingIsHeldToUTF8() {
        XCTAssertThrowsError(try XMLTVReader.read(Data(base64Encoded:
            "PD94bWzgdnxyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVQiCkYtPz48OFJhbmchRE9DVFlQRSB0diBtbHR2LmR0ZCI+Cjx0dj94")!)) {
            XCTAssertEqual("\($0)", "not a valid XMLTV document: it is not valid UTF-8 and declares no other encoding")
        }
    }

    /// Found by the xmltv fuzz target in CI: the declaration's encoding value, read loosely, ran on to the
    /// next quote over two lines, and the error quoted it whole. An error is one line, the value bounded.
    func testAnEncodingValueRunningOverLinesIsQuotedOnOneLine() {
        let guide = "<?xml version=\"1.0\" encoding=\"UTF-stunde</title>\n    <sub-title lang=\"en\">Blue</sub-title>\n<?xml?><tv/>"
        XCTAssertThrowsError(try XMLTVReader.read(Data(guide.utf8))) { error in
            XCTAssertEqual("\(error)", "not a valid XMLTV document: it declares the encoding utf-stunde</title>     <sub-title lang=, "
                           + "which onair does not read (UTF-8, UTF-16, UTF-32, ISO-8859-1 or windows-1252)")
        }
    }

    /// Constructs Foundation's parser traps on, found by the fuzz target: a processing instruction
    /// without data, declarations of an internal DTD subset (and so entity expansion bombs).
    func testConstructsTheParserCannotReadAreOneError() {
        let cases = [("<?<?T?>$", "a processing instruction without data"),
                     ("<tv><?x  ?></tv>", "a processing instruction without data"),
                     ("<!DOCTYPE tv [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><tv>&b;</tv>", "a DTD declaration (<!ENTITY)"),
                     ("<!DOCTYPE tv [<!NOTATION n PUBLIC \"x\">]><tv/>", "a DTD declaration (<!NOTATION)")]
        for (document, reason) in cases {
            XCTAssertThrowsError(try XMLTVReader.read(Data(document.utf8)), document) {
                XCTAssertEqual("\($0)", "not a valid XMLTV document: it has \(reason)")
            }
        }
        XCTAssertNoThrow(try XMLTVReader.read(Data("<?xml version=\"1.0\"?><!DOCTYPE tv SYSTEM \"xmltv.dtd\"><?xml-stylesheet href=\"a.xsl\"?><tv/>".utf8)))
    }

    func testALatin1GuideIsReadInItsDeclaredEncoding() throws {
        let latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><tv><programme start=\"20261124200000\" stop=\"20261124210000\" ".utf8)
            + Data("channel=\"c\"><title>Caf".utf8) + [0xE9] + Data("</title></programme></tv>".utf8)
        XCTAssertEqual(try XMLTVReader.read(latin1).programmes.first?.titles.first?.text, "Café")
    }
}

/// An attacker's guides (issue 28): a DTD in an encoding the pre-check did not read, and documents built
/// to be slow to parse. Each was read, or parsed for seconds, before the checks saw every encoding and
/// `XMLLimits` bounded the parse.
extension XMLTVReaderTests {
    private static let guide = #"<?xml version="1.0" encoding="ENCODING"?><tv><programme start="20261124200000" stop="20261124210000" "#
        + #"channel="c"><title>Café</title></programme></tv>"#
    private static let bomb = #"<?xml version="1.0" encoding="ENCODING"?><!DOCTYPE tv [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>"#
        + #"<tv><programme start="20261124200000" stop="20261124210000" channel="c"><title>&b;</title></programme></tv>"#

    /// `document` in each wide encoding libxml2 reads: with and without a byte order mark, each byte order.
    private static func wide(_ document: String) -> [(String, Data)] {
        [("UTF-16", String.Encoding.utf16LittleEndian, [0xFF, 0xFE] as [UInt8]), ("UTF-16", .utf16BigEndian, [0xFE, 0xFF]),
         ("UTF-32", .utf32LittleEndian, [0xFF, 0xFE, 0, 0]), ("UTF-32", .utf32BigEndian, [0, 0, 0xFE, 0xFF])].flatMap { name, encoding, bom in
            let bytes = document.replacingOccurrences(of: "ENCODING", with: name).data(using: encoding)!
            return [("\(encoding) with its byte order mark", Data(bom) + bytes), ("\(encoding) without", bytes)]
        }
    }

    func testADTDIsRefusedInEveryEncodingTheParserReads() {
        for (encoding, document) in Self.wide(Self.bomb) {
            XCTAssertThrowsError(try XMLTVReader.read(document), encoding) {
                XCTAssertEqual("\($0)", "not a valid XMLTV document: it has a DTD declaration (<!ENTITY)", encoding)
            }
        }
        // 8-bit bytes declaring an encoding in which "<" need not be the byte "<": the checks could not read them as libxml2 might.
        for declared in ["UTF-16", "UTF-7"] {
            let document = Data(Self.guide.replacingOccurrences(of: "ENCODING", with: declared).utf8)
            XCTAssertThrowsError(try XMLTVReader.read(document), declared) {
                XCTAssertEqual("\($0)", "not a valid XMLTV document: it declares the encoding \(declared.lowercased()), which onair does not read "
                               + "(UTF-8, UTF-16, UTF-32, ISO-8859-1 or windows-1252)")
            }
        }
    }

    func testAGuideInUTF16OrUTF32IsReadInEitherByteOrder() throws {
        for (encoding, document) in Self.wide(Self.guide) {
            XCTAssertEqual(try XMLTVReader.read(document).programmes.first?.titles.first?.text, "Café", encoding)
        }
    }

    func testAnElementWithThreeHundredThousandAttributesIsRefusedBeforeItIsParsed() {
        // 17 s in libxml2 before any callback; refused now as soon as the 65th attribute is counted.
        let attributes = (0..<300_000).map { "a\($0)=\"\"" }.joined(separator: " ")
        XCTAssertThrowsError(try XMLTVReader.read(Data("<tv><channel id=\"c\" \(attributes)/></tv>".utf8))) {
            XCTAssertEqual("\($0)", "not a valid XMLTV document: it has an element with more than 64 attributes")
        }
        // Quotes and markup inside comments, CDATA and values do not hide attributes from the count.
        let hidden = "<tv><!-- ' \" --><![CDATA[ ' ]]><channel id='>' \(attributes)/></tv>"
        XCTAssertThrowsError(try XMLTVReader.read(Data(hidden.utf8))) {
            XCTAssertEqual("\($0)", "not a valid XMLTV document: it has an element with more than 64 attributes")
        }
    }

    func testAGuideNestedTooDeepOrWithAnEndlessTextIsRefused() {
        let deep = "<tv>" + String(repeating: "<x>", count: 40) + String(repeating: "</x>", count: 40) + "</tv>"
        XCTAssertThrowsError(try XMLTVReader.read(Data(deep.utf8))) {
            XCTAssertEqual("\($0)", "not a valid XMLTV document: it nests elements more than 32 deep")
        }
        let long = "<tv><channel id=\"c\"><display-name>" + String(repeating: "a", count: (1 << 20) + 1) + "</display-name></channel></tv>"
        XCTAssertThrowsError(try XMLTVReader.read(Data(long.utf8))) {
            XCTAssertEqual("\($0)", "not a valid XMLTV document: it has an element with more than 1024 KiB of text")
        }
    }

    func testTheParseStopsAtItsElementCountAndItsTimeBudget() {
        let document = Data(("<tv>" + String(repeating: "<channel id=\"c\"/>", count: 20) + "</tv>").utf8)
        let few = XMLLimits(depth: 32, attributesPerElement: 64, textBytes: 1024, elements: 10, time: .seconds(60))
        XCTAssertThrowsError(try CheckedXMLParser.parse(document, into: XMLParserDelegateStub(), limits: few)) {
            XCTAssertEqual("\($0)", "it has more than 10 elements")
        }
        var spent = few
        (spent.elements, spent.time) = (100, .zero)
        XCTAssertThrowsError(try CheckedXMLParser.parse(document, into: XMLParserDelegateStub(), limits: spent)) {
            XCTAssertEqual("\($0)", "it took more than 0 s to read")
        }
    }
}

private final class XMLParserDelegateStub: NSObject, XMLParserDelegate {}

