import XCTest
@testable import StreamInput

final class ICYMetadataTests: XCTestCase {
    func testApostrophesInsideTitlesDoNotEndTheValue() {
        let metadata = ICYMetadata(block: Array("StreamTitle='Guns N' Roses - Sweet Child O' Mine';StreamUrl='http://x/y';".utf8))
        XCTAssertEqual(metadata.title, "Guns N' Roses - Sweet Child O' Mine")
        XCTAssertEqual(metadata.url, "http://x/y")
    }

    func testNulPaddingAndMissingTerminator() {
        let block = Array("StreamTitle='Last one'".utf8) + [0, 0, 0, 0]
        XCTAssertEqual(ICYMetadata(block: block).title, "Last one")
    }

    func testEmptyTitleAndEmptyURL() {
        let metadata = ICYMetadata(block: Array("StreamTitle='';StreamUrl='';".utf8))
        XCTAssertEqual(metadata.title, "")
        XCTAssertNil(metadata.url)
    }

    func testValidUTF8IsTakenAsItIsEvenWithAStationCharset() {
        let block = Array("StreamTitle='Café del Mar – Ólafur Arnalds';".utf8)
        XCTAssertEqual(ICYMetadata(block: block, charset: "windows-1251").title, "Café del Mar – Ólafur Arnalds")
    }

    func testLatin1IsTheFallbackForInvalidUTF8() {
        // "Café Müller" in ISO-8859-1: é = 0xE9, ü = 0xFC — not valid UTF-8.
        let block = Array("StreamTitle='Caf".utf8) + [0xE9] + Array(" M".utf8) + [0xFC] + Array("ller';".utf8)
        XCTAssertEqual(ICYMetadata(block: block).title, "Café Müller")
    }

    func testStationCharsetDecodesCyrillic() {
        // "Кино" in windows-1251.
        let block = Array("StreamTitle='".utf8) + [0xCA, 0xE8, 0xED, 0xEE] + Array("';".utf8)
        XCTAssertEqual(ICYMetadata(block: block, charset: "windows-1251").title, "Кино")
        XCTAssertEqual(ICYMetadata(block: block).title, "Êèíî", "without a charset, Latin-1")
    }

    func testControlCharactersAreRemoved() {
        let block = Array("StreamTitle='A\u{1B}[31mB\tC';".utf8)
        XCTAssertEqual(ICYMetadata(block: block).title, "A[31mB C", "a tab keeps the words apart")
    }

    /// Failed before: entities were decoded after the bytes were cleaned, so `&#x9B;` became a C1 control
    /// again (CSI, which terminals obey as ESC [), and a bidi override (which reorders what a reader sees)
    /// passed as it came.
    func testAnEscapeOrBidiOverrideSpelledAsAnEntityIsTakenOutAndTheWordsStay() {
        let block = Array("StreamTitle='Nina&#x9B;2J Simone - Feeling&#x202E; Good\u{2066}';".utf8)
        XCTAssertEqual(ICYMetadata(block: block).title, "Nina2J Simone - Feeling Good")
        let pairs = Array(#"StreamTitle='title="Song&#x85;&#155;0m",artist="Art&#x202E;ist"';"#.utf8)
        XCTAssertEqual(ICYMetadata(block: pairs).title, "Artist - Song0m")
    }

    func testGarbageYieldsNoTitleAndNoCrash() {
        for block: [UInt8] in [[], [0, 0], Array("=".utf8), Array("StreamTitle=".utf8), Array("''';;;=='".utf8),
                               (0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 31) }] {
            _ = ICYMetadata(block: block)
        }
        XCTAssertNil(ICYMetadata(block: Array("no equals sign".utf8)).title)
    }

    func testUnknownCharsetFallsBackToLatin1() {
        XCTAssertEqual(TitleText.decode([0x41, 0xE9], charset: "no-such-charset"), "Aé")
    }
}
