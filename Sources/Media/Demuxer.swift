import CFFmpeg
import Foundation
import RadioModel
import StreamInput

/// libavformat over one ingest run (or a file on disk, or on a web server): finds the audio stream and
/// hands out its packets.
final class Demuxer {
    /// Bytes looked at to check the Content-Type's claim before trusting it.
    static let probeBytes = 4096

    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    /// The custom input kept alive while libavformat reads it: the live byte queue's bridge or a remote
    /// file's range reader; nil for a file on disk, which libavformat reads (and seeks) itself.
    private let io: AnyObject?
    let streamIndex: Int32
    /// The demuxer's name, e.g. "mp3".
    let formatName: String
    /// Bytes of the run left out in front of the demuxer's input: packet positions count from the run's start.
    private let positionOffset: Int64

    /// Opens the stream. `hint` is the demuxer the Content-Type suggests ("mp3", "aac", "ogg", ...):
    /// with it, libavformat skips most of its probing, which is what makes the first PCM byte quick.
    /// A confident probe of the first bytes overrules a hint that lies.
    init(queue: ByteQueue, hint: String?, mimeType: String?) throws {
        let io = try AVIOBridge(queue: queue)
        self.io = io
        let prefix = queue.peek(upTo: Self.probeBytes)
        let format = Self.chooseFormat(prefix: prefix, hint: hint, mimeType: mimeType)
        if let format, !InputPolicy.admits(format) { throw InputPolicy.refusal(format, of: "the stream") }
        if let format, String(cString: format.pointee.name) == "aac" {
            // The demuxer starts on a real frame (see ADTSAlignment); what lies before is part of a
            // frame sent before this connection began, of no use to anyone.
            let skipped = ADTSAlignment.bytesBeforeFirstFrame(prefix)
            var scratch = [UInt8](repeating: 0, count: skipped)
            if skipped > 0 { _ = scratch.withUnsafeMutableBytes { queue.read(into: $0) } }
            positionOffset = Int64(skipped)
        } else {
            positionOffset = 0
        }
        guard let allocated = avformat_alloc_context() else { throw MediaError("cannot allocate a format context") }
        allocated.pointee.pb = io.context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        allocated.pointee.probesize = 64 * 1024
        allocated.pointee.max_analyze_duration = 500_000
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let opened = InputPolicy.open(&context, path: nil, format: format)
        guard opened >= 0, let context else {
            throw MediaError("no audio format recognised in the stream", code: opened)
        }
        self.context = context
        var index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        if index < 0 {
            // Formats like MPEG-TS may only announce their streams once packets were read.
            avformat_find_stream_info(context, nil)
            index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        }
        guard index >= 0 else {
            avformat_close_input(&self.context)
            throw MediaError("the stream has no audio track", code: index)
        }
        streamIndex = index
        formatName = String(cString: context.pointee.iformat.pointee.name)
    }

    /// Opens a file for playing on demand: probed fully (a recording's duration and chapters are
    /// wanted, not a quick first byte) and seekable.
    convenience init(path: String) throws {
        try self.init(opening: path, remote: nil)
    }

    /// Opens a file on a web server for playing on demand, read with range requests: seeking fetches
    /// only the pieces it lands on.
    convenience init(remote file: RemoteFile) throws {
        try self.init(opening: URLRedaction.redact(file.url), remote: try RemoteFileIO(file: file))
    }

    private init(opening path: String, remote: RemoteFileIO?) throws {
        io = remote
        positionOffset = 0
        let context: UnsafeMutablePointer<AVFormatContext>
        if let remote {
            guard let allocated = avformat_alloc_context() else { throw MediaError("cannot allocate a format context") }
            allocated.pointee.pb = remote.context
            // Seek by the file's table of contents or its constant bitrate: an exact seek would read every
            // packet from the start to build an index, which over the network is the download it avoids.
            allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_FAST_SEEK
            var opening: UnsafeMutablePointer<AVFormatContext>? = allocated
            let opened = InputPolicy.open(&opening, path: nil, format: nil)
            guard opened >= 0, let opening else {
                throw MediaError("cannot open \(path)" + (remote.failure.map { ": \($0.message)" } ?? ""), code: opened)
            }
            context = opening
        } else {
            context = try InputFile.open(path)
        }
        self.context = context
        avformat_find_stream_info(context, nil)
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0 else {
            avformat_close_input(&self.context)
            throw MediaError("\(path) has no audio track", code: index)
        }
        streamIndex = index
        formatName = String(cString: context.pointee.iformat.pointee.name)
    }

