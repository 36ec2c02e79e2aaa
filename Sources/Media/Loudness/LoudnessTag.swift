import Foundation

/// A recording's measured loudness as tags: ReplayGain 2.0 (gain to -18 LUFS, and the peak) in ID3v2
/// TXXX frames, Vorbis comments and MP4's iTunes freeform atoms, or Opus's R128_TRACK_GAIN (Q7.8 dB to
/// -23 LUFS, RFC 7845, which forbids ReplayGain tags in Opus). Written when a recording is finalised,
/// read when one is played.
public struct LoudnessTag: Equatable, Sendable {
    public static let replayGainReference = -18.0
    public static let opusReference = -23.0

    /// Integrated loudness, LUFS.
    public var integrated: Double
    /// Sample peak, 1 being full scale, where known.
    public var peak: Double?

    public init(integrated: Double, peak: Double?) {
        self.integrated = integrated
        self.peak = peak
    }

    /// The tags for a file of `codec` in `container`, by the names FFmpeg's muxers write as they are,
    /// and for MP4 as the freeform atoms players read ReplayGain from (`----:com.apple.iTunes:replaygain_track_gain`,
    /// which ContainerRemux writes). None for raw ADTS and WAV (the index still has the loudness).
    public func tags(container: AudioContainer, codec: String) -> [String: String] {
        switch container {
        case .adts, .wav: return [:]
        case .ogg where codec == "opus":
            return ["R128_TRACK_GAIN": String(Int(((Self.opusReference - integrated) * 256).rounded()))]
        case .mp3, .ogg, .flac, .mp4:
            // In MP4 named in lower case, as foobar2000 and mutagen write them.
            let name: (String) -> String = { container == .mp4 ? MP4FreeformTags.keyPrefix + "com.apple.iTunes:" + $0.lowercased() : $0 }
            var tags = [name("REPLAYGAIN_TRACK_GAIN"): String(format: "%.2f dB", Self.replayGainReference - integrated)]
            if let peak { tags[name("REPLAYGAIN_TRACK_PEAK")] = String(format: "%.6f", peak) }
            return tags
        }
    }

    /// The loudness a file's tags give (`value` looks a tag up by name, ignoring case); nil without them.
    public init?(value: (String) -> String?) {
        if let gain = value("REPLAYGAIN_TRACK_GAIN").flatMap(Self.decibels) {
            self.init(integrated: Self.replayGainReference - gain, peak: value("REPLAYGAIN_TRACK_PEAK").flatMap { Double($0) })
        } else if let q78 = value("R128_TRACK_GAIN").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            self.init(integrated: Self.opusReference - Double(q78) / 256, peak: nil)
        } else {
            return nil
        }
    }

    /// "-3.52 dB" → -3.52.
    private static func decibels(_ text: String) -> Double? {
        let number = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "dB", with: "", options: .caseInsensitive)
        return Double(number.trimmingCharacters(in: .whitespaces))
    }
}
