/// What to re-encode to, written like `mp3`, `mp3:192`, `aac:128`, `opus:96`, `vorbis`, `flac`, `wav`
/// (a number is the bitrate in kbit/s).
public enum AudioEncoding: Sendable, Equatable, CustomStringConvertible {
    case mp3(kbps: Int)
    case aac(kbps: Int)
    case opus(kbps: Int)
    case vorbis(kbps: Int)
    case flac
    case wav

    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first else { return nil }
        let kbps = parts.count > 1 ? Int(parts[1]) : nil
        if parts.count > 1 && (kbps == nil || !(8...512).contains(kbps!)) { return nil }
        switch name {
        case "mp3": self = .mp3(kbps: kbps ?? 192)
        case "aac": self = .aac(kbps: kbps ?? 128)
        case "opus": self = .opus(kbps: kbps ?? 96)
        case "vorbis": self = .vorbis(kbps: kbps ?? 128)
        case "flac" where kbps == nil: self = .flac
        case "wav" where kbps == nil: self = .wav
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .mp3(let kbps): return "mp3:\(kbps)"
        case .aac(let kbps): return "aac:\(kbps)"
        case .opus(let kbps): return "opus:\(kbps)"
        case .vorbis(let kbps): return "vorbis:\(kbps)"
        case .flac: return "flac"
        case .wav: return "wav"
        }
    }

    /// FFmpeg's encoder.
    var encoderName: String {
        switch self {
        case .mp3: return "libmp3lame"
        case .aac: return "aac"
        case .opus: return "libopus"
        case .vorbis: return "libvorbis"
        case .flac: return "flac"
        case .wav: return "pcm_s16le"
        }
    }

    var bitRate: Int? {
        switch self {
        case .mp3(let kbps), .aac(let kbps), .opus(let kbps), .vorbis(let kbps): return kbps * 1000
        case .flac, .wav: return nil
        }
    }

    /// The container this encoding goes into by default: one a live listener can play as it arrives.
    public var streamContainer: AudioContainer {
        switch self {
        case .mp3: return .mp3
        case .aac: return .adts
        case .opus, .vorbis: return .ogg
        case .flac: return .flac
        case .wav: return .wav
        }
    }
}
