import RadioModel
import XCTest

final class SecretsTests: XCTestCase {
    func testOnlyTheWholeSecretMatches() {
        XCTAssertTrue(Secrets.equal("5f2c9a", "5f2c9a"))
        XCTAssertTrue(Secrets.equal("", ""))
        XCTAssertFalse(Secrets.equal("5f2c9b", "5f2c9a"), "the last byte differs")
        XCTAssertFalse(Secrets.equal("5f2c9", "5f2c9a"), "a prefix of the secret")
        XCTAssertFalse(Secrets.equal("5f2c9a0", "5f2c9a"), "the secret and a byte more")
        XCTAssertFalse(Secrets.equal("", "5f2c9a"))
        XCTAssertFalse(Secrets.equal("5f2c9a\u{0}", "5f2c9a"), "a NUL after the secret is another secret")
        // 256 bytes apart in length: a difference a byte-wide length check would wrap to nothing.
        XCTAssertFalse(Secrets.equal(String(repeating: "a", count: 256), ""))
    }
}
