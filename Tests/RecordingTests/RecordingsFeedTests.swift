import Foundation
@testable import Recording
import TestSupport
import XCTest

/// The recordings' podcast feed as a feed reader takes it: images from the stations' logos.
final class RecordingsFeedTests: XCTestCase {
    private func recording(id: Int64, station: String, name: String) -> IndexedRecording {
        let start = Date(timeIntervalSince1970: 1_795_327_200 + Double(id) * 3600)
        var entry = IndexedRecording(FinishedRecording(
            station: StationLabel(id: station, name: name), programme: nil, start: start, end: start.addingTimeInterval(3600),
            timeZone: "Europe/Paris", file: "/m/\(id).mp3", cueSheet: nil, size: 57_600_000, duration: 3600, codec: "mp3",
            container: "mp3", titles: [], gaps: [], source: "http://127.0.0.1:9/\(station).mp3", track: nil))
        entry.id = id
        return entry
    }

    func testTheChannelAndEachItemShowTheirStationsLogo() throws {
        let logos = ["fip": "https://example.org/fip.png?size=600&format=png"]
        let feed = RecordingsFeed(title: "FIP", description: "Recordings of FIP.", link: "http://box/recordings", base: "http://box",
                                   image: logos["fip"], address: { $0 },
                                   recordings: [recording(id: 2, station: "fip", name: "FIP"), recording(id: 1, station: "other", name: "Other")],
                                   logo: { logos[$0] }).xml
        XCTAssertTrue(feed.contains(#"<itunes:image href="https://example.org/fip.png?size=600&amp;format=png"/>"#), feed)

        let script = """
        import feedparser, json, sys
        feed = feedparser.parse(sys.stdin.read())
        print(json.dumps({"bozo": feed.bozo, "channel": feed.feed.get("image", {}).get("href"),
                          "items": [entry.get("image", {}).get("href") for entry in feed.entries]}))
        """
        let result = try ProcessRunner.run("python3", ["-c", script], input: Data(feed.utf8))
        guard result.status == 0 else {
            if result.stderrText.contains("No module named 'feedparser'") { throw XCTSkip("feedparser is not installed: run scripts/setup") }
            return XCTFail("feedparser: \(result.stderrText)")
        }
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(parsed["bozo"] as? Int, 0, "well-formed")
        XCTAssertEqual(parsed["channel"] as? String, logos["fip"])
        XCTAssertEqual(parsed["items"] as? [NSObject], [logos["fip"]! as NSString, NSNull()], "an item's image is its own station's")
    }

    /// A station's name with markup whose characters are followed by combining marks (one Swift Character each): the
    /// feed stays well-formed and the name reads back whole.
    func testANameWithCombiningMarksAfterMarkupIsEscapedAsCodePoints() throws {
        let name = "Rock \"\u{301} <\u{301}b>\u{301} &\u{301} Roll"
        let feed = RecordingsFeed(title: name, description: "d", link: "http://box/recordings", base: "http://box", image: "http://box/a\"\u{301}.png",
                                  address: { $0 }, recordings: [recording(id: 1, station: "rock", name: name)], logo: { _ in nil }).xml
        let script = """
        import sys, xml.etree.ElementTree as tree
        root = tree.fromstring(sys.stdin.buffer.read())
        sys.stdout.write(root.find("channel/title").text)
        """
        let result = try ProcessRunner.run("python3", ["-c", script], input: Data(feed.utf8))
        XCTAssertEqual(result.status, 0, "\(result.stderrText)\n\(feed)")
        XCTAssertEqual(result.stdoutText, name)
    }
}
