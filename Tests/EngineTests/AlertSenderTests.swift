import Foundation
import Monitoring
import RadioModel
import StreamInput
import TestSupport
import XCTest

/// --alert-exec: a real shell command gets the alert in its environment and as JSON on its stdin;
/// one that fails is one line.
final class AlertSenderTests: XCTestCase {
    func testTheCommandGetsTheAlertInItsEnvironmentAndOnItsStdin() throws {
        let directory = try TemporaryDirectory(prefix: "onair-alert-exec")
        defer { directory.remove() }
        let output = directory.file("alert.txt")
        let sender = AlertSender(webhook: nil, command: "echo \"$ONAIR_ALERT $ONAIR_ALERT_STATION $ONAIR_ALERT_SECONDS\" > '\(output.path)'; cat >> '\(output.path)'") {
            _, message in XCTFail(message)
        }
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        sender.send(station: "fip", .alert(SignalAlert(kind: .deadAir, since: since, seconds: 30, level: -50)))
        XCTAssertTrue(eventually(timeout: 10) { ((try? String(contentsOf: output, encoding: .utf8)) ?? "").hasSuffix("}\n") })
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.first, "dead-air fip 30.0")
        let notice = try OnairJSON.decoder.decode(AlertSender.Notice.self, from: Data(try XCTUnwrap(lines.last).utf8))
        XCTAssertEqual(notice.event, "dead-air")
        XCTAssertEqual(notice.station, "fip")
        XCTAssertEqual(notice.since, since)
        XCTAssertEqual(notice.level, -50)
    }

    func testACommandThatFailsIsOneLine() throws {
        let reported = Locked<[String]>([])
        let sender = AlertSender(webhook: nil, command: "exit 3") { station, message in reported.withLock { $0.append("\(station): \(message)") } }
        sender.send(station: "fip", .recovered(SignalAlert(kind: .down, since: Date(), seconds: 12)))
        sender.send(station: "fip", .gap(Gap(start: Date(), seconds: 1)))
        XCTAssertTrue(eventually(timeout: 10) { !reported.current.isEmpty })
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(reported.current, ["fip: alert command exited with status 3"], "only alerts and recoveries run the command")
    }
}
