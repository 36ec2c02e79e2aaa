import Foundation

/// Writes an MPEG transport stream with ADTS audio and a timed-ID3 metadata stream, the way HLS
/// stations send titles in MPEG-TS segments (Apple's "Timed Metadata for HTTP Live Streaming":
/// stream type 0x15, a metadata descriptor naming "ID3 ", ID3 tags in private-stream PES packets).
/// FFmpeg's muxer writes such streams only when remuxing one, so the tests make their own.
///
///     let ts = TimedID3TransportStream.make(adtsFrames: frames, sampleRate: 44100,
///                                           tags: [(atFrame: 43, PackedAudio.id3(timestamp90kHz: 0, title: "Song"))])
public enum TimedID3TransportStream {
    private static let pmtPID = 0x1000
    private static let audioPID = 0x100
    private static let metadataPID = 0x102

    /// One PES per ADTS frame, with PAT and PMT in front; each tag goes out just before its frame.
    public static func make(adtsFrames: [Data], sampleRate: Int, tags: [(atFrame: Int, tag: Data)]) -> Data {
        var writer = Writer()
        writer.section(pid: 0, tableID: 0, body: [0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01,
                                                  UInt8(0xE0 | pmtPID >> 8), UInt8(pmtPID & 0xFF)])
        let metadataDescriptor: [UInt8] = [0x26, 13, 0xFF, 0xFF] + Array("ID3 ".utf8) + [0xFF] + Array("ID3 ".utf8) + [0x00, 0x0F]
        let pmt: [UInt8] = [0x00, 0x01, 0xC1, 0x00, 0x00, UInt8(0xE0 | audioPID >> 8), UInt8(audioPID & 0xFF), 0xF0, 0x00]
            + [0x0F, UInt8(0xE0 | audioPID >> 8), UInt8(audioPID & 0xFF), 0xF0, 0x00]
            + [0x15, UInt8(0xE0 | metadataPID >> 8), UInt8(metadataPID & 0xFF), 0xF0, UInt8(metadataDescriptor.count)]
            + metadataDescriptor
        writer.section(pid: pmtPID, tableID: 2, body: pmt)
        for (index, frame) in adtsFrames.enumerated() {
            let pts = UInt64(index) * 1024 * 90_000 / UInt64(sampleRate) + 90_000
            for (_, tag) in tags.filter({ $0.atFrame == index }) {
                // private_stream_1, as Apple's spec has it (0xFC would wrap the tag in metadata AU cells).
                writer.pes(pid: metadataPID, streamID: 0xBD, pts: pts, payload: [UInt8](tag))
            }
            writer.pes(pid: audioPID, streamID: 0xC0, pts: pts, payload: [UInt8](frame))
        }
        return Data(writer.bytes)
    }

    private struct Writer {
        var bytes: [UInt8] = []
        private var continuity: [Int: UInt8] = [:]

        /// A PSI section (PAT, PMT) in one packet, with its CRC.
        mutating func section(pid: Int, tableID: UInt8, body: [UInt8]) {
            let length = body.count + 4 // the CRC follows
            var section: [UInt8] = [tableID, UInt8(0xB0 | length >> 8), UInt8(length & 0xFF)] + body
            let crc = Self.crc32(section)
            section += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
            packets(pid: pid, payload: [0x00] + section) // pointer field 0
        }

        /// A PES packet with a PTS, split into transport packets.
        mutating func pes(pid: Int, streamID: UInt8, pts: UInt64, payload: [UInt8]) {
            let header: [UInt8] = [0x80, 0x80, 5,
                                   UInt8(0x21 | (pts >> 29) & 0x0E), UInt8(pts >> 22 & 0xFF), UInt8(0x01 | (pts >> 14) & 0xFE),
                                   UInt8(pts >> 7 & 0xFF), UInt8(0x01 | (pts << 1) & 0xFE)]
            let length = header.count + payload.count
            packets(pid: pid, payload: [0, 0, 1, streamID, UInt8(length >> 8), UInt8(length & 0xFF)] + header + payload)
        }

        /// 188-byte packets; the last one filled up with adaptation-field stuffing.
        private mutating func packets(pid: Int, payload: [UInt8]) {
            var offset = 0
            while offset < payload.count {
                let counter = continuity[pid, default: 0]
                continuity[pid] = (counter + 1) & 0x0F
                let start: UInt8 = offset == 0 ? 0x40 : 0x00
                let chunk = Array(payload[offset..<min(payload.count, offset + 184)])
                offset += chunk.count
                var packet: [UInt8] = [0x47, start | UInt8(pid >> 8), UInt8(pid & 0xFF)]
                if chunk.count == 184 {
                    packet += [0x10 | counter] + chunk
                } else {
                    let stuffing = 184 - chunk.count - 1 // the adaptation field's length byte
                    packet += [0x30 | counter, UInt8(stuffing)]
                    if stuffing > 0 { packet += [0x00] + [UInt8](repeating: 0xFF, count: stuffing - 1) }
                    packet += chunk
                }
                bytes += packet
            }
        }

        /// CRC-32/MPEG-2: polynomial 0x04C11DB7, no reflection, no final XOR.
        private static func crc32(_ data: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in data {
                crc ^= UInt32(byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
            }
            return crc
        }
    }
}
