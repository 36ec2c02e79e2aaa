import RadioModel
import XCTest

/// Text from outside, as onair prints or writes it: before, a station name's escape sequence reached the
/// terminal (`stations show`) and a control character made a podcast feed ill-formed XML.
final class UntrustedTextTests: XCTestCase {
    func testControlCharactersAndBidiOverridesGoAndLineBreaksBecomeOneSpace() {
        XCTAssertEqual(UntrustedText.printable("Evil \u{1B}[2J\u{1B}]0;owned\u{07}FM"), "Evil [2J]0;ownedFM")
        XCTAssertEqual(UntrustedText.printable("Jazz\r\n\tNight\u{0}"), "Jazz Night")
        XCTAssertEqual(UntrustedText.printable("file\u{202E}3pm.exe"), "file3pm.exe")
        XCTAssertEqual(UntrustedText.printable("Radio \u{85}Nova\u{9B}31m"), "Radio Nova31m", "C1 controls too")
        XCTAssertEqual(UntrustedText.printable("Café 東京 🎷"), "Café 東京 🎷", "everything printable stays")
        XCTAssertEqual(UntrustedText.printable("abcdef", maxLength: 3), "abc…")
    }
}

/// `--json` output: a title's C1 control (U+009B, which a terminal obeys as ESC [) and bidirectional override
/// were printed raw, as JSON escapes only the C0 controls. Escaped, the line is harmless and reads back the same.
final class JSONForTerminalTests: XCTestCase {
    func testC1AndBidiControlsAreEscapedAndTheValueReadsBackExactly() throws {
        let title = "Radio \u{9B}2J Nova \u{202E}evil\u{2028}\u{1B}[5D Café"
        let json = UntrustedText.escapingControls(inJSON: String(decoding: OnairJSON.data(["title": title]), as: UTF8.self))
        XCTAssertFalse(json.unicodeScalars.contains { (0x0...0x1F).contains($0.value) || (0x80...0x9F).contains($0.value)
            || [0x202E, 0x2028].contains($0.value) }, json)
        XCTAssertTrue(json.contains("\\u009B") && json.contains("\\u202E") && json.contains("Café"), json)
        XCTAssertEqual(try OnairJSON.decoder.decode([String: String].self, from: Data(json.utf8)), ["title": title])
    }
}
