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

    /// The length an ADTS header announces (13 bits, header included).
    static func adtsFrameLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 else { return nil }
        return Int(bytes[3] & 0x3) << 11 | Int(bytes[4]) << 3 | Int(bytes[5]) >> 5
    }
}
