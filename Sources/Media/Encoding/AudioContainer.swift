import CFFmpeg

/// Containers onair writes.
public enum AudioContainer: String, Sendable, CaseIterable {
    case mp3, adts, ogg, flac, wav
    /// MP4/M4A: fragmented when written to a stream, so it plays before it ends.
    case mp4

    /// FFmpeg's muxer name.
    var muxerName: String { self == .mp4 ? "ipod" : rawValue }

    public var fileExtension: String {
        switch self {
        case .mp3: return "mp3"
        case .adts: return "aac"
        case .ogg: return "ogg"
        case .flac: return "flac"
        case .wav: return "wav"
        case .mp4: return "m4a"
        }
    }

    public var contentType: String {
        switch self {
        case .mp3: return "audio/mpeg"
        case .adts: return "audio/aac"
        case .ogg: return "audio/ogg"
        case .flac: return "audio/flac"
        case .wav: return "audio/wav"
        case .mp4: return "audio/mp4"
        }
    }

    /// Whether the codec must put its setup into the container header (MP4's esds) rather than the stream.
    var wantsGlobalHeader: Bool {
        guard let format = av_guess_format(muxerName, nil, nil) else { return false }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }
}
