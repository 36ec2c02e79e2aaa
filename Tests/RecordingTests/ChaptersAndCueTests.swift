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

    func testAKnownClipIsAChapterAndWhatWasOnBeforeItNamesTheAudioAfterIt() {
        let titles = [TimedTitle(title: "A - One", start: 0), TimedTitle(title: "B - Two", start: 30)]
        let clips = [TimedClip(clip: "Summer sale", kind: "ad", at: 10, seconds: 15, partial: false),
                     // Cut short by the next title: it ends there, and no chapter repeats "B - Two".
                     TimedClip(clip: "Station ID", kind: "id", at: 40, seconds: 8, partial: false),
                     TimedClip(clip: "Tune", kind: "song", at: 55, seconds: 10, partial: true)]
        let gaps = [TimedGap(at: 44, seconds: 1.5)]
        XCTAssertEqual(ChapterList.chapters(titles: titles + [TimedTitle(title: "C - Three", start: 58)], gaps: gaps, clips: clips,
                                            duration: 80, untitled: "FIP"), [
            Chapter(start: 0, end: 10, title: "A - One"),
            Chapter(start: 10, end: 25, title: "[ad] Summer sale"),
            Chapter(start: 25, end: 30, title: "A - One"),
            Chapter(start: 30, end: 40, title: "B - Two"),
            Chapter(start: 40, end: 44, title: "[id] Station ID"),
            Chapter(start: 44, end: 48, title: "[gap 1.5 s] [id] Station ID"),
            Chapter(start: 48, end: 55, title: "B - Two"),
            Chapter(start: 55, end: 58, title: "[song] Tune"),
            Chapter(start: 58, end: 80, title: "C - Three"),
        ])
        // A clip at the very start names the file's beginning; one at the same moment as a title wins over it.
        XCTAssertEqual(ChapterList.chapters(titles: [TimedTitle(title: "A - One", start: 0)], gaps: [],
                                            clips: [TimedClip(clip: "Jingle", kind: "jingle", at: 0, seconds: 9, partial: false)],
                                            duration: 20, untitled: "FIP").map(\.title), ["[jingle] Jingle", "A - One"])
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
