import Foundation
import XCTest
import TestSupport

/// `onair guide` as a user meets it: importing, mapping a channel, what is on now, the one-line
/// errors, and the daemon asking for a guide URL again with a conditional request.
final class GuideCLITests: XCTestCase {
    /// An XMLTV guide of one channel whose programme "Now Playing" runs from an hour ago to an hour ahead.
    private func guide() -> Data {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss"
        let (start, stop) = (formatter.string(from: Date(timeIntervalSinceNow: -3600)), formatter.string(from: Date(timeIntervalSinceNow: 3600)))
        return Data("""
        <tv><channel id="demo.example"><display-name>Demo FM</display-name></channel>
        <programme start="\(start) +0000" stop="\(stop) +0000" channel="demo.example"><title>Now Playing</title>
          <episode-num system="onscreen">E7</episode-num></programme></tv>
        """.utf8)
    }

    func testImportMapShowAndTheErrorsAUserMeets() throws {
        let onair = try OnairBinary()
        let file = onair.home.file("guide.xml")
        try guide().write(to: file)
        let imported = try onair.run(["guide", "import", file.path])
        XCTAssertEqual(imported.stdoutText, "Imported 1 broadcast on 1 channel\n", "\(imported)")
        XCTAssertTrue(try onair.run(["guide", "channels"]).stdoutText.contains("demo.example  Demo FM  (not mapped)"))

        let station = "http://127.0.0.1:9/demo.mp3"
        let unmapped = try onair.run(["guide", station])
        XCTAssertEqual(unmapped.status, 4)
        XCTAssertEqual(unmapped.stderrText, "onair: no imported guide lists \(station) (import one, then: onair guide map CHANNEL \(station))\n")
        let noRule = try onair.run(["schedule", "add", station, "--title", "Now"])
        XCTAssertEqual(noRule.status, 3)
        XCTAssertTrue(noRule.stderrText.hasPrefix("onair: no imported guide lists \(station)"), noRule.stderrText)

        XCTAssertEqual(try onair.run(["guide", "map", "demo.example", station]).stdoutText, "demo.example is \(station)\n")
        XCTAssertEqual(try onair.run(["guide", "map", "nope.example", station]).status, 4)
        let now = try onair.run(["guide", station, "--json"])
        let entry = try XCTUnwrap(OnairBinary.events(now.stdoutText).first, "\(now)")
        XCTAssertEqual(entry["title"] as? String, "Now Playing")
        XCTAssertEqual(entry["episode"] as? String, "E7")
        XCTAssertEqual(entry["onAir"] as? Bool, true)
        XCTAssertTrue(try onair.run(["guide", station]).stdoutText.hasPrefix("▶ "), "what is on now is marked")

        let badPattern = try onair.run(["schedule", "add", station, "--title", "(Now"])
        XCTAssertEqual(badPattern.status, 3)
        XCTAssertEqual(badPattern.stderrText, "onair: invalid title pattern '(Now': not a regular expression\n")
        let both = try onair.run(["schedule", "add", station, "--title", "Now", "--for", "1h"])
        XCTAssertEqual(both.status, 64, "\(both)")

        let broken = onair.home.file("broken.xml")
        try Data("<tv><programme".utf8).write(to: broken)
        let notXML = try onair.run(["guide", "import", broken.path])
        XCTAssertEqual(notXML.status, 3)
        XCTAssertTrue(notXML.stderrText.hasPrefix("onair: \(broken.path): not a valid XMLTV document: XML error by line 1"), notXML.stderrText)
        XCTAssertEqual(notXML.stderrText.split(separator: "\n").count, 1)
        XCTAssertEqual(try onair.run(["guide", "--date", "someday"]).status, 64)
    }

    func testTheDaemonAsksForAGuideURLAgainAndA304CostsNoImport() throws {
        let onair = try OnairBinary()
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let body = guide()
        server.route("/guide.xml") { request, connection in
            if request.headers["If-None-Match"] == "\"g1\"" {
                return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified", headers: [("Connection", "close")])
            }
            try FixtureHTTPServer.file(body, contentType: "application/xml", headers: [("ETag", "\"g1\"")])(request, connection)
        }
        XCTAssertTrue(try onair.run(["guide", "import", server.url("/guide.xml").absoluteString]).succeeded)
        let daemon = try onair.start(["daemon", "--json", "--http", "off", "--guide-refresh", "1s"])
        defer { daemon.stop(grace: 5) }
        let deadline = Date(timeIntervalSinceNow: 20)
        while server.requestCount("/guide.xml") < 3, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        let requests = server.requests("/guide.xml")
        XCTAssertGreaterThanOrEqual(requests.count, 3, daemon.stderrText)
        XCTAssertTrue(requests.dropFirst().allSatisfy { $0.headers["If-None-Match"] == "\"g1\"" }, "every refresh is conditional")
        daemon.stop(grace: 5)
        let events = OnairBinary.events(daemon.result().stdoutText).compactMap { $0["event"] as? String }
        XCTAssertTrue(events.contains("guide-unchanged") && !events.contains("guide-refreshed"), "\(events)")
    }
}
