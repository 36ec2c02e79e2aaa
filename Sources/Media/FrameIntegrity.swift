/// Whether a packet of a raw MP3 or ADTS stream holds one whole frame.
///
/// When a connection drops mid-frame, the demuxer hands on the truncated tail as a last packet. A
/// decoder shrugs it off, but a stream copy would write it into the file, where every player then
/// reports a broken frame. Ogg and FLAC carry checksums, so their demuxers drop such tails themselves.
enum FrameIntegrity {
    /// nil when the demuxer's packets are not raw MP3/ADTS frames (nothing to check).
    static func isComplete(_ bytes: UnsafeRawBufferPointer, demuxer: String) -> Bool? {
        switch demuxer {
        case "mp3": return mpegAudioFrameLength(bytes).map { $0 == bytes.count } ?? false
        case "aac": return adtsFrameLength(bytes).map { $0 == bytes.count } ?? false
        default: return nil
        }
    }

    /// The length an MPEG audio frame header announces (layers I–III, MPEG 1, 2 and 2.5).
    static func mpegAudioFrameLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return nil }
        let version = (bytes[1] >> 3) & 0x3 // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
        let layer = (bytes[1] >> 1) & 0x3   // 1: III, 2: II, 3: I
        let bitrateIndex = Int(bytes[2] >> 4)
        let rateIndex = Int((bytes[2] >> 2) & 0x3)
        let padding = Int((bytes[2] >> 1) & 0x1)
        guard version != 1, layer != 0, (1...14).contains(bitrateIndex), rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let kbps: [Int]
        switch (mpeg1, layer) {
        case (true, 3): kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let baseRate = [44100, 48000, 32000][rateIndex]
        let sampleRate = version == 3 ? baseRate : (version == 2 ? baseRate / 2 : baseRate / 4)
        let bitrate = kbps[bitrateIndex] * 1000
        if layer == 3 { return (12 * bitrate / sampleRate + padding) * 4 }
        let samplesPerByte = (layer == 1 && !mpeg1) ? 72 : 144
        return samplesPerByte * bitrate / sampleRate + padding
    }

    /// Whether libavcodec's MPEG audio decoder accepts a whole Layer III frame, judged from its side
    /// information; nil when the frame is not Layer III.
    ///
    /// Once the header is valid, the decoder refuses a Layer III frame for two reasons only: a granule
    /// announcing more than 288 big values, or a window-switching granule of block type 0 (FFmpeg's
    /// `mp_decode_layer3`). Both sit in the side information, so a stream copy checks a frame with a
    /// few dozen bit reads where decoding it would run the whole synthesis: the decoder has no mode
    /// that checks a frame without producing its samples.
    static func layerIIIDecoderAccepts(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        guard bytes.count >= 4, (bytes[1] >> 1) & 0x3 == 1 else { return nil }
        let mpeg1 = (bytes[1] >> 3) & 0x3 == 3
        let protected = bytes[1] & 0x1 == 0
        let channels = bytes[3] >> 6 == 3 ? 1 : 2
        var bits = BitReader(bytes, startingAt: protected ? 6 : 4)
        let granules: Int
        if mpeg1 {
            bits.skip(9 + (channels == 1 ? 5 : 3) + 4 * channels)  // main_data_begin, private bits, scfsi
            granules = 2
        } else {
            bits.skip(8 + channels)  // main_data_begin, private bits
            granules = 1
        }
        for _ in 0..<granules * channels {
            bits.skip(12)  // part2_3_length
            guard let bigValues = bits.read(9), bigValues <= 288 else { return false }
            bits.skip(8 + (mpeg1 ? 4 : 9))  // global_gain, scalefac_compress
            guard let windowSwitching = bits.read(1) else { return false }
            if windowSwitching == 1 {
                guard let blockType = bits.read(2), blockType != 0 else { return false }
                bits.skip(1 + 2 * 5 + 3 * 3)  // mixed_block_flag, table_select, subblock_gain
            } else {
                bits.skip(3 * 5 + 4 + 3)  // table_select, region0_count, region1_count
            }
            bits.skip((mpeg1 ? 1 : 0) + 2)  // preflag (MPEG-1 only), scalefac_scale, count1table_select
        }
        return bits.read(0) != nil
    }

    /// The bytes of a Layer III frame after its header, CRC and side information: its share of the
    /// main data, which later frames may reach back into (the bit reservoir).
    static func layerIIIMainDataLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 4 else { return 0 }
        let mpeg1 = (bytes[1] >> 3) & 0x3 == 3
        let mono = bytes[3] >> 6 == 3
        let sideInformation = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        return max(0, bytes.count - 4 - (bytes[1] & 0x1 == 0 ? 2 : 0) - sideInformation)
    }

    /// Reads big-endian bit fields; nil once a read would pass the end.
    private struct BitReader {
        private let bytes: UnsafeRawBufferPointer
        private var position: Int

        init(_ bytes: UnsafeRawBufferPointer, startingAt byte: Int) {
            self.bytes = bytes
            position = byte * 8
        }

        mutating func skip(_ count: Int) { position += count }

        mutating func read(_ count: Int) -> Int? {
            guard position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }
    }

    /// The length an ADTS header announces (13 bits, header included).
    static func adtsFrameLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 else { return nil }
        return Int(bytes[3] & 0x3) << 11 | Int(bytes[4]) << 3 | Int(bytes[5]) >> 5
    }
}
