import Foundation
import XCTest
import TestSupport
@testable import StreamInput

final class ID3TagTests: XCTestCase {
    private func frame(_ id: String, _ content: [UInt8], version: UInt8 = 4, flags: [UInt8] = [0, 0]) -> [UInt8] {
        let size = content.count
        let sizeBytes: [UInt8] = version == 4
            ? [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
            : [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        return Array(id.utf8) + sizeBytes + flags + content
    }

    private func tag(_ frames: [UInt8], version: UInt8 = 4, flags: UInt8 = 0) -> [UInt8] {
        let size = frames.count
        return Array("ID3".utf8) + [version, 0, flags,
                                    UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)] + frames
    }

    func testTitleAndArtistInEachEncoding() throws {
        let littleEndian: [UInt8] = "Café".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let utf16: [UInt8] = [1, 0xFF, 0xFE] + littleEndian
        let bytes = tag(frame("TIT2", [3] + Array("Sweet Child O' Mine".utf8)) + frame("TPE1", utf16)
                        + frame("TALB", [0, 0x45, 0xE9]) + frame("TCON", [2, 0, 0x41]))
        let parsed = try XCTUnwrap(ID3Tag(bytes[...]))
        XCTAssertEqual(parsed.size, bytes.count)
        XCTAssertEqual(parsed.nowPlaying, "Café - Sweet Child O' Mine")
        XCTAssertEqual(parsed.text["TALB"], "Eé", "Latin-1")
        XCTAssertEqual(parsed.text["TCON"], "A", "UTF-16 big-endian without a BOM")
    }

    func testVersion23SizesAndUserTextFrames() throws {
        let bytes = tag(frame("TXXX", [3] + Array("StreamTitle".utf8) + [0] + Array("Ärzte – Westerland".utf8), version: 3)
                        + frame("TXXX", [3] + Array("URL".utf8) + [0] + Array("https://station.example/now".utf8), version: 3),
                        version: 3)
        let parsed = try XCTUnwrap(ID3Tag(bytes[...]))
        XCTAssertEqual(parsed.nowPlaying, "Ärzte – Westerland")
        XCTAssertEqual(parsed.url, "https://station.example/now")
    }

    func testWhatTheTestFixturesWriteIsWhatIsRead() throws {
        let written = PackedAudio.id3(timestamp90kHz: 1 << 32, title: "Song", artist: "Band",
                                      userText: [("comment", "x")])
        let parsed = try XCTUnwrap(ID3Tag(Array(written)[...]))
        XCTAssertEqual(parsed.nowPlaying, "Band - Song")
        XCTAssertEqual(parsed.userText["comment"], "x")
        XCTAssertEqual(ID3Tag.size(atStartOf: written), written.count)
    }

    func testUnsynchronisationAndV2_2Frames() throws {
        // v2.3 whole-tag unsynchronisation: 0xFF 0x00 stands for 0xFF; the frame's size counts it once.
        let latin = Array("TIT2".utf8) + [0, 0, 0, 4, 0, 0] + [0, 0x41, 0xFF, 0x00, 0x42]
        let unsync = try XCTUnwrap(ID3Tag(tag(latin, version: 3, flags: 0x80)[...]))
        XCTAssertEqual(unsync.text["TIT2"], "AÿB")
        let v22 = Array("TT2".utf8) + [0, 0, 4, 0] + Array("Old".utf8)
        XCTAssertEqual(ID3Tag(tag(v22, version: 2)[...])?.nowPlaying, "Old")
    }

    func testLeadingTagsOfAPackedAudioSegment() {
        let first = Array(PackedAudio.id3(timestamp90kHz: 90_000, title: "One"))
        let second = Array(PackedAudio.id3(timestamp90kHz: 90_000, artist: "Two"))
        let adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]
        let (tags, count) = ID3Tag.leadingTags(in: first + second + adts)
        XCTAssertEqual(tags.map(\.nowPlaying), ["One", "Two"])
        XCTAssertEqual(count, first.count + second.count)
        XCTAssertEqual(ID3Tag.leadingTags(in: adts).byteCount, 0)
    }

    func testTimedMetadataPacketsWithOrWithoutTheirFirstFiveBytes() {
        let tag = Array(PackedAudio.id3(timestamp90kHz: 0, title: "Song", artist: "Band"))
        XCTAssertEqual(ID3Tag.timedMetadataTags(in: tag).map(\.nowPlaying), ["Band - Song"])
        // What FFmpeg 5.1's MPEG-TS demuxer hands over: the tag without "ID3", version and revision.
        XCTAssertEqual(ID3Tag.timedMetadataTags(in: tag.dropFirst(5)).map(\.nowPlaying), ["Band - Song"])
        XCTAssertTrue(ID3Tag.timedMetadataTags(in: tag.dropFirst(6)).isEmpty, "anything else is not guessed at")
    }

    func testHostileInputNeverCrashesAndNeverOverreads() {
        // Sizes that overrun, in the header and in frames.
        XCTAssertNil(ID3Tag((Array("ID3".utf8) + [4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F])[...]), "claims 256 MB")
        XCTAssertNil(ID3Tag((Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0])[...]), "not syncsafe")
        XCTAssertNil(ID3Tag((Array("ID3".utf8) + [4, 0])[...]), "truncated header")
        let overrun = tag(Array("TIT2".utf8) + [0, 0, 0x7F, 0x7F, 0, 0, 3, 0x41])
        XCTAssertEqual(ID3Tag(overrun[...])?.text, [:])
        let unterminated = tag(frame("TXXX", [1, 0xFF, 0xFE, 0x41]))
        XCTAssertEqual(ID3Tag(unterminated[...])?.userText, [:])
        let badEncoding = tag(frame("TIT2", [9, 0x41]))
        XCTAssertNil(ID3Tag(badEncoding[...])?.nowPlaying)
        let control = tag(frame("TIT2", [3] + Array("A\u{1B}[2JB\u{7}".utf8)))
        XCTAssertEqual(ID3Tag(control[...])?.nowPlaying, "A[2JB", "no terminal escapes")
        let long = tag(frame("TIT2", [3] + [UInt8](repeating: 0x41, count: 5000)))
        XCTAssertEqual(ID3Tag(long[...])?.nowPlaying?.count, ID3Tag.maxTextLength)

        var generator = SystemRandomNumberGenerator()
        for round in 0..<2000 {
            var bytes = tag(frame("TIT2", [3] + Array("Title".utf8)) + frame("TXXX", [1, 0xFF, 0xFE, 0x41, 0, 0, 0, 0x42, 0]))
            for _ in 0..<(1 + round % 6) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 3 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
            _ = ID3Tag(bytes[...])?.nowPlaying
            _ = ID3Tag.leadingTags(in: bytes)
            _ = ID3Tag.timedMetadataTags(in: bytes.dropFirst(5))
        }
    }
}
