import Foundation
import HTTPServing
import XCTest
import Outputs
import TestSupport

/// The HTTP relay's request limits, each exercised exactly at its bound and one step beyond, and
/// paths that try to leave the served mounts by encoding or absolute form. (The ordinary refusals,
/// slowloris and the token live in HTTPRelayTests.)
final class HTTPRelayLimitTests: XCTestCase {
    private var port = 0
    private var station: RelayTestStation!

    override func setUpWithError() throws {
        port = Int(try FreePort.pick())
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 60))
        station = try RelayTestStation(audio: audio, sinks: ["http://127.0.0.1:\(port)/radio"])
    }

    override func tearDown() {
        station?.stop()
    }

    private func status(of request: String) throws -> (status: Int?, text: String) {
        let client = try RelayTestClient(port: port)
        client.send(request)
        let (bytes, _) = client.readToEnd(timeout: 2)
        return (RelayTestClient.status(of: bytes), String(decoding: bytes.prefix(2048), as: UTF8.self))
    }

    /// A request head padded with one filler header to exactly `size` bytes, blank line included.
    private func request(ofSize size: Int) -> String {
        let start = "GET /radio HTTP/1.0\r\nX-Filler: "
        let end = "\r\n\r\n"
        return start + String(repeating: "a", count: size - start.utf8.count - end.utf8.count) + end
    }

    func testAHeadOfExactly8KiBIsServedAndOneByteMoreIsRefused() throws {
        XCTAssertEqual(HTTPRequestHead.maxBytes, 8192)
        XCTAssertEqual(request(ofSize: 8192).utf8.count, 8192)
        XCTAssertEqual(try status(of: request(ofSize: 8192)).status, 200)
        XCTAssertEqual(try status(of: request(ofSize: 8193)).status, 431)
    }

    func testSixtyFourHeadersAreReadAndTheSixtyFifthIsRefused() throws {
        XCTAssertEqual(HTTPRequestHead.maxHeaders, 64)
        func request(headers: Int) -> String {
            "GET /radio HTTP/1.0\r\n" + (0..<headers).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        }
        XCTAssertEqual(try status(of: request(headers: 64)).status, 200)
        XCTAssertEqual(try status(of: request(headers: 65)).status, 431)
    }

    func testEncodedDotsAbsoluteFormAndOddSlashesNeverLeaveTheMounts() throws {
        // Mounts are matched as sent, never decoded or normalised into a file path: none of these is served.
        let notFound = ["/%2e%2e/radio", "/%2E%2E%2Fetc%2Fpasswd", "/radio%2F..%2F..%2Fetc%2Fpasswd", "/./radio",
                        "//radio", "/radio/", "/radio/.", "/%72adio", "/radio%00", "/..%5c..%5cetc%5cpasswd"]
        for path in notFound {
            let reply = try status(of: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            XCTAssertEqual(reply.status, 404, path)
            XCTAssertFalse(reply.text.contains("root:"), path)
        }
        // Absolute-form and authority-form targets are for proxies; the relay is not one.
        for target in ["http://127.0.0.1:\(port)/radio", "file:///etc/passwd", "127.0.0.1:\(port)", "*"] {
            XCTAssertEqual(try status(of: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status, 400, target)
        }
        XCTAssertEqual(try status(of: "CONNECT 127.0.0.1:22 HTTP/1.1\r\n\r\n").status, 400)
        XCTAssertEqual(try status(of: "GET /radio HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status, 200, "the mount itself still plays")
    }

    /// Before: 64 silent connections from anywhere held every accept, so each other client waited in the
    /// kernel's backlog for their 5 s timeout (9-12 s a request beside 200 slowloris clients).
    func testSilentConnectionsFillOnlyTheirOwnAddresssShareAndEveryoneElseIsServedAtOnce() throws {
        let silent = try (0..<200).map { _ in try RelayTestClient(port: port, from: 2) }
        for client in silent.prefix(16) { client.send("GET /radio HTTP/1.1\r\nX-Slow: ") }
        Thread.sleep(forTimeInterval: 0.3)
        // A request whose answer ends (an unknown mount's 404), so the time to it is the server's alone.
        let started = Date()
        let other = try RelayTestClient(port: port)
        other.send("GET /elsewhere HTTP/1.0\r\n\r\n")
        let (reply, closed) = other.readToEnd(timeout: 4)
        XCTAssertTrue(closed)
        XCTAssertEqual(RelayTestClient.status(of: reply), 404, "another address is answered beside them")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "at once, not after the slow ones' 5 s timeout")
        let listener = try RelayTestClient(port: port)
        listener.send("GET /radio HTTP/1.0\r\n\r\n")
        XCTAssertEqual(RelayTestClient.status(of: listener.readToEnd(timeout: 1).bytes), 200, "and the mount plays to it")
        // The slow address's own share: 16 heads being read; the rest are told so at once.
        let refused = silent.dropFirst(16).map { RelayTestClient.status(of: $0.readToEnd(timeout: 1).bytes) }
        XCTAssertEqual(refused.filter { $0 == 429 }.count, 184, "\(refused)")
        for client in silent.prefix(16) { XCTAssertEqual(RelayTestClient.status(of: client.readToEnd(timeout: 6).bytes), 408) }
    }
}
