import XCTest
@testable import Outputs

/// The options of `http://` and `icecast://` sinks, and what of them may be shown.
final class RelaySinkSpecTests: XCTestCase {
    func testHTTPOptionsParse() throws {
        guard case .httpServe(let host, let port, let path, let options) =
                try SinkSpec(parsing: "http://[::1]:8080/fip.ogg?format=opus:64&token=s3cret&allow-remote&max-listeners=5&name=FIP")
        else { return XCTFail("not an HTTP relay") }
        XCTAssertEqual([host, "\(port)", path], ["::1", "8080", "/fip.ogg"])
        XCTAssertEqual(options.format, .encode(.opus(kbps: 64)))
        XCTAssertEqual(options.token, "s3cret")
        XCTAssertTrue(options.allowRemote)
        XCTAssertEqual(options.maxListeners, 5)
        XCTAssertEqual(options.name, "FIP")
        XCTAssertEqual(try SinkSpec(parsing: "http://127.0.0.1:8080/a?format=copy"), .httpServe(host: "127.0.0.1", port: 8080, path: "/a"))
    }

    func testBadOptionsAreRefusedWithoutShowingSecrets() {
        let cases = [
            ("http://127.0.0.1:8080/a?format=mp4&token=s3cret", "unknown format 'mp4'"),
            ("http://127.0.0.1:8080/a?token=s3cret&tokn=1", "unknown option 'tokn'"),
            ("http://127.0.0.1:8080/a?max-listeners=0&token=s3cret", "max-listeners"),
            ("icecast://source:s3cret@127.0.0.1:8000/live?format=wav", "WAV"),
            ("icecast://source:s3cret@127.0.0.1:8000/live?bitrate=128", "unknown option 'bitrate'"),
            ("icecast://source@127.0.0.1:8000/live", "password is missing"),
        ]
        for (sink, reason) in cases {
            XCTAssertThrowsError(try SinkSpec(parsing: sink), sink) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)")
                XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
            }
        }
    }

    func testDescriptionsHideTokensAndPasswords() throws {
        let http = try SinkSpec(parsing: "http://0.0.0.0:8080/a?allow-remote&token=s3cret&format=mp3:128")
        XCTAssertEqual(http.description, "http://0.0.0.0:8080/a?format=mp3:128&token=***&allow-remote")
        let icecast = try SinkSpec(parsing: "icecast://source:s3cret@127.0.0.1:8000/live?format=opus")
        XCTAssertEqual(icecast.description, "icecast://source:***@127.0.0.1:8000/live?format=opus")
    }
}