    deinit { avformat_close_input(&context) }

    /// A title carried inside the stream itself (Ogg comments, ID3 in MP3), once when it is new.
    /// Icecast passes Ogg titles this way rather than as ICY metadata.
    func takeInStreamTitle() -> String? {
        guard let context else { return nil }
        let streamFlags = stream.pointee.event_flags & AVSTREAM_EVENT_FLAG_METADATA_UPDATED
        let formatFlags = context.pointee.event_flags & AVFMT_EVENT_FLAG_METADATA_UPDATED
        guard !checkedInitialTitle || streamFlags != 0 || formatFlags != 0 else { return nil }
        checkedInitialTitle = true
        stream.pointee.event_flags &= ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED
        context.pointee.event_flags &= ~AVFMT_EVENT_FLAG_METADATA_UPDATED
        for metadata in [stream.pointee.metadata, context.pointee.metadata] {
            let title = Self.value(metadata, "title")
            let artist = Self.value(metadata, "artist")
            switch (artist, title) {
            case let (artist?, title?): return "\(artist) - \(title)"
            case let (nil, title?): return title
            default: continue
            }
        }
        return nil
    }

    private var checkedInitialTitle = false

    private static func value(_ dictionary: OpaquePointer?, _ key: String) -> String? {
        guard let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else { return nil }
        // Comments inside the stream are the station's words, as untrusted as an ICY title (UntrustedText).
        let text = UntrustedText.printable(String(cString: value)).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    var stream: UnsafeMutablePointer<AVStream> { context!.pointee.streams[Int(streamIndex)]! }

    /// What a packet `read` returned carries.
    enum Payload {
        case audio
        /// ID3 tags in their own stream: HLS now-playing titles in MPEG-TS.
        case timedID3
    }

    /// Reads the next packet of the audio stream or of a timed-ID3 stream; nil at the end of the run.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws -> Payload? {
        while true {
            let result = av_read_frame(context, packet)
            if result == onair_averror_eof() { return nil }
            if result < 0 { throw MediaError("cannot read from the stream", code: result) }
            if packet.pointee.pos >= 0 { packet.pointee.pos += positionOffset }
            let index = packet.pointee.stream_index
            if index == streamIndex { return .audio }
            // MPEG-TS may announce streams mid-way, so the codec is looked up per packet.
            if let context, index >= 0, index < context.pointee.nb_streams,
               context.pointee.streams[Int(index)]!.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_TIMED_ID3 {
                return .timedID3
            }
            av_packet_unref(packet)
        }
    }

    private static func chooseFormat(prefix: [UInt8], hint: String?, mimeType: String?) -> UnsafePointer<AVInputFormat>? {
        let hinted = hint.flatMap { av_find_input_format($0) }
        guard !prefix.isEmpty else { return hinted }
        let (probed, score) = probe(prefix, mimeType: mimeType)
        guard let hinted else { return probed }
        if let probed, probed != hinted, score >= AVPROBE_SCORE_MAX / 4 { return probed }
        return hinted
    }

    /// The format libavformat takes `prefix` for, and how sure it is (up to AVPROBE_SCORE_MAX).
    static func probe(_ prefix: [UInt8], mimeType: String?) -> (format: UnsafePointer<AVInputFormat>?, score: Int32) {
        guard !prefix.isEmpty else { return (nil, 0) }
        var padded = prefix + [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE))
        var score: Int32 = 0
        let probed: UnsafePointer<AVInputFormat>? = padded.withUnsafeMutableBufferPointer { buffer in
            "".withCString { filename in
                (mimeType ?? "").withCString { mime in
                    var data = AVProbeData(filename: filename, buf: buffer.baseAddress, buf_size: Int32(prefix.count),
                                           mime_type: mime)
                    return av_probe_input_format3(&data, 1, &score)
                }
            }
        }
        return (probed, score)
    }
}
