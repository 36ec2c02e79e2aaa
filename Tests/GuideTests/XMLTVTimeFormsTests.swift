import Foundation
import XCTest
@testable import Guide
import Store

/// What real guides send. Each fixture is ours; the comment names where the quirk is written down or tested
/// (xmltv.dtd, XMLTV's t/data, tvheadend's xmltv importer, the guides of the real-world corpus).
final class XMLTVTimeFormsTests: XCTestCase {
    private func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// xmltv.dtd: "'YYYYMMDDhhmmss' or some initial substring … if no explicit timezone is given, UT is assumed.
    /// Examples: '200007281733 BST', '200209', '19880523083000 +0300'. (BST == +0100.)"
    func testEveryTimeTheDTDAllows() {
        let forms: [(String, String?)] = [
            ("200007281733 BST", "2000-07-28T16:33:00Z"), ("200209", "2002-09-01T00:00:00Z"), ("2002", "2002-01-01T00:00:00Z"),
            ("19880523083000 +0300", "1988-05-23T05:30:00Z"), ("2026112418", "2026-11-24T18:00:00Z"),
            ("20261124183005", "2026-11-24T18:30:05Z"), ("20261124183005 UTC", "2026-11-24T18:30:05Z"),
            ("20261124183000 CET", "2026-11-24T17:30:00Z"), ("20260715183000 CEST", "2026-07-15T16:30:00Z"),
            ("20261124183000 EST", "2026-11-24T23:30:00Z"), ("20261124183000 NZDT", "2026-11-24T05:30:00Z"),
            // tvheadend's _xmltv_str2time splits the zone at a space, "+" or "-": grabbers join them.
            ("20080715003000-0600", "2008-07-15T06:30:00Z"), ("20080715003000 +05:30", "2008-07-14T19:00:00Z"),
            // IST is India's, Ireland's and Israel's: no guess.
            ("20261124183000 IST", nil), ("20261124183000 Mars/Olympus", nil), ("202611241", nil), ("20261124183000 +2500", nil),
        ]
        for (text, expected) in forms { XCTAssertEqual(XMLTVTime.parse(text), expected.map(date), text) }
    }

    /// Programmes timed with zone names used to be dropped as having "no valid start"; a name onair does not
    /// know, or a stop it cannot read, is told as such.
    func testProgrammesTimedWithZoneNamesAreListed() throws {
        let guide = try XMLTVReader.read(Data("""
        <tv>
          <programme start="200108290005 BST" stop="200108290100 BST" channel="foo.radio"><title>Late Jazz</title></programme>
          <programme start="20010829010000 BST" stop="20010829030000 CEST" channel="foo.radio"><title>Night Owls</title></programme>
          <programme start="20010829020000 IST" stop="20010829030000 IST" channel="foo.radio"><title>Unknown Zone</title></programme>
          <programme start="20010829020000" stop="soon" channel="foo.radio"><title>Unreadable Stop</title></programme>
        </tv>
        """.utf8))
        XCTAssertEqual(guide.programmes.map(\.titles.first?.text), ["Late Jazz", "Night Owls"])
        XCTAssertEqual(guide.programmes.map(\.start), [date("2001-08-28T23:05:00Z"), date("2001-08-29T00:00:00Z")])
        XCTAssertEqual(guide.programmes.map(\.stop), [date("2001-08-29T00:00:00Z"), date("2001-08-29T01:00:00Z")])
        XCTAssertEqual(guide.skipped, ["programme 3: no valid start (\"20010829020000 IST\")", "programme 4: no valid stop (\"soon\")"])
    }

    /// XMLTV's t/data/whitespace.xml: the same programme five times with its title and description spaced
    /// differently, which tv_sort reads as one; a desc's runs of whitespace are one space (xmltv.dtd). A clump
    /// (t/data/clump.xml: two programmes in one slot, clumpidx 0/2 and 1/2) stays two.
    func testDuplicatesAreOneBroadcastAndClumpsTwo() throws {
        let guide = try XMLTVReader.read(Data("""
        <tv>
          <programme start="20010829000500 BST" stop="20010829010000 BST" channel="foo.radio"><title>T</title><desc>  Blah.
              More blah.   </desc></programme>
          <programme start="20010829000500 BST" stop="20010829010000 BST" channel="foo.radio"><title>   T  </title><desc>Blah.</desc></programme>
          <programme start="200204201725" stop="200204201800" channel="foo.radio" clumpidx="0/2"><title>News</title></programme>
          <programme start="200204201725" stop="200204201800" channel="foo.radio" clumpidx="1/2"><title>Weather</title></programme>
        </tv>
        """.utf8))
        XCTAssertEqual(guide.programmes.map(\.titles.first?.text), ["T", "News", "Weather"])
        XCTAssertEqual(guide.programmes.first?.descriptions.first?.text, "Blah. More blah.")
        XCTAssertEqual(guide.skipped, ["T on foo.radio: listed twice"])
    }

    private static let gzipGuide = Data(base64Encoded: """
        H4sIAAAAAAACA5WQywrCMBBF9/2KkK3YxCJaIY0rxY0ufHxAsEMN5FGS2Na/N1KRiiI4yzlw58xly04r1IDz0poCT1KKEZizLaWpCnw6rsc5XvKEhYaz80UYAwrJssBOlNKm0AldK8CcldLXStzGRmjg+wdEqx4y8sYYecbE0NrZygmtAfkgXChwRrMZXWRTOqNx0IhmNPr4YOsBmw/ZM+xTKMiggG+tM/ETdLjYlpF+x8jr7k+H+Q+H/A+HHbQebezVfRcgsdrkDqyRj7+HAQAA
        """, options: .ignoreUnknownCharacters)!

    /// Guide sites publish guide.xml.gz (the corpus' iptvx guide, served as application/gzip): inflated by its
    /// magic bytes, whatever its name or Content-Type; past the size a guide may have, refused (a decompression bomb).
    func testAGzipCompressedGuideIsInflatedWithinABound() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("onair-guide-\(UUID().uuidString).xml.gz")
        try Self.gzipGuide.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-guide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try GuideStore(database: try OnairDatabase(directory: directory))
        let summary = try GuideFetch.importFile(file.path, into: store)
        XCTAssertEqual(summary.broadcasts, 2)
        XCTAssertEqual(try GuideFetch.guide(in: Self.gzipGuide).programmes.map(\.titles.first?.text), ["Morning Show", "News Hour"])

        XCTAssertThrowsError(try GzipGuide.inflated(Self.gzipGuide, maxBytes: 100)) { error in
            XCTAssertTrue("\(error)".hasPrefix("it is gzip-compressed and inflates to more than"), "\(error)")
        }
        XCTAssertThrowsError(try GuideFetch.guide(in: Self.gzipGuide.prefix(60))) { error in
            XCTAssertTrue("\(error)".contains("gzip"), "\(error)")
        }
    }
}
