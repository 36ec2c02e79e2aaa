import Foundation

/// The media type of a recording's file, by its extension: what its audio is served and enclosed as.
public enum AudioFileType {
    public static func mimeType(of file: String) -> String {
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "mp3": return "audio/mpeg"
        case "m4a", "mp4": return "audio/mp4"
        case "aac": return "audio/aac"
        case "ogg", "oga": return "audio/ogg"
        case "opus": return "audio/ogg; codecs=opus"
        case "flac": return "audio/flac"
        case "ts": return "video/mp2t"
        case "wav": return "audio/wav"
        default: return "application/octet-stream"
        }
    }
}
