import Foundation
import RadioModel
import XCTest
@testable import StreamInput

/// Media playlist constructs other parsers' tests exercise (Fixtures/hls-quirks): each followed, or
/// refused in one line.
final class HLSMediaQuirkTests: XCTestCase {
    private let url = "https://radio.example/hls/audio.m3u8"

    private func parse(_ text: String) throws -> MediaPlaylist {
        guard case .hlsMedia(let playlist) = try PlaylistParser.parse(Data(text.utf8), url: url) else {
            throw PlaylistError(url: url, line: nil, message: "not read as a media playlist")
        }
        return playlist
    }

    func testPartsRangesDiscontinuitiesGapsAndCuesLeaveTheFullSegmentsInOrder() throws {
        guard case .hlsMedia(let playlist) = try PlaylistParser.parse(try HLSQuirkFixtures.data("media-constructs-a-radio-client-meets.m3u8"),
                                                                      url: url) else { return XCTFail("not a media playlist") }
        let base = "https://radio.example/hls/"
        XCTAssertEqual(playlist.segments.map(\.url), [base + "chunk-a.aac", base + "chunk-a.aac", base + "ad-502.aac",
                                                      base + "ad-503.aac", base + "seg-504.aac"], "parts and hints are not segments")
        XCTAssertEqual(playlist.segments.map(\.sequence), Array(500...504))
        XCTAssertEqual(playlist.segments.map(\.byteRange), [ByteRange(offset: 0, length: 48000), ByteRange(offset: 48000, length: 48000),
                                                            nil, nil, nil])
        XCTAssertEqual(playlist.segments.map(\.discontinuity), [false, false, true, false, true])
        let start = try XCTUnwrap(Timestamp.parse("2026-11-28T05:00:00Z"))
        XCTAssertEqual(playlist.segments.map(\.programDateTime), [start, start.addingTimeInterval(4), nil, nil, nil],
                       "a date is not carried across a discontinuity")
        XCTAssertFalse(playlist.endList)
        XCTAssertEqual(playlist.targetDuration, 4)
    }

    func testADeltaUpdateIsRefusedItsSegmentsWouldBeMisnumbered() {
        let delta = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:500\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3\n#EXTINF:4,\ns503.aac\n"
        XCTAssertThrowsError(try parse(delta)) { error in
            XCTAssertEqual((error as? PlaylistError)?.line, 4)
            XCTAssertTrue("\(error)".contains("EXT-X-SKIP"), "\(error)")
        }
    }

    func testAnIFramePlaylistIsRefusedItHasNoAudio() {
        let iframes = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-I-FRAMES-ONLY\n#EXT-X-BYTERANGE:1000@0\n#EXTINF:4,\nv.ts\n"
        XCTAssertThrowsError(try parse(iframes)) { error in
            XCTAssertTrue("\(error)".contains("EXT-X-I-FRAMES-ONLY"), "\(error)")
        }
    }
}
