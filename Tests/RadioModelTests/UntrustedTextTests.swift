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
