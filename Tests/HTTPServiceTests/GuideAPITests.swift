import Foundation
import TestSupport
import XCTest

/// `/api/v1/guide` against a real daemon: an XMLTV guide served by a local web server is imported
/// through the API (the second import is a 304 at the server), its channel is mapped to the catalogue
/// station, the day's listing shows the programme, and rules by title and by series take the guide's broadcast.
final class GuideAPITests: XCTestCase {
    private var harness: APIHarness!
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        harness = try APIHarness()
        server = try FixtureHTTPServer()
    }

    override func tearDown() {
        server?.stop()
        harness?.stop()
    }

    /// "20261124190000 +0000"
    private static func xmltvTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss Z"
        return formatter.string(from: date)
    }

    func testAnImportedGuideListsTheStationsProgrammesAndRulesByTitleOrSeriesTakeTheGuidesTime() throws {
        // On air now: the news; in two hours: the jazz programme, with its episode number and description.
        let now = Date()
        let newsStart = now.addingTimeInterval(-1800), jazzStart = now.addingTimeInterval(7200)
        let guide = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <tv><channel id="tone.test"><display-name>Tone FM</display-name></channel>
        <programme start="\(Self.xmltvTime(newsStart))" stop="\(Self.xmltvTime(newsStart.addingTimeInterval(3600)))" channel="tone.test"><title>News</title></programme>
        <programme start="\(Self.xmltvTime(jazzStart))" stop="\(Self.xmltvTime(jazzStart.addingTimeInterval(3600)))" channel="tone.test">
          <title>Jazz Hour</title><desc>Tones in blue.</desc><episode-num system="onscreen">S2E5</episode-num>
          <episode-num system="dd_progid">EP0123.0005</episode-num></programme>
        </tv>
        """.utf8)
        server.route("/guide.xml") { request, connection in
            if request.headers["If-None-Match"] == "\"g1\"" {
                return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified", headers: [("Connection", "close")])
            }
            try FixtureHTTPServer.file(guide, contentType: "application/xml", headers: [("ETag", "\"g1\"")])(request, connection)
        }
        let url = server.url("/guide.xml").absoluteString

        let imported = try harness.request("POST", "/api/v1/guide/import", json: ["url": url])
        XCTAssertEqual(imported.status, 200, imported.text)
        XCTAssertEqual(imported.json["notModified"] as? Bool, false)
        XCTAssertEqual((imported.json["imported"] as? [String: Any])?["broadcasts"] as? Int, 2)
        let again = try harness.request("POST", "/api/v1/guide/import", json: ["url": url])
        XCTAssertEqual(again.json["notModified"] as? Bool, true, again.text)
        XCTAssertEqual(server.requests("/guide.xml").map { $0.headers["If-None-Match"] }, [nil, "\"g1\""], "the second import was a 304")
        XCTAssertEqual((try harness.get("/api/v1/guide/sources").json["sources"] as? [[String: Any]])?.compactMap { $0["url"] as? String }, [url])

        // The guide's channel is not the catalogue's station until it is mapped.
        let unmapped = try harness.get("/api/v1/guide?station=tone")
        XCTAssertEqual(unmapped.status, 404, unmapped.text)
        XCTAssertTrue((unmapped.json["error"] as? String ?? "").hasPrefix("no imported guide lists tone"), unmapped.text)
        let channels = try harness.get("/api/v1/guide/channels").json["channels"] as? [[String: Any]]
        XCTAssertEqual(channels?.compactMap { $0["id"] as? String }, ["tone.test"])
        XCTAssertNil(channels?.first?["station"] as? String)
        let mapped = try harness.request("PUT", "/api/v1/guide/channels/tone.test", json: ["station": "tone"])
        XCTAssertEqual(mapped.status, 200, mapped.text)
        XCTAssertEqual(mapped.json["stationName"] as? String, "Tone FM")
        XCTAssertEqual(try harness.request("PUT", "/api/v1/guide/channels/elsewhere", json: ["station": "tone"]).status, 404)
        XCTAssertEqual(try harness.request("PUT", "/api/v1/guide/channels/tone.test", json: ["station": "nowhere"]).status, 422)

        // The day of the jazz programme lists it with the guide's details; the news is on air now.
        let day = ISO8601DateFormatter.string(from: jazzStart, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let listing = try harness.get("/api/v1/guide?station=tone&date=\(day)")
        XCTAssertEqual(listing.status, 200, listing.text)
        XCTAssertEqual(listing.json["date"] as? String, day)
        let entries = try XCTUnwrap(listing.json["entries"] as? [[String: Any]])
        let jazz = try XCTUnwrap(entries.first { $0["title"] as? String == "Jazz Hour" }, listing.text)
        XCTAssertEqual(jazz["episode"] as? String, "S2E5")
        XCTAssertEqual(jazz["description"] as? String, "Tones in blue.")
        XCTAssertEqual(jazz["station"] as? String, "tone")
        let today = ISO8601DateFormatter.string(from: now, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let onAir = (try harness.get("/api/v1/guide?station=tone&date=\(today)").json["entries"] as? [[String: Any]])?
            .filter { $0["onAir"] as? Bool == true }.compactMap { $0["title"] as? String }
        XCTAssertEqual(onAir, ["News"])

        // Rules by title and by series: their next episode is the guide's broadcast.
        let rule = try harness.request("POST", "/api/v1/schedule/rules", json: ["station": "tone", "title": "jazz"])
        XCTAssertEqual(rule.status, 201, rule.text)
        let instant = ISO8601DateFormatter()
        instant.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let next = try XCTUnwrap((rule.json["next"] as? String).flatMap { instant.date(from: $0) }, rule.text)
        XCTAssertEqual(next.timeIntervalSince1970, jazzStart.timeIntervalSince1970.rounded(.down), accuracy: 1)
        let series = try harness.request("POST", "/api/v1/schedule/rules", json: ["station": "tone", "series": "EP0123"])
        XCTAssertEqual(series.status, 201, series.text)
        XCTAssertEqual(series.json["next"] as? String, rule.json["next"] as? String, "a rule by series: the same broadcast")
        XCTAssertEqual(try harness.request("POST", "/api/v1/schedule/rules", json: ["station": "tone", "title": "("]).status, 422,
                       "a title pattern that is not a regular expression")

        // Bad input: a 4xx saying why, never a 500.
        XCTAssertEqual(try harness.get("/api/v1/guide?station=tone&date=someday").status, 400)
        XCTAssertEqual(try harness.get("/api/v1/guide?station=nowhere").status, 404)
        XCTAssertEqual(try harness.request("POST", "/api/v1/guide/import", json: ["url": "file:///etc/passwd"]).status, 422)
        server.route("/not-a-guide.xml", FixtureHTTPServer.file(Data("<html></html>".utf8), contentType: "text/html"))
        let notXMLTV = try harness.request("POST", "/api/v1/guide/import", json: ["url": server.url("/not-a-guide.xml").absoluteString])
        XCTAssertEqual(notXMLTV.status, 422, notXMLTV.text)
        XCTAssertEqual(try harness.request("POST", "/api/v1/guide/import", json: ["address": url]).status, 400)
    }
}
