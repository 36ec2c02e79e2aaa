import Foundation
import XCTest
import TestSupport

/// A relay whose sinks have all failed for good has nothing left to do: it ends with exit 2 and the
/// reason in one line. While another sink still plays, it goes on.
final class RelaySinkFailureTests: XCTestCase {
    private var icecast: IcecastHarness!
    private var stream = ""
    private var onair: OnairBinary!

    override func setUpWithError() throws {
        icecast = try IcecastHarness.playing("/station.mp3")
        stream = "http://127.0.0.1:\(icecast.port)/station.mp3"
        onair = try OnairBinary()
    }

    override func tearDown() {
        icecast?.stop()
    }

    private var refusedSink: String { "icecast://source:NotThePassword@127.0.0.1:\(icecast.port)/pushed.mp3" }

    func testARelayWhoseOnlySinkIcecastRefusesEndsWithExitTwoAndTheReason() throws {
        // The relay's report still hears the stream's events; it must not keep the run going on its own.
        let relay = try onair.run(["relay", stream, "--to", refusedSink], timeout: 30)
        XCTAssertFalse(relay.timedOut, "the relay went on with no sink left: \(relay)")
        XCTAssertEqual(relay.status, 2, "exit 2: a sink failed. \(relay)")
        let lastLine = relay.stderrText.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(lastLine.hasPrefix("onair: "), lastLine)
        XCTAssertTrue(lastLine.contains("Icecast refused the source credentials"), lastLine)
        XCTAssertFalse(relay.stderrText.contains("NotThePassword"), relay.stderrText)
    }

    func testARelayGoesOnForTheSinkThatStillPlaysWhenAnotherIsRefused() throws {
        let port = try FreePort.pick()
        let relay = try onair.start(["relay", stream, "--to", refusedSink, "--to", "http://127.0.0.1:\(port)/again"])
        defer { relay.stop() }
        XCTAssertTrue(eventually(timeout: 15) { relay.stderrText.contains("Icecast refused the source credentials") },
                      relay.stderrText)
        let listened = try RawHTTP.get(URL(string: "http://127.0.0.1:\(port)/again")!, maxBodyBytes: 16_000)
        XCTAssertEqual(listened.statusCode, 200, "the HTTP mount still plays after the push was refused: \(listened.statusLine)")
        XCTAssertEqual(listened.body.count, 16_000, "a listener gets audio, not just a head")
        XCTAssertTrue(relay.isRunning, relay.stderrText)
    }
}
