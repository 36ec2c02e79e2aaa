import RadioModel
import XCTest

final class TextDecodingTests: XCTestCase {
    func testTrimmingTakesWhiteSpaceOffBothEndsOnly() {
        XCTAssertEqual(" \t#EXTINF:2.0, \r\n".trimmingWhitespace(), "#EXTINF:2.0,")
        XCTAssertEqual("\u{00A0}Radio  Eins\u{2003}".trimmingWhitespace(), "Radio  Eins", "no-break and em spaces count, inner spaces stay")
        XCTAssertEqual("a".trimmingWhitespace(), "a")
        XCTAssertEqual(" \t ".trimmingWhitespace(), "")
        XCTAssertEqual("".trimmingWhitespace(), "")
        let line = "icy-name:  Café del Mar  "[...]
        XCTAssertEqual(line.dropFirst(9).trimmingWhitespace(), "Café del Mar")
    }

    func testBytesAreUTF8WhenValidAndLatin1Otherwise() {
        XCTAssertEqual(String(utf8OrLatin1: Array("Français".utf8)), "Français")
        XCTAssertEqual(String(utf8OrLatin1: [0x46, 0x72, 0x61, 0x6E, 0xE7, 0x61, 0x69, 0x73] as [UInt8]), "Français", "ç as one Latin-1 byte")
        XCTAssertEqual(String(latin1: [0x41, 0xFF, 0x80] as [UInt8]).unicodeScalars.map(\.value), [0x41, 0xFF, 0x80])
    }
}
