import XCTest
@testable import Outputs
import StreamInput

final class SinkSpecTests: XCTestCase {
    func testEveryDocumentedFormParses() throws {
        XCTAssertEqual(try SinkSpec(parsing: "speaker"), .speaker)
        XCTAssertEqual(try SinkSpec(parsing: "stdout"), .stdout)
        XCTAssertEqual(try SinkSpec(parsing: "pulse"), .pulse(server: nil, sink: nil))
        XCTAssertEqual(try SinkSpec(parsing: "pulse:livingroom.local/alsa_output.usb"),
                       .pulse(server: "livingroom.local", sink: "alsa_output.usb"))
        XCTAssertEqual(try SinkSpec(parsing: "pulse:/alsa_output.usb"), .pulse(server: nil, sink: "alsa_output.usb"))
        XCTAssertEqual(try SinkSpec(parsing: "pulse:tcp:10.0.0.5:4713/null"), .pulse(server: "tcp:10.0.0.5:4713", sink: "null"))
        XCTAssertEqual(try SinkSpec(parsing: "pulse:unix:/run/user/1000/pulse/native"),
                       .pulse(server: "unix:/run/user/1000/pulse/native", sink: nil))
        XCTAssertEqual(try SinkSpec(parsing: "alsa"), .alsa(device: nil))
        XCTAssertEqual(try SinkSpec(parsing: "alsa:hw:1,0"), .alsa(device: "hw:1,0"))
        XCTAssertEqual(try SinkSpec(parsing: "wav:/tmp/a:b.wav"), .wav(path: "/tmp/a:b.wav"))
        XCTAssertEqual(try SinkSpec(parsing: "fifo:/tmp/snapfifo"), .fifo(path: "/tmp/snapfifo"))
        XCTAssertEqual(try SinkSpec(parsing: "tcp:127.0.0.1:4953"), .tcp(host: "127.0.0.1", port: 4953))
        XCTAssertEqual(try SinkSpec(parsing: "tcp:[::1]:4953"), .tcp(host: "::1", port: 4953))
        XCTAssertEqual(try SinkSpec(parsing: "http://127.0.0.1:8080/radio"), .httpServe(host: "127.0.0.1", port: 8080, path: "/radio"))
        XCTAssertEqual(try SinkSpec(parsing: "icecast://source:pw@127.0.0.1:8000/live"), .icecast(url: "icecast://source:pw@127.0.0.1:8000/live"))
    }

    func testBadSinksAreRefusedWithTheReason() {
        for bad in ["", "wav:", "tcp:host", "tcp:host:99999", "http://nohost", "icecast://h:1/", "speaker:x", "mp3:/x", "stdout:x"] {
            XCTAssertThrowsError(try SinkSpec(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".hasPrefix("invalid sink '\(bad)'"), "\(error)")
            }
        }
    }

    func testPasswordsNeverShowInDescriptions() throws {
        let spec = try SinkSpec(parsing: "icecast://source:hunter2@127.0.0.1:8000/live")
        XCTAssertFalse(spec.description.contains("hunter2"))
        XCTAssertTrue(spec.description.contains("127.0.0.1:8000/live"))
    }
}

/// Found by `scripts/fuzz sink-spec`: a sink URL too broken for URLComponents was quoted whole in its
/// error message, password included.
final class SinkSpecRedactionTests: XCTestCase {
    func testABrokenIcecastURLsErrorHidesItsPassword() {
        for text in ["icecast://source:secret@[::1/m", "icecast://source:secret@host:port/m", "icecast://source:secret@[::1"] {
            XCTAssertThrowsError(try SinkSpec(parsing: text), text) { error in
                XCTAssertFalse("\(error)".contains("secret"), "\(error)")
                XCTAssertTrue("\(error)".contains("icecast://source:***@"), "\(error)")
            }
        }
        XCTAssertThrowsError(try SinkSpec(parsing: "http://[::1:8080/radio?allow-remote&token=s3cret")) { error in
            XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
        }
    }

    func testAPasswordWrittenAlsoInTheMountIsMaskedWhereItIsAPassword() throws {
        // The fuzzer's first finding was its own oracle's: the mount path may hold any text, even the password's.
        let spec = try SinkSpec(parsing: "icecast://source:secret@127.0.0.1:8000/fcast://source:secret@127.0.0.1:8000ip.mp3")
        XCTAssertTrue(spec.description.hasPrefix("icecast://source:***@127.0.0.1:8000/"), spec.description)
        // Likewise in an error quoting the sink: its user information is masked, the rest is quoted as written.
        XCTAssertThrowsError(try SinkSpec(parsing: "icecast://sc:0y@.1:80/p?formt://sc:0://sc:0y@.1:80/p?formt://sct")) { error in
            XCTAssertTrue("\(error)".hasPrefix("invalid sink 'icecast://sc:***@.1:80/p?"), "\(error)")
        }
    }

    /// Found by CI's `scripts/fuzz all 20` on fe264b2: `%ca` decodes to no UTF-8, so URLComponents called the
    /// password missing and the error quoted the sink whole. Kept as Fuzz/Corpus/sink-spec/finding-undecodable-percent-escape-in-password.
    func testAPasswordURLComponentsCannotDecodeIsHiddenAsWell() throws {
        for (text, password) in [("icecast://s:2&foc%castUIny@.1:80/p?\0\0\0", "2&foc%castUIny"),
                                 ("icecast://source:pa%ca%fess@127.0.0.1:8000/live", "pa%ca%fess")] {
            let shown: String
            do { shown = try SinkSpec(parsing: text).description } catch { shown = "\(error)" }
            XCTAssertFalse(shown.contains(password), shown)
            XCTAssertTrue(shown.contains(":***@"), shown)
        }
        XCTAssertEqual(URLRedaction.redact("http://u:%ca%fe@radio.example/live"), "http://u:***@radio.example/live")
    }
}
