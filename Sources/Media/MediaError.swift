import CFFmpeg

/// A failure inside FFmpeg, with FFmpeg's own words for it.
public struct MediaError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// "what: FFmpeg's explanation of code".
    public init(_ what: String, code: Int32) {
        var buffer = [CChar](repeating: 0, count: 256)
        let text = buffer.withUnsafeMutableBufferPointer { pointer -> String in
            String(cString: onair_av_err2str(code, pointer.baseAddress, pointer.count))
        }
        message = "\(what): \(text)"
    }

    public var description: String { message }
}

/// FFmpeg prints to stderr unless told otherwise; onair reports problems itself.
public enum FFmpegLogging {
    public static func configure(verbose: Bool) {
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
    }
}
