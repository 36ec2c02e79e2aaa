import CFFmpeg
import Foundation

/// Where a container's bytes go.
public enum ContainerOutput: Sendable {
    /// A live byte stream (an HTTP listener, an Icecast source connection): not seekable.
    case stream(@Sendable (UnsafeRawBufferPointer) throws -> Void)
    /// A file, seekable, so headers and indexes are completed at the end.
    case file(path: String)
}

/// A libavformat muxer with one audio stream, writing to a file or to a byte callback.
final class ContainerWriter {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private var sink: Unmanaged<ByteCallback>?
    private var finished = false
    // Timestamp continuity, in the stream's time base.
    private var shiftPending = true
    private var shift: Int64 = 0
    private var nextDTS: Int64 = 0
    private var lastDTS: Int64?

    /// `chapters` go into the header (ID3v2 CHAP/CTOC, Vorbis comments) or the index (MP4), as the muxer does it.
    init(container: AudioContainer, parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational,
         metadata: [String: String], chapters: [Chapter] = [], output: ContainerOutput) throws {
        var context: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&context, nil, container.muxerName, nil)
        guard result >= 0, let context else { throw MediaError("cannot create a \(container) muxer", code: result) }
        self.context = context
        guard let stream = avformat_new_stream(context, nil) else {
            avformat_free_context(context)
            throw MediaError("cannot add a stream to the \(container) muxer")
        }
        self.stream = stream
        avcodec_parameters_copy(stream.pointee.codecpar, parameters)
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
        for (key, value) in metadata { av_dict_set(&context.pointee.metadata, key, value, 0) }
        if container == .flac {
            for (key, value) in Chapter.vorbisComments(chapters) { av_dict_set(&context.pointee.metadata, key, value, 0) }
        }
        do {
            try Chapter.attach(chapters, to: context)
        } catch {
            avformat_free_context(context)
            self.context = nil
            throw error
        }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch output {
        case .file(let path):
            result = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
            guard result >= 0 else {
                avformat_free_context(context)
                self.context = nil
                throw MediaError("cannot create \(path)", code: result)
            }
            // The MP4 muxer reopens the file by name to move its index up front.
            context.pointee.url = av_strdup(path)
            // A finished file: the MP4 index up front so players start at once; ID3v2.3, which every
            // player reads (v2.4 is FFmpeg's default, unknown to some car radios and Windows).
            av_dict_set(&options, "movflags", "+faststart", 0)
            av_dict_set(&options, "id3v2_version", "3", 0)
        case .stream(let write):
            let sink = Unmanaged.passRetained(ByteCallback(write))
            self.sink = sink
            let size: Int32 = 4096
            guard let buffer = av_malloc(Int(size)),
                  let io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 1, sink.toOpaque(),
                                              nil, containerWrite, nil) else {
                throw MediaError("cannot allocate the output AVIO context")
            }
            io.pointee.seekable = 0
            context.pointee.pb = io
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            // Fragments let a listener play MP4 while it is being written; no Xing header in a live MP3.
            av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
            av_dict_set(&options, "write_xing", "0", 0)
            // Each packet leaves at once and whole: a listener gets it without delay, and a recording's
            // partial file can be cut back to the last complete packet should the disk fill up.
            av_dict_set(&options, "flush_packets", "1", 0)
        }
        result = avformat_write_header(context, &options)
        guard result >= 0 else {
            close()
            throw MediaError("cannot write the \(container) header", code: result)
        }
    }

    deinit { close() }

    /// The next packet starts a new run (after a reconnect): its timestamps restart, so they are
    /// shifted to continue where the previous run ended.
    func beginRun() { shiftPending = true }

    /// Writes one packet; the caller's packet is left as it was (a new reference is written).
    func write(_ packet: EncodedPacket) throws {
        let reference = try OwnedPacket(referencing: packet.packet)
        let copy = reference.pointer
        copy.pointee.stream_index = 0
        av_packet_rescale_ts(copy, packet.timeBase, stream.pointee.time_base)
        makeContinuous(copy)
        let result = av_write_frame(context, copy)
        try throwIfOutputFailed()
        guard result >= 0 else { throw MediaError("cannot write a packet", code: result) }
    }

    /// Timestamps increase without jumps: a new run is shifted to follow the last packet, and a packet
    /// that would go backwards within a run (a broken stream) is moved just after its predecessor.
    private func makeContinuous(_ packet: UnsafeMutablePointer<AVPacket>) {
        let nopts = onair_av_nopts_value()
        var dts = packet.pointee.dts != nopts ? packet.pointee.dts : packet.pointee.pts
        if dts == nopts { dts = nextDTS }
        if shiftPending {
            shift = nextDTS - dts
            shiftPending = false
        }
        dts += shift
        if let lastDTS, dts <= lastDTS { dts = lastDTS + 1 }
        let ptsOffset = packet.pointee.pts != nopts && packet.pointee.dts != nopts ? packet.pointee.pts - packet.pointee.dts : 0
        packet.pointee.dts = dts
        packet.pointee.pts = dts + ptsOffset
        lastDTS = dts
        nextDTS = dts + max(packet.pointee.duration, 1)
    }

    /// Sends on what the muxer holds back (an Ogg page it is filling), so that the output holds all the
    /// audio written so far.
    func flush() throws {
        guard !finished, let context, context.pointee.oformat.pointee.flags & AVFMT_ALLOW_FLUSH != 0 else { return }
        let result = av_write_frame(context, nil)
        try throwIfOutputFailed()
        guard result >= 0 else { throw MediaError("cannot flush the container", code: result) }
    }

    /// Completes the container (trailer, indexes) and closes the output.
    func finish() throws {
        guard !finished, let context else { return }
        finished = true
        let result = av_write_trailer(context)
        avio_flush(context.pointee.pb)
        try throwIfOutputFailed()
        guard result >= 0 else { throw MediaError("cannot complete the container", code: result) }
    }

    private func throwIfOutputFailed() throws {
        if let failure = sink?.takeUnretainedValue().failure { throw failure }
    }

    private func close() {
        guard let context else { return }
        if let sink {
            if let io = context.pointee.pb {
                av_freep(&io.pointee.buffer)
                var pointer: UnsafeMutablePointer<AVIOContext>? = io
                avio_context_free(&pointer)
            }
            sink.release()
            self.sink = nil
        } else {
            avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
        self.context = nil
    }
}

/// The Swift side of a write-only AVIO context; keeps the first error the callback threw.
private final class ByteCallback {
    let write: @Sendable (UnsafeRawBufferPointer) throws -> Void
    var failure: Error?

    init(_ write: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void) { self.write = write }
}

private let containerWrite: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
    guard let opaque, let buffer else { return onair_averror(EINVAL) }
    let sink = Unmanaged<ByteCallback>.fromOpaque(opaque).takeUnretainedValue()
    guard sink.failure == nil else { return onair_averror(EIO) }
    do {
        try sink.write(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
        return size
    } catch {
        sink.failure = error
        return onair_averror(EIO)
    }
}
