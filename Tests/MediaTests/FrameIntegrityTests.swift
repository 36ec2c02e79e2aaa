import XCTest
@testable import Media

final class FrameIntegrityTests: XCTestCase {
    private func bytes(_ values: [UInt8]) -> [UInt8] { values }

    private func frame(header: [UInt8], length: Int) -> [UInt8] { header + [UInt8](repeating: 0, count: max(0, length - header.count)) }

    func testMPEGAudioFrameLengthsFromTheirHeaders() {
        // MPEG-1 layer III, 128 kbit/s, 44.1 kHz: 417 bytes, 418 with padding.
        let unpadded: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]
        let padded: [UInt8] = [0xFF, 0xFB, 0x92, 0x00]
        XCTAssertEqual(frame(header: unpadded, length: 4).withUnsafeBytes { FrameIntegrity.mpegAudioFrameLength($0) }, 417)
        XCTAssertEqual(frame(header: padded, length: 4).withUnsafeBytes { FrameIntegrity.mpegAudioFrameLength($0) }, 418)
        // MPEG-2 layer III, 64 kbit/s, 24 kHz: 72 × 64000 / 24000 = 192.
        XCTAssertEqual(bytes([0xFF, 0xF3, 0x84, 0x00]).withUnsafeBytes { FrameIntegrity.mpegAudioFrameLength($0) }, 192)
        XCTAssertNil(bytes([0xFF, 0xFB, 0xF0, 0x00]).withUnsafeBytes { FrameIntegrity.mpegAudioFrameLength($0) }, "bad bitrate index")
        XCTAssertNil(bytes([0x49, 0x44, 0x33, 0x04]).withUnsafeBytes { FrameIntegrity.mpegAudioFrameLength($0) }, "an ID3 tag is no frame")

        XCTAssertEqual(frame(header: unpadded, length: 417).withUnsafeBytes { FrameIntegrity.isComplete($0, demuxer: "mp3") }, true)
        XCTAssertEqual(frame(header: unpadded, length: 200).withUnsafeBytes { FrameIntegrity.isComplete($0, demuxer: "mp3") }, false,
                       "a frame cut by a dropped connection")
        XCTAssertNil([UInt8](repeating: 0, count: 10).withUnsafeBytes { FrameIntegrity.isComplete($0, demuxer: "ogg") })
    }

    func testADTSFrameLengthFromItsHeader() {
        // frame_length 371 = 0b001_0111_0011 spread over bytes 3–5.
        let header: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x2E, 0x7F, 0xFC]
        XCTAssertEqual(header.withUnsafeBytes { FrameIntegrity.adtsFrameLength($0) }, 371)
        XCTAssertEqual(frame(header: header, length: 371).withUnsafeBytes { FrameIntegrity.isComplete($0, demuxer: "aac") }, true)
        XCTAssertEqual(frame(header: header, length: 100).withUnsafeBytes { FrameIntegrity.isComplete($0, demuxer: "aac") }, false)
    }
}
