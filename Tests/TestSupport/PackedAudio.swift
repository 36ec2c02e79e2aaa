import Foundation

/// Builds what HLS packed audio is made of (RFC 8216 §3.4): ADTS frames cut into segments, each
/// starting with an ID3v2 tag that carries the PRIV transport-stream timestamp and, on stations
/// that send titles this way, TIT2/TPE1/TXXX frames.
public enum PackedAudio {
    /// The ADTS frames of an AAC file, each whole (header included).
    public static func adtsFrames(_ data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var frames: [Data] = []
        var offset = 0
        while offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF0 == 0xF0 {
            let length = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            guard length >= 7, offset + length <= bytes.count else { break }
            frames.append(Data(bytes[offset..<offset + length]))
            offset += length
        }
        return frames
    }

    /// An ID3v2.4 tag with the Apple PRIV timestamp (90 kHz), and a title, an artist and TXXX frames if given.
    public static func id3(timestamp90kHz: UInt64, title: String? = nil, artist: String? = nil,
                           userText: [(description: String, value: String)] = []) -> Data {
        var frames = Data()
        let owner = Data("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
        frames += frame("PRIV", owner + withUnsafeBytes(of: (timestamp90kHz & 0x1_FFFF_FFFF).bigEndian) { Data($0) })
        if let title { frames += frame("TIT2", [3] + Data(title.utf8)) }
        if let artist { frames += frame("TPE1", [3] + Data(artist.utf8)) }
        for (description, value) in userText {
            frames += frame("TXXX", [3] + Data(description.utf8) + [0] + Data(value.utf8))
        }
        return Data("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames
    }

    private static func frame(_ id: String, _ content: Data) -> Data {
        Data(id.utf8) + syncsafe(content.count) + [0, 0] + content
    }

    private static func syncsafe(_ value: Int) -> Data {
        Data([UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)])
    }
}
