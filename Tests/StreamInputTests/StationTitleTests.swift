import Foundation
import RadioModel
import StreamInput
import XCTest

/// The length a station announces with a song's title, as iHeart's playout writes it, and lengths no song has.
final class StationTitleTests: XCTestCase {
    private func length(_ text: String) -> Double? {
        StationTitle(raw: #"Artist - text="Song" song_spot="M" length="\#(text)""#).details?.length
    }

    func testAnAnnouncedLengthIsReadAndOneNoSongHasIsNone() throws {
        XCTAssertEqual(length("00:03:27"), 207)
        XCTAssertEqual(length("207"), 207)
        // Such lengths stopped recordings (a journal cannot hold inf) and the daemon (a whole number of 1e300 seconds).
        for odd in ["1e300", "inf", "nan", "-5", "99999999:00:00"] { XCTAssertNil(length(odd), odd) }
        let title = StationTitle(raw: #"Artist - text="Song" song_spot="M" length="inf""#)
        XCTAssertEqual(title.text, "Artist - Song")
        XCTAssertNoThrow(try JSONEncoder().encode(title.details), "what a recording's journal writes")
    }
}
