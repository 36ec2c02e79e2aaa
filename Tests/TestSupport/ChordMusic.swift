import Foundation

/// Music of three-note chords with their second harmonics, a new chord every quarter second, the notes drawn
/// from a seed over three octaves: reproducible, and as distinct from another seed's as two pieces are. What
/// the clip tests fingerprint: tones alone give Chromaprint little to tell apart.
public struct ChordMusic: Sendable {
    public let seed: UInt64
    /// Samples per second of what `samples` makes (mono, 16-bit).
    public let sampleRate: Int

    public init(seed: UInt64, sampleRate: Int = 11025) {
        self.seed = seed
        self.sampleRate = sampleRate
    }

    public func samples(seconds: Double) -> [Int16] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        let rate = Double(sampleRate), count = Int(seconds * rate), chordLength = sampleRate / 4
        var samples = [Int16](repeating: 0, count: count)
        var frequencies = [Double](repeating: 0, count: 3)
        for index in 0..<count {
            if index % chordLength == 0 { frequencies = frequencies.map { _ in 110 * pow(2, Double(next() % 36) / 12) } }
            let time = Double(index) / rate
            let value = frequencies.reduce(0.0) { $0 + sin(2 * .pi * $1 * time) + 0.5 * sin(4 * .pi * $1 * time) }
            samples[index] = Int16(value * 4000)
        }
        return samples
    }
}

extension ChordMusic {
    /// `samples` (mono, at `sampleRate`) encoded by FFmpeg's command line into `file` as 44.1 kHz stereo with
    /// `options` (codec, bit rate, filters; none: as the file's extension says).
    public static func encode(_ samples: [Int16], sampleRate: Int = 11025, to file: URL, options: [String] = []) throws {
        let raw = file.appendingPathExtension("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: raw)
        let result = try ProcessRunner.run("ffmpeg", ["-v", "error", "-f", "s16le", "-ar", "\(sampleRate)", "-ac", "1", "-i", raw.path,
                                                      "-ar", "44100", "-ac", "2"] + options + ["-y", file.path])
        guard result.succeeded else { throw EncodingFailed(description: "ffmpeg could not encode \(file.lastPathComponent): \(result.stderrText)") }
    }
}

/// FFmpeg refused to make a test's audio.
public struct EncodingFailed: Error, CustomStringConvertible {
    public let description: String
}
