import CFFmpeg

/// What libavformat may read for onair: audio containers only, and no protocol but onair's own I/O.
/// Without it libavformat probes any of its hundreds of formats, and some open more input themselves: a
/// stream body `ffconcat version 1.0` plays files from the working directory, an SDP body binds UDP
/// ports, an HLS playlist fetches its segments past onair's transfer engine. Every `avformat_open_input`
/// goes through `open` here.
enum InputPolicy {
    /// The demuxers of the audio onair plays and records: MP3, ADTS/LATM AAC, (E-)AC-3, DTS, Ogg
    /// (Vorbis, Opus, FLAC), FLAC, WAV/W64/AIFF/CAF, WavPack, WMA (ASF), and the segment containers of
    /// HLS and DASH (MPEG-TS, fMP4, WebM). Playlists, scripts and network descriptions (hls, dash,
    /// concat, ffconcat, sdp, rtsp, image and subtitle formats) are not among them.
    static let audioFormats = ["mp3", "aac", "loas", "ac3", "eac3", "dts", "ogg", "flac", "wav", "w64", "aiff", "caf", "wv",
                               "asf", "mpegts", "mov", "matroska"]

    /// Whether a demuxer (its name may list several: "mov,mp4,m4a,3gp,3g2,mj2") is one of `audioFormats`.
    static func admits(_ format: UnsafePointer<AVInputFormat>) -> Bool {
        String(cString: format.pointee.name).split(separator: ",").contains { audioFormats.contains(String($0)) }
    }

    /// The refusal of a format that is not audio, in one line naming it.
    static func refusal(_ format: UnsafePointer<AVInputFormat>, of what: String) -> MediaError {
        let long = format.pointee.long_name.map { String(cString: $0) } ?? String(cString: format.pointee.name)
        return MediaError("\(what) is \(long) (\(String(cString: format.pointee.name))), not audio onair reads")
    }

    /// `avformat_open_input` under the policy: the format whitelist, and the protocols allowed — only
    /// `file` for a file on disk (opened as `file:PATH`, so a file named `concat:a|b` or `subfile:…` is a
    /// file, not a protocol), none at all for onair's own I/O (the live queue, a remote file read through
    /// the transfer engine), nested opens included.
    static func open(_ context: inout UnsafeMutablePointer<AVFormatContext>?, path: String?,
                     format: UnsafePointer<AVInputFormat>?) -> Int32 {
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "format_whitelist", audioFormats.joined(separator: ","), 0)
        // An empty list admits nothing: libavformat checks every protocol it opens against it.
        av_dict_set(&options, "protocol_whitelist", path == nil ? "" : "file", 0)
        return avformat_open_input(&context, path.map { "file:" + $0 } ?? "", format, &options)
    }
}
