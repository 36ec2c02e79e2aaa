import XCTest
@testable import StreamInput

final class ICYInterleaverTests: XCTestCase {
    /// What the interleaver writes, our de-interleaver and metadata parser read back.
    func testSlotsFallEveryMetaintBytesAndCarryTitlesOnlyWhenTheyChange() {
        var interleaver = ICYInterleaver(metaint: 100)
        var stream: [UInt8] = []
        interleaver.setTitle("It's Bob's 'Song'", url: "https://example.org/a?b='c'")
        interleaver.append(audio: [UInt8](repeating: 1, count: 250), to: &stream)
        interleaver.setTitle("Second")
        interleaver.append(audio: [UInt8](repeating: 2, count: 120), to: &stream)

        var reader = ICYDeinterleaver(metaint: 100)
        var audio: [UInt8] = []
        var blocks: [(ICYMetadata, Int64)] = []
        stream.withUnsafeBytes { bytes in
            reader.consume(bytes, audio: { audio += $0 }, metadata: { blocks.append((ICYMetadata(block: $0), $1)) })
        }
        XCTAssertEqual(audio, [UInt8](repeating: 1, count: 250) + [UInt8](repeating: 2, count: 120))
        XCTAssertEqual(blocks.map(\.0.title), ["It's Bob's 'Song'", "Second"])
        XCTAssertEqual(blocks.first?.0.url, "https://example.org/a?b='c'")
        XCTAssertEqual(blocks.map(\.1), [100, 300], "the slot at 200 was empty: nothing changed")
    }

    func testALongTitleIsCutToWhatOneSlotHolds() {
        let block = ICYInterleaver.block(title: String(repeating: "é", count: 3000))
        XCTAssertEqual(Int(block[0]) * 16 + 1, block.count)
        XCTAssertLessThanOrEqual(block.count - 1, ICYDeinterleaver.maxBlockBytes)
        let title = ICYMetadata(block: Array(block.dropFirst())).title ?? ""
        XCTAssertTrue(title.allSatisfy { $0 == "é" }, "cut at a character boundary")
        XCTAssertGreaterThan(title.count, 2000)
    }
}
