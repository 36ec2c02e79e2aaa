import Foundation
import XCTest
import TestSupport

/// Passwords written into stream and sink URLs (http://user:pass@…, icecast://source:pass@…) are
/// needed to connect, and nowhere else: not in what onair prints, its --json events, the recordings
/// index, the cue sheet, the tags, the journal, nor any other file it keeps.
final class CredentialRedactionTests: XCTestCase {
    func testPasswordsInStreamAndSinkURLsNeverReachOutputJSONTheIndexOrAnyFile() throws {
        let icecast = try IcecastHarness.playing("/secret.mp3", title: "Redaction Test", burstSize: 65535)
        defer { icecast.stop() }
        let onair = try OnairBinary()
        let listenerSecret = "ListenerPw7f3a9"
        let wrongSourceSecret = "WrongSourcePw4417"
        let stream = "http://listener:\(listenerSecret)@127.0.0.1:\(icecast.port)/secret.mp3"
        var printed: [String] = []

        let record = try onair.run(["record", stream, "--duration", "3", "--json"], timeout: 60)
        XCTAssertTrue(record.succeeded, "\(record)")
        printed += [record.stdoutText, record.stderrText]

        let deadPort = try FreePort.pick()
        let dead = try onair.run(["record", "http://listener:\(listenerSecret)@127.0.0.1:\(deadPort)/gone.mp3",
                                  "--duration", "2", "--json"], timeout: 60)
        XCTAssertFalse(dead.succeeded)
        XCTAssertTrue(dead.stderrText.contains("127.0.0.1:\(deadPort)"), "the error names the URL: \(dead.stderrText)")
        printed += [dead.stdoutText, dead.stderrText]

        // The relay pushes to Icecast with the source password; the mount appearing shows it was used.
        let push = try onair.start(["relay", stream, "--to", icecast.sourceURL(mount: "/again.mp3"), "--json"])
        let deadline = Date(timeIntervalSinceNow: 15)
        while try !icecast.mounts().contains(where: { $0.mount == "/again.mp3" }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertTrue(try icecast.mounts().contains { $0.mount == "/again.mp3" }, "onair's push reached Icecast")
        push.stop(grace: 5)
        printed += [String(decoding: push.stdout, as: UTF8.self), push.stderrText]

        let refused = try onair.run(["relay", stream, "--to", "icecast://source:\(wrongSourceSecret)@127.0.0.1:\(icecast.port)/x.mp3",
                                     "--json"], timeout: 60)
        XCTAssertFalse(refused.succeeded, "a wrong source password fails the sink")
        XCTAssertFalse(refused.timedOut, "the relay ends when its only sink is refused")
        printed += [refused.stdoutText, refused.stderrText]

        // Mistyped URLs (a broken IPv6 host) are refused in one line that still hides the password.
        let brokenSink = try onair.run(["relay", stream, "--to", "icecast://source:\(wrongSourceSecret)@[::1/x.mp3"], timeout: 30)
        let brokenStream = try onair.run(["record", "http://listener:\(listenerSecret)@[::1/x.mp3", "--duration", "2"], timeout: 30)
        for broken in [brokenSink, brokenStream] {
            XCTAssertFalse(broken.succeeded)
            XCTAssertTrue(broken.stderrText.contains(":***@[::1"), broken.stderrText)
            printed += [broken.stdoutText, broken.stderrText]
        }

        let list = try onair.run(["recordings", "list", "--json"]).check()
        XCTAssertTrue(list.stdoutText.contains("secret.mp3"), "the recording is indexed with its (redacted) source: \(list.stdoutText)")
        printed += [list.stdoutText, try onair.run(["recordings", "show", "1"]).check().stdoutText]

        let secrets = [listenerSecret, icecast.sourcePassword, wrongSourceSecret]
        for (index, text) in printed.enumerated() {
            for secret in secrets { XCTAssertFalse(text.contains(secret), "output \(index) shows a password:\n\(text)") }
        }
        // Every file onair keeps: the SQLite index (and its WAL), recordings, cue sheets, journals, config.
        var filesRead = 0
        let files = FileManager.default.enumerator(at: onair.home.url, includingPropertiesForKeys: nil)!
        for case let file as URL in files {
            guard let bytes = try? Data(contentsOf: file) else { continue }
            filesRead += 1
            for secret in secrets { XCTAssertNil(bytes.range(of: Data(secret.utf8)), "\(file.path) holds a password") }
        }
        XCTAssertGreaterThanOrEqual(filesRead, 3, "the index, the recording and its cue sheet were searched")
    }
}
