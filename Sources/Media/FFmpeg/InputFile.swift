import CFFmpeg
import Foundation

/// A file on disk opened in libavformat, as on-demand playing (Demuxer) and remuxing (ContainerRemux)
/// open it. Raw ADTS is read from its first real frame, as a live stream is (see ADTSAlignment): a
/// stream saved as it came can start mid-frame, on a false sync word.
enum InputFile {
    static func open(_ path: String) throws -> UnsafeMutablePointer<AVFormatContext> {
        var context: UnsafeMutablePointer<AVFormatContext>?
        var result = InputPolicy.open(&context, path: path, format: nil)
        guard result >= 0, let opened = context else { throw refusal(path) ?? MediaError("cannot open \(path)", code: result) }
        let format = opened.pointee.iformat!
        guard String(cString: format.pointee.name) == "aac", let skipped = bytesBeforeFirstFrame(path), skipped > 0 else { return opened }
        avformat_close_input(&context)
        // libavformat skips them once it has probed the start, before the demuxer looks for a frame.
        guard let reopened = avformat_alloc_context() else { throw MediaError("cannot allocate a format context") }
        reopened.pointee.skip_initial_bytes = Int64(skipped)
        context = reopened
        result = InputPolicy.open(&context, path: path, format: format)
        guard result >= 0, let context else { throw MediaError("cannot open \(path)", code: result) }
        return context
    }

    /// Why a file libavformat would read as something other than audio was refused; nil when it is not that.
    private static func refusal(_ path: String) -> MediaError? {
        guard let prefix = prefix(path), let format = Demuxer.probe(prefix, mimeType: nil).format, !InputPolicy.admits(format) else { return nil }
        return InputPolicy.refusal(format, of: path)
    }

    /// The file's first bytes, as many as the demuxer probes.
    private static func prefix(_ path: String) -> [UInt8]? {
        guard let file = FileHandle(forReadingAtPath: path), let prefix = try? file.read(upToCount: Demuxer.probeBytes) else { return nil }
        try? file.close()
        return [UInt8](prefix)
    }

    private static func bytesBeforeFirstFrame(_ path: String) -> Int? {
        prefix(path).map(ADTSAlignment.bytesBeforeFirstFrame)
    }
}
