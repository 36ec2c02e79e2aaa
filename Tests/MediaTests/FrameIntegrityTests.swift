import CFFmpeg
@testable import Media
import XCTest

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

    /// The side-information check stands in for libavcodec's decoder: on Layer III frames of every
    /// kind, with whatever a broken encoder or network gear may put after the header, both must
    /// accept and refuse the same frames.
    func testTheSideInformationCheckAcceptsExactlyTheFramesTheDecoderAccepts() throws {
        let headers: [(String, [UInt8])] = [
            ("MPEG-1 128k 44.1 kHz joint stereo", [0xFF, 0xFB, 0x90, 0x40]),
            ("MPEG-1 128k 44.1 kHz stereo, CRC", [0xFF, 0xFA, 0x90, 0x00]),
            ("MPEG-1 64k 48 kHz mono", [0xFF, 0xFB, 0x54, 0xC0]),
            ("MPEG-1 32k 32 kHz mono, CRC", [0xFF, 0xFA, 0x18, 0xC0]),
            ("MPEG-2 64k 24 kHz joint stereo", [0xFF, 0xF3, 0x84, 0x40]),
            ("MPEG-2 32k 22.05 kHz mono, CRC", [0xFF, 0xF2, 0x40, 0xC0]),
            ("MPEG-2.5 8k 8 kHz mono", [0xFF, 0xE3, 0x18, 0xC0]),
        ]
        var state: UInt32 = 0x2545_F491
        for (name, header) in headers {
            let length = try XCTUnwrap(header.withUnsafeBytes { FrameIntegrity.mpegAudioFrameLength($0) }, name)
            let decoder = try mp3Decoder()
            var (accepted, refused) = (0, 0)
            for _ in 0..<1_000 {
                var frame = header
                for _ in 4..<length {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    frame.append(UInt8(truncatingIfNeeded: state >> 24))
                }
                let checked = try XCTUnwrap(frame.withUnsafeBytes { FrameIntegrity.layerIIIDecoderAccepts($0) }, name)
                XCTAssertEqual(checked, try decodes(frame, with: decoder), "\(name): \(frame.prefix(40).map { String(format: "%02x", $0) }.joined())")
                if checked { accepted += 1 } else { refused += 1 }
            }
            // Random side information is refused more often than not, but not always: both verdicts were compared.
            XCTAssertGreaterThan(accepted, 20, name)
            XCTAssertGreaterThan(refused, 200, name)
        }
        XCTAssertNil([UInt8]([0xFF, 0xFD, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)).withUnsafeBytes {
            FrameIntegrity.layerIIIDecoderAccepts($0)
        }, "a Layer II frame is not judged")
    }

    private func mp3Decoder() throws -> AudioDecoder {
        var format: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        let stream = try XCTUnwrap(avformat_new_stream(format, nil))
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_MP3
        let decoder = try AudioDecoder(stream: stream)
        avformat_free_context(format)
        format = nil
        return decoder
    }

    private func decodes(_ frame: [UInt8], with decoder: AudioDecoder) throws -> Bool {
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var decoded: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        defer { av_frame_free(&decoded) }
        XCTAssertEqual(av_new_packet(packet, Int32(frame.count)), 0)
        frame.withUnsafeBytes { packet!.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: frame.count) }
        var frames = 0
        do {
            try decoder.decode(packet, frame: decoded!) { _ in frames += 1 }
        } catch {
            return false
        }
        XCTAssertEqual(frames, 1, "a frame the decoder accepts gives its samples")
        return true
    }
}
