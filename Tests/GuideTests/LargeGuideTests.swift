import Foundation
import XCTest
@testable import Guide

/// A guide past 10 MB — two weeks of a few hundred channels is tens of MB — was refused as "libxml2 code 1"
/// (libxml2's "Huge input lookup", XML_MAX_LOOKUP_LIMIT, when Foundation handed it the document in one piece).
final class LargeGuideTests: XCTestCase {
    func testAGuideOfElevenMegabytesIsRead() throws {
        let description = String(repeating: "A long description of the programme. ", count: 140)
        var xml = "<tv>\n"
        for index in 0..<2_000 {
            let start = 20_261_124_000_000 + Int64(index % 24) * 10_000
            xml += "<programme start=\"\(start)\" stop=\"\(start + 3_000)\" channel=\"radio-\(index / 24)\"><title>Hour \(index)</title><desc>\(description)</desc></programme>\n"
        }
        xml += "</tv>\n"
        XCTAssertGreaterThan(xml.utf8.count, 10_500_000)
        let guide = try XMLTVReader.read(Data(xml.utf8))
        XCTAssertEqual(guide.programmes.count, 2_000, "\(guide.skipped.prefix(3))")
        XCTAssertEqual(guide.programmes.last?.titles.first?.text, "Hour 1999")
    }
}
