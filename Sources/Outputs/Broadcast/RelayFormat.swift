import Media

/// What a relay sends: the station's own codec bytes, or a re-encoding. Written `copy` or as an
/// `AudioEncoding` (`mp3:128`, `aac`, `opus:96`, `vorbis`, `flac`, `wav`).
public enum RelayFormat: Sendable, Equatable, CustomStringConvertible {
    case copy
    case encode(AudioEncoding)

    public init?(_ text: String) {
        if text.lowercased() == "copy" {
            self = .copy
        } else if let encoding = AudioEncoding(text) {
            self = .encode(encoding)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .copy: return "copy"
        case .encode(let encoding): return encoding.description
        }
    }
}
