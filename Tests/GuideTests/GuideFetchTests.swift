import Foundation
import RadioModel
import XCTest
import Store
import TestSupport
@testable import Guide

/// Guides from a URL against a local HTTP server: the second fetch of an unchanged guide is a
/// conditional request answered 304, and the copy imported stays; a changed guide replaces the old.
final class GuideFetchTests: XCTestCase {
    private static func guide(_ start: String) -> Data {
        Data("""
        <tv><channel id="c"><display-name>C</display-name></channel>
        <programme start="20261124190000 +0000" channel="c"><title>News</title></programme>
        <programme start="\(start) +0000" stop="20261124220000 +0000" channel="c"><title>Jazz Hour</title></programme></tv>
        """.utf8)
    }

    private func at(_ time: String) -> Date { ISO8601DateFormatter().date(from: "2026-11-24T\(time):00Z")! }

    func testAnUnchangedGuideIsAskedForConditionallyAndAnsweredWith304() throws {
        let directory = try TemporaryDirectory(prefix: "onair-guide")
        let store = try GuideStore(database: try OnairDatabase(directory: directory.url))
        let version = Locked("v1")
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/guide.xml") { request, connection in
            let current = version.current
            if request.headers["If-None-Match"] == "\"\(current)\"" {
                return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified", headers: [("ETag", "\"\(current)\""), ("Connection", "close")])
            }
            let body = Self.guide(current == "v1" ? "20261124200000" : "20261124210000")
            try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [
                ("Content-Type", "application/xml"), ("Content-Length", "\(body.count)"), ("ETag", "\"\(current)\""),
                ("Last-Modified", "Tue, 24 Nov 2026 04:00:00 GMT"), ("Connection", "close"),
            ])
            try connection.send(body)
        }
        let url = server.url("/guide.xml").absoluteString

        guard case .imported(let first) = try GuideFetch.refresh(url, into: store) else { return XCTFail("the first fetch imports") }
        XCTAssertEqual(first.broadcasts, 2)
        XCTAssertEqual(try GuideFetch.refresh(url, into: store), .notModified)
        let requests = server.requests("/guide.xml")
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests[0].headers["If-None-Match"])
        XCTAssertEqual(requests[1].headers["If-None-Match"], "\"v1\"")
        XCTAssertEqual(requests[1].headers["If-Modified-Since"], "Tue, 24 Nov 2026 04:00:00 GMT")
        let day = DateInterval(start: Date(timeIntervalSince1970: 1_795_478_400), duration: 86_400) // 2026-11-24 UTC
        XCTAssertEqual(try store.broadcasts(channel: "c", overlapping: day).map(\.stop), [at("20:00"), at("22:00")])

        // Changed: the new copy replaces the broadcast, which the guide moved to 21:00.
        version.withLock { $0 = "v2" }
        guard case .imported(let second) = try GuideFetch.refresh(url, into: store) else { return XCTFail("a changed guide is imported") }
        XCTAssertEqual(second.replaced, 2)
        XCTAssertEqual(try store.broadcasts(channel: "c", overlapping: day).map(\.start), [at("19:00"), at("21:00")])
        XCTAssertEqual(try store.source(url: url)?.etag, "\"v2\"")
    }

    func testTheRefresherAsksAgainEachIntervalAndAFailingServerIsOneReport() throws {
        let directory = try TemporaryDirectory(prefix: "onair-guide")
        let store = try GuideStore(database: try OnairDatabase(directory: directory.url))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.route("/guide.xml") { request, connection in
            if request.headers["If-None-Match"] == "\"same\"" {
                return try connection.sendStatus(line: "HTTP/1.0 304 Not Modified", headers: [("Connection", "close")])
            }
            try FixtureHTTPServer.file(Self.guide("20261124200000"), contentType: "application/xml", headers: [("ETag", "\"same\"")])(request, connection)
        }
        server.route("/gone.xml", FixtureHTTPServer.status(404))
        try store.save(GuideSource(url: server.url("/guide.xml").absoluteString))
        try store.save(GuideSource(url: server.url("/gone.xml").absoluteString))
        let outcomes = Locked<[String]>([])
        let refresher = GuideRefresher(store: store, every: 1) { url, outcome in
            let name = URL(string: url)!.lastPathComponent
            switch outcome {
            case .success(.imported): outcomes.withLock { $0.append("\(name) imported") }
            case .success(.notModified): outcomes.withLock { $0.append("\(name) unchanged") }
            case .failure(let error): outcomes.withLock { $0.append("\(name) failed: \(error)") }
            }
        }
        refresher.start()
        let deadline = Date(timeIntervalSinceNow: 15)
        while outcomes.current.filter({ $0.hasPrefix("guide.xml") }).count < 3, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        refresher.stop()
        let guideOutcomes = outcomes.current.filter { $0.hasPrefix("guide.xml") }
        XCTAssertEqual(Array(guideOutcomes.prefix(3)), ["guide.xml imported", "guide.xml unchanged", "guide.xml unchanged"])
        XCTAssertTrue(outcomes.current.contains { $0.hasPrefix("gone.xml failed: ") && $0.hasSuffix("HTTP 404") }, "\(outcomes.current)")
    }
}
