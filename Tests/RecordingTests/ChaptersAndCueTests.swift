import Foundation
import XCTest
import Media
@testable import Recording

final class ChaptersAndCueTests: XCTestCase {
    func testTitlesBecomeChaptersAndTheFirstOneStartsTheFile() {
        let chapters = ChapterList.chapters(titles: [TimedTitle(title: "A - One", start: 1.2), TimedTitle(title: "B - Two", start: 61.5)],
                                            gaps: [], duration: 120, untitled: "FIP")
        XCTAssertEqual(chapters, [Chapter(start: 0, end: 61.5, title: "A - One"), Chapter(start: 61.5, end: 120, title: "B - Two")])
    }

    func testAGapOpensAChapterAndMergesWithATitleAtTheSameMoment() {
        let titles = [TimedTitle(title: "One", start: 0), TimedTitle(title: "Two", start: 50.01)]
        let gaps = [TimedGap(at: 30, seconds: 12.34), TimedGap(at: 50, seconds: 2)]
        XCTAssertEqual(ChapterList.chapters(titles: titles, gaps: gaps, duration: 80, untitled: "FIP"), [
            Chapter(start: 0, end: 30, title: "One"),
            Chapter(start: 30, end: 50, title: "[gap 12.3 s] One"),
            Chapter(start: 50, end: 80, title: "[gap 2.0 s] Two"),
        ])
    }

    func testGapsWithoutTitlesStillGetChaptersFromTheStart() {
        XCTAssertEqual(ChapterList.chapters(titles: [], gaps: [TimedGap(at: 10, seconds: 3)], duration: 20, untitled: "FIP"), [
            Chapter(start: 0, end: 10, title: "FIP"), Chapter(start: 10, end: 20, title: "[gap 3.0 s] FIP"),
        ])
        XCTAssertEqual(ChapterList.chapters(titles: [], gaps: [], duration: 20, untitled: "FIP"), [])
    }

    func testMarksAtOrAfterTheEndAreLeftOut() {
        let chapters = ChapterList.chapters(titles: [TimedTitle(title: "One", start: 0), TimedTitle(title: "Late", start: 19.99)],
                                            gaps: [], duration: 20, untitled: "FIP")
        XCTAssertEqual(chapters.map(\.title), ["One"])
    }

    func testTheCueSheetIsTimedInFramesAndSplitsArtistAndTitle() {
        let text = CueSheet.text(fileName: "2026-11-22 07-00.mp3", container: "mp3", performer: "FIP", title: "FIP 2026-11-22 07:00",
                                 date: "2026-11-22", chapters: [Chapter(start: 0, end: 61.5, title: "Nina Simone - \"Feeling\" Good"),
                                                                Chapter(start: 3725.52, end: 4000, title: "Jingle")])
        XCTAssertEqual(text, """
            REM DATE 2026-11-22
            REM COMMENT "onair"
            PERFORMER "FIP"
            TITLE "FIP 2026-11-22 07:00"
            FILE "2026-11-22 07-00.mp3" MP3
              TRACK 01 AUDIO
                TITLE "'Feeling' Good"
                PERFORMER "Nina Simone"
                INDEX 01 00:00:00
              TRACK 02 AUDIO
                TITLE "Jingle"
                INDEX 01 62:05:39

            """)
        XCTAssertTrue(CueSheet.text(fileName: "a.m4a", container: "m4a", performer: "", title: "", date: "", chapters: [])
                        .contains("FILE \"a.m4a\" WAVE"))
    }

    func testGapsAreSummedUpInTheTags() {
        XCTAssertEqual(RecordingTags.gapSummary([TimedGap(at: 723, seconds: 10), TimedGap(at: 2700, seconds: 2.5)]),
                       "2 gaps, 12.5 s missing: at 0:12:03 (10.0 s), at 0:45:00 (2.5 s)")
    }
}
