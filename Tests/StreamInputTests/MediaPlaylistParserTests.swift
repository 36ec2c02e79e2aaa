import Foundation
import XCTest
import RadioModel
@testable import StreamInput

final class MediaPlaylistParserTests: XCTestCase {
    private let url = "https://cdn.example/radio/live/index.m3u8"

    private func parse(_ text: String) throws -> MediaPlaylist {
        guard case .hlsMedia(let playlist) = try PlaylistParser.parse(Data(text.utf8), url: url) else {
            throw PlaylistError(url: url, line: nil, message: "not parsed as a media playlist")
        }
        return playlist
    }

    private func assertError(_ text: String, line: Int?, containing words: String,
                             file: StaticString = #filePath, sourceLine: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: sourceLine) { error in
            let failure = error as? PlaylistError
            XCTAssertEqual(failure?.line, line, "\(error)", file: file, line: sourceLine)
            XCTAssertTrue("\(error)".contains(words), "\(error)", file: file, line: sourceLine)
            XCTAssertFalse("\(error)".contains("\n"), "one line", file: file, line: sourceLine)
        }
    }

    func testEveryTagAnAudioClientNeeds() throws {
        let playlist = try parse("""
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:1000
        #EXT-X-DISCONTINUITY-SEQUENCE:3
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-PROGRAM-DATE-TIME:2026-11-22T06:00:00.000+0000
        #EXTINF:6.4,
        seg1000.m4s
        #EXTINF:6.4,title is ignored
        /abs/seg1001.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-MAP:URI="https://other.example/init2.mp4",BYTERANGE="720@0"
        #EXT-X-PROGRAM-DATE-TIME:2026-11-22T06:00:20.5Z
        #EXTINF:5.0,
        https://other.example/seg1002.m4s
        #EXT-X-SOMETHING-NEW:ignored
        #EXTINF:5.0,
        seg1003.m4s
        #EXT-X-ENDLIST
        """)
        XCTAssertEqual(playlist.targetDuration, 6)
        XCTAssertEqual(playlist.mediaSequence, 1000)
        XCTAssertEqual(playlist.discontinuitySequence, 3)
        XCTAssertTrue(playlist.endList)
        XCTAssertEqual(playlist.endSequence, 1004)
        XCTAssertEqual(playlist.windowDuration, 22.8, accuracy: 1e-9)
        XCTAssertEqual(playlist.segments.map(\.sequence), [1000, 1001, 1002, 1003])
        XCTAssertEqual(playlist.segments.map(\.url), ["https://cdn.example/radio/live/seg1000.m4s", "https://cdn.example/abs/seg1001.m4s",
                                                      "https://other.example/seg1002.m4s", "https://cdn.example/radio/live/seg1003.m4s"])
        XCTAssertEqual(playlist.segments.map(\.discontinuity), [false, false, true, false])
        XCTAssertEqual(playlist.segments[0].initSection, InitSection(url: "https://cdn.example/radio/live/init.mp4"))
        XCTAssertEqual(playlist.segments[2].initSection,
                       InitSection(url: "https://other.example/init2.mp4", byteRange: ByteRange(offset: 0, length: 720)))
        let start = try XCTUnwrap(Timestamp.parse("2026-11-22T06:00:00Z"))
        // Dates carry forward by duration, but not across the discontinuity, which has its own.
        XCTAssertEqual(playlist.segments.map(\.programDateTime),
                       [start, start.addingTimeInterval(6.4), start.addingTimeInterval(20.5), start.addingTimeInterval(25.5)])
        XCTAssertEqual(playlist.segment(sequence: 1002)?.duration, 5)
        XCTAssertNil(playlist.segment(sequence: 999))
        XCTAssertNil(playlist.segment(sequence: 1004))
    }

    func testIVFromTheTagOrFromTheSequenceNumber() throws {
        let playlist = try parse("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:258
        #EXT-X-KEY:METHOD=AES-128,URI="keys/k1"
        #EXTINF:2,
        a.ts
        #EXTINF:2,
        b.ts
        #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k2",IV=0x000102030405060708090A0B0C0D0E0F
        #EXTINF:2,
        c.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k3",IV=0x1f
        #EXTINF:2,
        d.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:2,
        e.ts
        """)
        let encryption = playlist.segments.map(\.encryption)
        XCTAssertEqual(encryption[0]?.keyURL, "https://cdn.example/radio/live/keys/k1")
        // RFC 8216 §5.2: the media sequence number as a big-endian 128-bit integer.
        XCTAssertEqual(encryption[0]?.iv, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
        XCTAssertEqual(encryption[1]?.iv, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3])
        XCTAssertEqual(encryption[2]?.iv, Array(0...15))
        XCTAssertEqual(encryption[2]?.keyURL, "https://keys.example/k2")
        XCTAssertEqual(encryption[3]?.iv, [UInt8](repeating: 0, count: 15) + [0x1F], "short IVs are left-padded")
        XCTAssertNil(encryption[4], "METHOD=NONE ends encryption")
        XCTAssertEqual(SegmentEncryption.sequenceIV(Int(UInt32.max) + 1), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    }

    /// Numbers a follower adds to (a sequence and a segment count, an offset and a length) are refused past 2^53: sums of
    /// larger ones overflowed and stopped the process (a watch job on such a playlist stopped the daemon).
    func testSequenceNumbersAndByteRangesPastTwoToTheFiftyThirdAreRefusedNotOverflowed() throws {
        let huge = "9223372036854775807"
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(huge)\n#EXTINF:1,\na.aac\n#EXTINF:1,\nb.aac\n", line: 3,
                    containing: "EXT-X-MEDIA-SEQUENCE")
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-DISCONTINUITY-SEQUENCE:\(huge)\n#EXTINF:1,\na.aac\n", line: 3,
                    containing: "EXT-X-DISCONTINUITY-SEQUENCE")
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-BYTERANGE:1@\(huge)\n#EXTINF:1,\na.aac\n", line: 3, containing: "EXT-X-BYTERANGE")
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-BYTERANGE:\(huge)@1\n#EXTINF:1,\na.aac\n", line: 3, containing: "EXT-X-BYTERANGE")
        let limit = PlaylistParser.largestNumber
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-BYTERANGE:\(limit)@\(limit)\n#EXTINF:1,\na.aac\n#EXT-X-BYTERANGE:1\n#EXTINF:1,\na.aac\n",
                    line: 8, containing: "past 2^53")
        // At the limit itself, the sums a follower makes stay in range.
        let edge = try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(limit)\n#EXT-X-BYTERANGE:\(limit)@\(limit)\n#EXTINF:1,\na.aac\n")
        XCTAssertEqual(edge.endSequence, limit + 1)
        XCTAssertEqual(edge.segments.first?.byteRange?.httpRange, "bytes=\(limit)-\(2 * limit - 1)")
    }

    func testByteRangesWithAndWithoutOffsets() throws {
        let playlist = try parse("""
        #EXTM3U
        #EXT-X-TARGETDURATION:1
        #EXT-X-BYTERANGE:1000@0
        #EXTINF:1,
        all.aac
        #EXT-X-BYTERANGE:1200
        #EXTINF:1,
        all.aac
        #EXTINF:1,
        #EXT-X-BYTERANGE:800
        all.aac
        #EXT-X-BYTERANGE:500@10
        #EXTINF:1,
        other.aac
        """)
        XCTAssertEqual(playlist.segments.map(\.byteRange), [ByteRange(offset: 0, length: 1000), ByteRange(offset: 1000, length: 1200),
                                                          ByteRange(offset: 2200, length: 800), ByteRange(offset: 10, length: 500)])
        XCTAssertEqual(ByteRange(offset: 2200, length: 800).httpRange, "bytes=2200-2999")
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-BYTERANGE:100\n#EXTINF:1,\na.aac\n", line: 5,
                    containing: "must follow a sub-range of the same resource")
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-BYTERANGE:100@0\n#EXTINF:1,\na.aac\n#EXT-X-BYTERANGE:100\n#EXTINF:1,\nb.aac\n",
                    line: 8, containing: "same resource")
    }

    func testMalformedPlaylistsNameTheLine() {
        let head = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        assertError(head + "#EXTINF:abc,\na.ts\n", line: 3, containing: "#EXTINF duration 'abc'")
        assertError(head + "#EXTINF:4,\n#EXTINF:4,\na.ts\n", line: 4, containing: "follows another #EXTINF")
        assertError(head + "#EXTINF:4,\na.ts\n#EXT-X-MEDIA-SEQUENCE:9\n", line: 5, containing: "before the first segment")
        assertError("#EXTM3U\n#EXT-X-TARGETDURATION:-1\n", line: 2, containing: "EXT-X-TARGETDURATION")
        assertError("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:x\n#EXT-X-TARGETDURATION:2\n", line: 2, containing: "EXT-X-MEDIA-SEQUENCE 'x'")
        assertError(head + "#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:4,\na.ts\n", line: 3, containing: "not an ISO 8601 date")
        assertError(head + "#EXT-X-KEY:METHOD=AES-128\n", line: 3, containing: "without a URI")
        assertError(head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ\n", line: 3, containing: "128-bit hex")
        assertError(head + "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://x\"\n", line: 3, containing: "SAMPLE-AES")
        assertError(head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n", line: 3, containing: "DRM")
        assertError(head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-MAP:URI=\"init.mp4\"\n", line: 4, containing: "needs the IV")
        assertError(head + "#EXT-X-MAP:BYTERANGE=\"1@0\"\n", line: 3, containing: "EXT-X-MAP without a URI")
        assertError(head + "#EXT-X-BYTERANGE:1@x\n", line: 3, containing: "not n[@o]")
        assertError(head + "a.ts\n", line: 3, containing: "without an #EXTINF")
        assertError(head + "#EXTINF:4,\n#EXT-X-ENDLIST\n", line: 3, containing: "without its segment URI")
        assertError("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:4,\na.ts\n", line: nil, containing: "without EXT-X-TARGETDURATION")
    }

    func testSegmentsMayOnlyBeRemoteHTTP() {
        let head = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        assertError(head + "#EXTINF:4,\nfile:///etc/passwd\n", line: 4, containing: "only point at http or https")
        assertError(head + "#EXT-X-KEY:METHOD=AES-128,URI=\"file:///etc/key\"\n", line: 3, containing: "only point at http or https")
        assertError(head + "#EXT-X-MAP:URI=\"ftp://x/init.mp4\"\n", line: 3, containing: "only point at http or https")
    }

    func testSizeIsBounded() {
        let huge = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + String(repeating: "#EXTINF:1,\nseg.ts\n", count: PlaylistParser.maxBytes / 16)
        XCTAssertThrowsError(try PlaylistParser.parse(Data(huge.utf8), url: url)) { error in
            XCTAssertTrue("\(error)".contains("larger than"), "\(error)")
        }
    }

    func testAPlainM3UWithEXTINFIsStillAStationList() throws {
        let list = "#EXTM3U\n#EXTINF:-1,Radio\nhttps://one.example/live.mp3\n"
        XCTAssertEqual(try PlaylistParser.parse(Data(list.utf8), url: url), .entries(["https://one.example/live.mp3"]))
    }
}
