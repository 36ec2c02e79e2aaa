import XCTest
@testable import StreamInput

final class ICYDeinterleaverTests: XCTestCase {
    /// Builds an ICY body: `metaint` audio bytes, a block (or a zero length byte), repeated.
    private func interleave(audio: [UInt8], metaint: Int, blocks: [[UInt8]?]) -> [UInt8] {
        var out: [UInt8] = []
        var blockIndex = 0
        for start in stride(from: 0, to: audio.count, by: metaint) {
            let chunk = audio[start..<min(start + metaint, audio.count)]
            out += chunk
            guard chunk.count == metaint else { break }
            let block = blockIndex < blocks.count ? blocks[blockIndex] : nil
            blockIndex += 1
            if let block {
                let length = (block.count + 15) / 16
                out.append(UInt8(length))
                out += block + [UInt8](repeating: 0, count: length * 16 - block.count)
            } else {
                out.append(0)
            }
        }
        return out
    }

    private func split(_ body: [UInt8], metaint: Int, chunkSizes: [Int]) -> (audio: [UInt8], blocks: [([UInt8], Int64)]) {
        var deinterleaver = ICYDeinterleaver(metaint: metaint)
        var audio: [UInt8] = []
        var blocks: [([UInt8], Int64)] = []
        var index = 0
        var sizeIndex = 0
        while index < body.count {
            let size = min(chunkSizes[sizeIndex % chunkSizes.count], body.count - index)
            sizeIndex += 1
            body[index..<index + size].withUnsafeBytes { chunk in
                deinterleaver.consume(chunk, audio: { audio += $0 }, metadata: { blocks.append(($0, $1)) })
            }
            index += size
        }
        return (audio, blocks)
    }

    func testAudioIsRestoredExactlyWhateverTheChunkBoundaries() {
        let audio = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let title = Array("StreamTitle='A';".utf8)
        let body = interleave(audio: audio, metaint: 1000, blocks: [title, nil, title])
        for sizes in [[1], [3, 7, 1], [999, 1001], [16_384], [1000, 1, 16]] {
            let result = split(body, metaint: 1000, chunkSizes: sizes)
            XCTAssertEqual(result.audio, audio, "chunk sizes \(sizes)")
            XCTAssertEqual(result.blocks.count, 2, "chunk sizes \(sizes)")
            XCTAssertEqual(result.blocks.first?.1, 1000, "the first block takes effect after 1000 audio bytes")
            XCTAssertEqual(result.blocks.last?.1, 3000)
        }
    }

    func testMetaintOfOneStillWorks() {
        let audio: [UInt8] = [1, 2, 3, 4]
        let body = interleave(audio: audio, metaint: 1, blocks: [Array("StreamTitle='x';".utf8)])
        let result = split(body, metaint: 1, chunkSizes: [2])
        XCTAssertEqual(result.audio, audio)
        XCTAssertEqual(result.blocks.count, 1)
    }

    func testLargestBlockIsBoundedBy4080Bytes() {
        var body = [UInt8](repeating: 9, count: 100)
        body.append(255)
        body += [UInt8](repeating: 65, count: 255 * 16)
        body += [UInt8](repeating: 9, count: 100)
        let result = split(body, metaint: 100, chunkSizes: [777])
        XCTAssertEqual(result.blocks.first?.0.count, ICYDeinterleaver.maxBlockBytes)
        XCTAssertEqual(result.audio, [UInt8](repeating: 9, count: 200))
    }
}
