import Foundation
import XCTest
import Media
import TestSupport

/// Titles and chapter names that come inside the audio (Ogg comments, a file's tags and chapters) are as
/// untrusted as an ICY title. Before, they reached the player's line, the daemon's events and MPRIS as they came.
final class InStreamTitleTests: XCTestCase {
    func testAFilesTitleAndChapterNameLoseTheirEscapeAndBidiOverrideButKeepTheirWords() throws {
        let directory = try TemporaryDirectory(prefix: "onair-in-stream-title")
        let tone = try AudioFixtures.sine(frequency: 440, seconds: 2)
        let chapters = directory.url.appendingPathComponent("chapters.txt")
        try ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Part \u{1B}[2J\u{202E}one\n".write(to: chapters, atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("titled.mka")
        let result = try ProcessRunner.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", tone.path, "-i", chapters.path,
                                                      "-map_metadata", "1", "-map_chapters", "1", "-map", "0:a",
                                                      "-metadata", "title=Evil \u{9B}31m\u{202E}FM \u{1B}]0;owned\u{07}News",
                                                      "-c:a", "libvorbis", output.path])
        XCTAssertTrue(result.succeeded, result.stderrText)

        let file = try MediaFile(path: output.path, format: .snapcastDefault)
        XCTAssertEqual(file.title, "Evil 31mFM ]0;ownedNews")
        XCTAssertEqual(file.chapters.first?.title, "Part [2Jone")
    }
}
