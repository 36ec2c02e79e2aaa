/// Where the first whole frame of a raw ADTS stream begins.
///
/// An Icecast server hands a new listener the stream from wherever its buffer stands, mid-frame.
/// FFmpeg's ADTS demuxer takes the first 12 set bits it meets for a frame header; a false one inside
/// a frame's data can announce a frame of up to 8 KB. The parser behind it splits that back into
/// the real frames, but where the false frame ends the demuxer skips ahead to the next sync word,
/// and the real frame across that point loses the bytes skipped: the decoder rejects it. Until the
/// demuxer happens on a real header this repeats every 8 KB or so (about 20 frames at 128 kbit/s).
/// Starting the demuxer on a real frame keeps it in step from the first byte.
enum ADTSAlignment {
    /// Headers in a row, each where the one before says it ends, that make a frame start certain.
    static let headersInARow = 3

    /// The number of bytes in front of the first frame whose successors (as many of the next
    /// `headersInARow - 1` as `prefix` holds, at least one) follow it header to header with the
    /// same fixed header. 0 when the stream starts with an ID3 tag (an HLS segment's timestamp:
    /// it is the demuxer's to read) or when no such frame is found in `prefix`.
    static func bytesBeforeFirstFrame(_ prefix: [UInt8]) -> Int {
        guard !prefix.starts(with: Array("ID3".utf8)) else { return 0 }
        return prefix.withUnsafeBytes { bytes in
            bytes.indices.first { start in followedByFrames(bytes, at: start) } ?? 0
        }
    }

    private static func followedByFrames(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard let first = header(bytes, at: start) else { return false }
        var position = start + first.length
        var confirmed = 0
        while confirmed < headersInARow - 1, position + 7 <= bytes.count {
            guard let next = header(bytes, at: position), next.fixed == first.fixed else { return false }
            confirmed += 1
            position += next.length
        }
        return confirmed > 0
    }

    /// A plausible ADTS header at `offset`: its frame length and the fields every frame of a stream shares.
    private static func header(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (length: Int, fixed: [UInt8])? {
        guard offset + 7 <= bytes.count else { return nil }
        let header = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 7])
        guard let length = FrameIntegrity.adtsFrameLength(header), length >= 7,
              (header[2] >> 2) & 0xF <= 12 else { return nil }  // sampling-frequency indexes 13–15 are not used
        // ID, layer, profile, sampling frequency, channel configuration: fixed for the whole stream.
        return (length, [header[1], header[2] & 0xFD, header[3] & 0xC0])
    }
}
