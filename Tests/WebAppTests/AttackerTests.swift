import Daemon
import Engine
import Foundation
import HTTPService
import HTTPServing
import Outputs
import RadioModel
import TestSupport
import XCTest

/// The daemon as a stranger meets it, on a real socket, with no password set (as the README starts it):
/// a page of another site the owner visits, a DNS-rebinding page, an API client naming the box's files and
/// sockets. Each test failed on fe264b2, where every one of these requests was obeyed.
final class AttackerTests: XCTestCase {
    private var harness: WebAppHarness!
    private var server: ServingTask!
    private var port = 0

    override func setUpWithError() throws {
        // The login throttle's clock stands still: failures count at whatever pace bcrypt allows here.
        harness = try WebAppHarness(stations: [TestStations.station(id: "demo", name: "Demo FM", url: "http://127.0.0.1:9/demo.mp3")],
                                    loginClock: { Date(timeIntervalSince1970: 2_000_000_000) })
        (server, port) = try harness.serve(site: SitePolicy(allowHosts: ["radio.lan"]))
    }

    override func tearDown() {
        server?.stop()
        harness?.stop()
    }

    /// One request as written; `Connection: close`, so the answer ends with the connection.
    private func send(_ method: String, _ path: String, host: String? = nil, headers: [String] = [], body: String = "") throws -> (status: Int?, text: String) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || method != "GET" { head += "Content-Length: \(body.utf8.count)\r\n" }
        return try RawHTTP.exchange(head + "\r\n" + body, port: port)
    }

    func testARequestNamingAnotherHostIsMisdirectedSoARebindingPageReadsNothing() throws {
        let rebound = try send("GET", "/api/v1/jobs", host: "evil.example:\(port)")
        XCTAssertEqual(rebound.status, 421, rebound.text)
        XCTAssertFalse(rebound.text.contains("\"jobs\""), "nothing of the daemon's is in the answer")
        XCTAssertEqual(try send("GET", "/stations", host: "attacker.localhost.evil.example").status, 421)
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "192.168.1.20:\(port)", "radio.lan", "Radio.LAN.:\(port)"] {
            XCTAssertEqual(try send("GET", "/api/v1/jobs", host: host).status, 200, host)
        }
    }

    func testACrossSiteTextPlainJSONPostChangesNothing() throws {
        let rule = #"{"station":"demo","on":"2030-01-01T10:00","duration":"30m"}"#
        let crossSite = try send("POST", "/api/v1/schedule/rules", headers: ["Content-Type: text/plain", "Origin: https://evil.example",
                                                                            "Sec-Fetch-Site: cross-site"], body: rule)
        XCTAssertEqual(crossSite.status, 403, crossSite.text)
        let notJSON = try send("POST", "/api/v1/schedule/rules", headers: ["Content-Type: text/plain"], body: rule)
        XCTAssertEqual(notJSON.status, 415, notJSON.text)
        XCTAssertEqual(try send("POST", "/api/v1/podcasts", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                body: "url=http://127.0.0.1:9/feed.xml").status, 415)
        XCTAssertEqual(try harness.daemon.schedule.rules().count, 0, "no rule was added")
        let nullOrigin = try send("POST", "/api/v1/schedule/rules", headers: ["Content-Type: application/json", "Origin: null"], body: rule)
        XCTAssertEqual(nullOrigin.status, 403, "a sandboxed frame is no page of this site")

        let sameSite = try send("POST", "/api/v1/schedule/rules", headers: ["Content-Type: application/json", "Origin: http://127.0.0.1:\(port)",
                                                                           "Sec-Fetch-Site: same-origin"], body: rule)
        XCTAssertEqual(sameSite.status, 201, "the daemon's own page still may: \(sameSite.text)")
    }

    func testACrossSiteOrTokenlessFormDeletesNoRecording() throws {
        let recording = try harness.indexRecording(copying: AudioFixtures.sine(frequency: 440, seconds: 2), named: "kept.mp3",
                                                   titles: [], duration: 2)
        let id = try XCTUnwrap(recording.id)
        let form = ["Content-Type: application/x-www-form-urlencoded"]
        let crossSite = try send("POST", "/recordings/\(id)/delete", headers: form + ["Origin: https://evil.example", "Sec-Fetch-Site: cross-site"],
                                 body: "csrf=\(WebForm.token)")
        XCTAssertEqual(crossSite.status, 403, crossSite.text)
        let tokenless = try send("POST", "/recordings/\(id)/delete", headers: form + ["Origin: http://127.0.0.1:\(port)"], body: "x=1")
        XCTAssertEqual(tokenless.status, 403, tokenless.text)
        let stopJob = try send("POST", "/stations/demo/jobs", headers: form, body: "kind=record")
        XCTAssertEqual(stopJob.status, 403, "a form without the pages' token starts nothing")
        XCTAssertTrue(harness.daemon.jobs.list().isEmpty)
        XCTAssertNotNil(try harness.daemon.recordings.recording(id: id), "still indexed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: recording.file), "still on disk")

        let page = try send("GET", "/recordings/\(id)")
        XCTAssertTrue(page.text.contains(#"name="csrf" value="\#(WebForm.token)""#), "the daemon's own page carries the token")
        let fromThePage = try send("POST", "/recordings/\(id)/delete", headers: form + ["Origin: http://127.0.0.1:\(port)"],
                                   body: "csrf=\(WebForm.token)")
        XCTAssertEqual(fromThePage.status, 303, fromThePage.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: recording.file))
    }

    func testTheNetworkNamesNoFileDeviceOrSocketOfTheBox() throws {
        let json = ["Content-Type: application/json"]
        let written = harness.home.file("authorized_keys").path
        for sink in ["wav:\(written)", "fifo:\(written)", "tcp:127.0.0.1:22", "stdout", "pulse", "alsa:hw:0", "speaker",
                     "icecast://source:hackme@127.0.0.1:8000/x", "http://0.0.0.0:8099/open?allow-remote"] {
            let asked = try send("POST", "/api/v1/jobs", headers: json, body: #"{"kind":"relay","station":"demo","to":["\#(sink)"]}"#)
            XCTAssertEqual(asked.status, 422, "\(sink): \(asked.text)")
            XCTAssertTrue(asked.text.contains("is not a sink declared on this box"), asked.text)
            XCTAssertFalse(asked.text.contains("hackme"), "a refusal never quotes a password")
        }
        for output in ["/tmp/onair-attack/{station}.{ext}", "../../{station}.{ext}", "a/../../b/{station}.{ext}", "~/{station}.{ext}"] {
            let job = try send("POST", "/api/v1/jobs", headers: json, body: #"{"kind":"record","station":"demo","output":"\#(output)"}"#)
            XCTAssertEqual(job.status, 422, "\(output): \(job.text)")
            let rule = try send("POST", "/api/v1/schedule/rules", headers: json,
                                body: #"{"station":"demo","on":"2030-01-01T10:00","duration":"30m","output":"\#(output)"}"#)
            XCTAssertEqual(rule.status, 422, "\(output): \(rule.text)")
            XCTAssertTrue(rule.text.contains("leaves the recordings folder"), rule.text)
        }
        XCTAssertTrue(harness.daemon.jobs.list().isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: written))

        // A sink the owner declared on the box is named, and relayed to.
        var declared = DeclaredSinks()
        try declared.declare("kitchen", "http://127.0.0.1:\(try FreePort.pick())/kitchen.mp3")
        try declared.save(harness.paths)
        let named = try send("POST", "/api/v1/jobs", headers: json, body: #"{"kind":"relay","station":"demo","to":["kitchen"]}"#)
        XCTAssertEqual(named.status, 201, named.text)
    }

    func testDeletingARecordingNeverRemovesAFileOutsideTheRecordingsFolder() throws {
        let elsewhere = harness.home.url.appendingPathComponent("elsewhere")
        let entry = try harness.indexRecording(copying: AudioFixtures.sine(frequency: 440, seconds: 2), named: "outside.mp3",
                                               titles: [], duration: 2, into: elsewhere)
        let outside = URL(fileURLWithPath: entry.file)
        let deleted = try send("DELETE", "/api/v1/recordings/\(entry.id!)")
        XCTAssertEqual(deleted.status, 409, deleted.text)
        XCTAssertTrue(deleted.text.contains("outside the recordings folder"), deleted.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.path))
    }

    func testAPasswordLongerThanBcryptReadsIsRefusedNotCut() throws {
        XCTAssertThrowsError(try harness.credentials.setPassword(String(repeating: "a", count: 72) + "b")) { error in
            XCTAssertTrue("\(error)".contains("bcrypt reads only 72"), "\(error)")
        }
        XCTAssertNoThrow(try harness.credentials.setPassword(String(repeating: "a", count: 72)))
    }

    func testEventStreamsAreCappedWithAClearRefusal() throws {
        let held = (0..<DaemonEvents.maxSubscribers).compactMap { _ in harness.daemon.events.subscribe() }
        XCTAssertEqual(held.count, DaemonEvents.maxSubscribers)
        let refused = try send("GET", "/api/v1/events")
        XCTAssertEqual(refused.status, 503, refused.text)
        XCTAssertTrue(refused.text.contains("event streams are open"), refused.text)
    }

    /// A login as a reverse proxy on the box forwards it for `client`.
    private func logIn(_ password: String, from client: String) throws -> (status: Int?, text: String) {
        try send("POST", "/login", headers: ["Content-Type: application/x-www-form-urlencoded", "X-Forwarded-For: \(client)"],
                 body: "password=\(password.replacingOccurrences(of: " ", with: "+"))")
    }

    /// The wait a 429 asks for.
    private static func retryAfter(_ answer: (status: Int?, text: String)) -> Int? {
        answer.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }.flatMap { Int($0.dropFirst(12).trimmingCharacters(in: .whitespaces)) }
    }

    func testOneGuesserBehindTheProxyDoesNotLockTheOwnerOut() throws {
        try harness.credentials.setPassword("the owner's password")
        for _ in 1...5 { XCTAssertEqual(try logIn("guess", from: "203.0.113.5").status, 401) }
        XCTAssertEqual(try logIn("guess", from: "203.0.113.5").status, 429, "the guesser is held back")
        let owner = try logIn("the owner's password", from: "198.51.100.7")
        XCTAssertEqual(owner.status, 303, "the owner, behind the same proxy, still logs in: \(owner.text)")
    }

    func testAGuessSpreadOverManyAddressesIsSlowedOverallButNobodyIsLockedOut() throws {
        try harness.credentials.setPassword("the owner's password")
        for attempt in 0..<20 { XCTAssertEqual(try logIn("guess", from: "203.0.113.\(attempt)").status, 401) }
        let slowed = try logIn("guess", from: "203.0.113.200")
        XCTAssertEqual(slowed.status, 429, "the twenty-first wrong password within a minute, from a new address")
        let wait = try XCTUnwrap(Self.retryAfter(slowed), slowed.text)
        XCTAssertTrue((1...3).contains(wait), "a few seconds, not a lockout: Retry-After \(wait)")
    }
}
