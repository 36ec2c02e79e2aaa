import XCTest
import StreamInput

final class URLRedactionTests: XCTestCase {
    func testPasswordsAreHiddenInGoodAndBrokenURLs() {
        XCTAssertEqual(URLRedaction.redact("http://user:secret@radio.example:8000/live"), "http://user:***@radio.example:8000/live")
        XCTAssertEqual(URLRedaction.redact("http://radio.example/live"), "http://radio.example/live")
        XCTAssertEqual(URLRedaction.redact("http://user@radio.example/live"), "http://user@radio.example/live")
        // Too broken for URLComponents (found by fuzzing the sink strings, which share this path).
        XCTAssertEqual(URLRedaction.redact("http://user:secret@[::1/live"), "http://user:***@[::1/live")
        XCTAssertEqual(URLRedaction.redact("https://user:p@ss@[bad/x"), "https://user:***@[bad/x")
    }
}
