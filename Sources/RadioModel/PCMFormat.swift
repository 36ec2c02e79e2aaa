/// The PCM that sinks receive, in Snapcast's notation "RATE:BITS:CHANNELS".
public struct PCMFormat: Sendable, Equatable, CustomStringConvertible {
    public var sampleRate: Int
    /// 16, 24 or 32 (signed integer, little-endian, interleaved; 24 is packed in 3 bytes).
    public var bitsPerSample: Int
    public var channels: Int

    public static let snapcastDefault = PCMFormat(sampleRate: 48000, bitsPerSample: 16, channels: 2)

    public init(sampleRate: Int, bitsPerSample: Int, channels: Int) {
        self.sampleRate = sampleRate; self.bitsPerSample = bitsPerSample; self.channels = channels
    }

    /// Parses "48000:16:2". Returns nil for anything a sink cannot take.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let rate = Int(parts[0]), let bits = Int(parts[1]), let channels = Int(parts[2]),
              (8000...384_000).contains(rate), [16, 24, 32].contains(bits), (1...8).contains(channels)
        else { return nil }
        self.init(sampleRate: rate, bitsPerSample: bits, channels: channels)
    }

    public var bytesPerFrame: Int { bitsPerSample / 8 * channels }
    public var bytesPerSecond: Int { bytesPerFrame * sampleRate }
    public var description: String { "\(sampleRate):\(bitsPerSample):\(channels)" }
}
