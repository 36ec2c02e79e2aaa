import Foundation
import XCTest
import TestSupport
@testable import StreamInput

/// On-demand DASH: one file per representation whose segments its `sidx` box lists (SegmentBase with
/// indexRange), read from real files FFmpeg writes (`-movflags global_sidx`), and hand-made boxes for
/// what FFmpeg never writes (version 1, a hierarchical index, lies about sizes).
final class DASHSegmentBaseTests: XCTestCase {
    private let mpdURL = "https://radio.example/od/show.mpd"

    /// A `sidx` box: `references` as (size, duration), the first `firstOffset` bytes after the box.
    private func sidx(version: UInt8, timescale: UInt32 = 44100, earliest: UInt64 = 0, firstOffset: UInt64 = 0,
                      references: [(UInt32, UInt32)], count: UInt16? = nil) -> Data {
        var body = Data([version, 0, 0, 0]) + be(UInt32(1)) + be(timescale)
        body += version == 0 ? be(UInt32(earliest)) + be(UInt32(firstOffset)) : be(earliest) + be(firstOffset)
        body += be(UInt16(0)) + be(count ?? UInt16(references.count))
        for (size, duration) in references { body += be(size) + be(duration) + be(UInt32(0x9000_0000)) }
        return be(UInt32(8 + body.count)) + Data("sidx".utf8) + body
    }

    private func be<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }

    func testVersion0And1ListSegmentsFromTheFirstByteAfterTheBox() throws {
        for version: UInt8 in [0, 1] {
            let box = sidx(version: version, earliest: 1940, firstOffset: 10, references: [(1000, 44100), (900, 22050)])
            let index = try SegmentIndex.parse(box, fileOffset: 700, url: mpdURL)
            let after = 700 + box.count + 10
            XCTAssertEqual(index.references, [
                SegmentIndex.Reference(byteRange: ByteRange(offset: after, length: 1000), duration: 44100),
                SegmentIndex.Reference(byteRange: ByteRange(offset: after + 1000, length: 900), duration: 22050),
            ], "version \(version)")
            XCTAssertEqual(index.earliestPresentationTime, 1940)
            XCTAssertEqual(index.timescale, 44100)
        }
        // A box before it (a segment type box) is stepped over.
        let styp = be(UInt32(16)) + Data("stypmsdh".utf8) + Data(count: 4)
        XCTAssertEqual(try SegmentIndex.parse(styp + sidx(version: 0, references: [(5, 5)]), fileOffset: 0, url: mpdURL).references.count, 1)
    }

    func testIndexesThatLieOrNestAreRefusedInOneLine() {
        let cases: [(Data, String)] = [
            (sidx(version: 0, references: [(0x8000_0100, 44100)]), "refers to another sidx (a hierarchical index), which onair does not follow"),
            (sidx(version: 0, references: [(100, 1), (100, 1)], count: 3), "is cut short"),
            (sidx(version: 0, references: [(100, 1)], count: 60000), "lists more than 50000 segments"),
            (sidx(version: 0, timescale: 0, references: [(100, 1)]), "has timescale 0"),
            (sidx(version: 2, references: [(100, 1)]), "has version 2, which onair does not read"),
            (sidx(version: 0, references: [(0, 1)]), "lists a segment of 0 bytes"),
            (sidx(version: 0, references: []), "lists no segment"),
            (be(UInt32(16)) + Data("moof".utf8) + Data(count: 8), "is missing from the index range"),
            (Data([0, 0]), "is missing from the index range"),
            (sidx(version: 0, references: [(100, 1)]).prefix(40) + Data([0xff]), "is larger than the index range"),
        ]
        for (box, reason) in cases {
            XCTAssertThrowsError(try SegmentIndex.parse(box, fileOffset: 0, url: mpdURL)) { error in
                XCTAssertEqual("\(error)", "\(mpdURL): the segment index (sidx) \(reason)")
            }
        }
    }

    /// FFmpeg's fragmented MP4 with one global sidx, as an on-demand packager writes it; two periods
    /// point at the same file (the androidx emsg sample's shape), so its index is read once.
    func testAnFFmpegOnDemandFileIsListedByItsIndexInEveryPeriodThatUsesIt() throws {
        let directory = try TemporaryDirectory(prefix: "onair-sidx")
        let file = directory.file("tone.mp4")
        try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=4",
                                         "-c:a", "aac", "-b:a", "64k", "-f", "mp4", "-movflags", "frag_keyframe+empty_moov+global_sidx",
                                         "-frag_duration", "1000000", file.path], timeout: 60).check()
        let bytes = try Data(contentsOf: file)
        let boxes = Self.topLevelBoxes(bytes)
        let index = try XCTUnwrap(boxes.first { $0.type == "sidx" })
        let fragments = boxes.filter { $0.type == "moof" }.map(\.offset)
        let mpd = try MPDParser.parse(try Self.segmentBaseMPD(initRange: "0-\(index.offset - 1)",
                                                             indexRange: "\(index.offset)-\(index.offset + index.size - 1)"), url: mpdURL)

        var timeline = DASHTimeline(quality: .high)
        let missing = timeline.missingIndexes(mpd)
        XCTAssertEqual(missing.map(\.url), ["https://radio.example/od/tone.mp4"], "both periods share one index")
        XCTAssertEqual(missing.first?.indexRange, ByteRange(offset: index.offset, length: index.size))
        XCTAssertTrue(try timeline.playlist(mpd, now: Date()).playlist.segments.isEmpty, "nothing is listed before the index is read")

        try timeline.addIndex(bytes.subdata(in: index.offset..<index.offset + index.size), for: try XCTUnwrap(missing.first))
        XCTAssertTrue(timeline.missingIndexes(mpd).isEmpty)
        let segments = try timeline.playlist(mpd, now: Date()).playlist.segments
        let firstPeriod = segments.prefix(while: { $0.programDateTime!.timeIntervalSince1970 < 4 })
        // Each segment is a fragment: from its moof to the next (the last one up to the mfra FFmpeg appends).
        XCTAssertEqual(firstPeriod.map { $0.byteRange!.offset }, fragments)
        XCTAssertEqual(firstPeriod.map(\.url), Array(repeating: "https://radio.example/od/tone.mp4", count: fragments.count))
        XCTAssertEqual(firstPeriod.reduce(0) { $0 + $1.duration }, 4, accuracy: 0.05)
        XCTAssertEqual(firstPeriod.first?.initSection, InitSection(url: "https://radio.example/od/tone.mp4",
                                                                  byteRange: ByteRange(offset: 0, length: index.offset), encryption: nil))
        XCTAssertEqual(segments.count, 2 * fragments.count, "the second period plays the file again")
        XCTAssertEqual(segments.map(\.sequence), Array(1...segments.count), "one unbroken sequence")
    }

    /// The fixture with its placeholder ranges filled in for the file at hand.
    static func segmentBaseMPD(initRange: String, indexRange: String) throws -> Data {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/dash-quirks/segmentbase-two-periods.mpd")
        let text = try String(contentsOf: fixture, encoding: .utf8)
            .replacingOccurrences(of: "INIT_RANGE", with: initRange).replacingOccurrences(of: "INDEX_RANGE", with: indexRange)
        return Data(text.utf8)
    }

    /// The file's top-level ISO BMFF boxes: type, offset, size.
    static func topLevelBoxes(_ data: Data) -> [(type: String, offset: Int, size: Int)] {
        var boxes: [(String, Int, Int)] = []
        var offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8 else { break }
            boxes.append((String(decoding: data[offset + 4..<offset + 8], as: UTF8.self), offset, size))
            offset += size
        }
        return boxes
    }
}
