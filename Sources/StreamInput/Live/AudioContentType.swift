import Foundation

/// What an HTTP Content-Type says about the bytes behind it.
public enum AudioContentType {
    /// The FFmpeg demuxer to try first for a media type, so probing can be skipped: "mp3", "aac"
    /// (ADTS), "ogg", "mpegts", "flac", "mov" (fMP4 segments). nil when the type says nothing useful.
    public static func demuxerHint(for mediaType: String?) -> String? {
        switch mediaType {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg": return "mp3"
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/x-aacp", "audio/adts": return "aac"
        case "application/ogg", "audio/ogg", "audio/x-ogg", "audio/opus", "audio/vorbis": return "ogg"
        case "video/mp2t", "video/mpeg2-ts", "audio/mp2t": return "mpegts"
        case "audio/flac", "audio/x-flac": return "flac"
        case "audio/mp4", "video/mp4", "audio/x-m4a", "video/iso.segment": return "mov"
        case "audio/webm", "video/webm": return "matroska"
        case "audio/ac3": return "ac3"
        case "audio/eac3": return "eac3"
        default: return nil
        }
    }

    /// The media type an HLS or DASH segment's file extension stands for. Servers often send segments as
    /// application/octet-stream; the extension is then the better hint.
    public static func mediaType(forSegmentPath path: String) -> String? {
        switch (path as NSString).pathExtension.lowercased() {
        case "ts": return "video/mp2t"
        case "aac", "adts": return "audio/aac"
        case "mp3": return "audio/mpeg"
        case "m4s", "mp4", "m4a", "cmfa": return "audio/mp4"
        case "webm": return "audio/webm"
        case "ac3": return "audio/ac3"
        case "ec3": return "audio/eac3"
        default: return nil
        }
    }

    /// The codec a media type usually means, for display before anything is decoded.
    public static func likelyCodec(for mediaType: String?) -> String? {
        switch demuxerHint(for: mediaType) {
        case "mp3": return "mp3"
        case "aac": return "aac"
        case "flac": return "flac"
        case "ogg": return mediaType == "audio/opus" ? "opus" : (mediaType == "audio/vorbis" ? "vorbis" : nil)
        default: return nil
        }
    }

    /// Media types that are playlists rather than audio: PLS, M3U and HLS, DASH, ASX (several spellings,
    /// video/x-ms-asf included: web servers send .asx with the type of the media it lists), XSPF, RealAudio
    /// metafiles.
    public static func isPlaylist(_ mediaType: String?) -> Bool {
        guard let mediaType else { return false }
        return playlistMediaTypes.contains(mediaType)
    }

    private static let playlistMediaTypes: Set<String> = [
        "audio/x-scpls", "audio/scpls", "application/pls+xml", "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl",
        "application/vnd.apple.mpegurl", "application/vnd.apple.mpegurl.audio", "application/dash+xml",
        "video/x-ms-asf", "video/x-ms-asx", "audio/x-ms-asx", "audio/x-ms-wax", "video/x-ms-wvx", "video/x-ms-wmx",
        "application/x-ms-asx", "application/xspf+xml", "audio/x-pn-realaudio", "audio/x-pn-realaudio-plugin",
    ]

    /// Media types that certainly are not a stream (an HTML page, a JSON error).
    public static func isNotAudio(_ mediaType: String?) -> Bool {
        guard let mediaType else { return false }
        return mediaType.hasPrefix("text/html") || mediaType == "application/json" || mediaType.hasPrefix("image/")
    }
}
