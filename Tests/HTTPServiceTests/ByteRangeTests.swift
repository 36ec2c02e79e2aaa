import HTTPService
import XCTest

/// `Range: bytes=…` as podcast apps and browsers send it, against a 1000-byte file.
final class ByteRangeTests: XCTestCase {
    func testTheFormsPlayersSendAreAnswered() {
        XCTAssertEqual(ByteRange.parse("bytes=0-99", size: 1000), .part(0...99))
        XCTAssertEqual(ByteRange.parse("bytes=500-", size: 1000), .part(500...999), "from an offset to the end (a resume)")
        XCTAssertEqual(ByteRange.parse("bytes=-100", size: 1000), .part(900...999), "the last 100 bytes (a seek to the end)")
        XCTAssertEqual(ByteRange.parse("bytes=900-5000", size: 1000), .part(900...999), "an end beyond the file stops at it")
        XCTAssertEqual(ByteRange.parse("bytes=-5000", size: 1000), .part(0...999))
        XCTAssertEqual(ByteRange.parse(" bytes=0-0 ", size: 1000), .part(0...0))
    }

    func testARangeBeyondTheEndIsUnsatisfiable() {
        XCTAssertEqual(ByteRange.parse("bytes=1000-", size: 1000), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=1000-1999", size: 1000), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=-0", size: 1000), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=0-", size: 0), .unsatisfiable, "an empty file has no byte 0")
    }

    func testWhatIsNotOneByteRangeGetsTheWholeFile() {
        for header in ["bytes=0-99,200-299", "items=0-9", "bytes=abc", "bytes=5-3", "bytes=-", "bytes=0x10-", "bytes=1-+2", ""] {
            XCTAssertEqual(ByteRange.parse(header, size: 1000), .whole, header)
        }
        XCTAssertEqual(ByteRange.parse("bytes=99999999999999999999999-", size: 1000), .unsatisfiable, "a number too large for Int is beyond the end")
    }
}
