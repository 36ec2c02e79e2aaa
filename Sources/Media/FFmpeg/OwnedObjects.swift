import CFFmpeg

/// An `AVPacket` owned by this object: allocated with it, freed with it — the only place onair
/// pairs `av_packet_alloc` (or `av_packet_clone`) with `av_packet_free`. Used on one thread at a time.
public final class OwnedPacket {
    public let pointer: UnsafeMutablePointer<AVPacket>

    public init() throws {
        guard let pointer = av_packet_alloc() else { throw MediaError("cannot allocate a packet") }
        self.pointer = pointer
    }

    /// A new reference to `source`'s data: no copy of the payload.
    init(referencing source: UnsafePointer<AVPacket>) throws {
        guard let pointer = av_packet_clone(source) else { throw MediaError("cannot reference a packet") }
        self.pointer = pointer
    }

    deinit {
        var owned: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&owned)
    }
}

/// An `AVFrame` owned by this object, as `OwnedPacket` owns a packet.
public final class OwnedFrame {
    public let pointer: UnsafeMutablePointer<AVFrame>

    public init() throws {
        guard let pointer = av_frame_alloc() else { throw MediaError("cannot allocate a frame") }
        self.pointer = pointer
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&owned)
    }
}

/// An output `AVFormatContext` owned by this object, for a muxer or device with no file of its own
/// to close (an audio device's): freed with the object.
public final class OwnedOutputContext {
    public let pointer: UnsafeMutablePointer<AVFormatContext>

    public init(format: UnsafePointer<AVOutputFormat>, url: String) throws {
        var created: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_alloc_output_context2(&created, format, nil, url)
        guard status >= 0, let created else { throw MediaError("cannot allocate an output", code: status) }
        pointer = created
    }

    deinit { avformat_free_context(pointer) }

    /// Writes the header with these muxer or device options; returns FFmpeg's status.
    public func writeHeader(options: [String: String]) -> Int32 {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        return avformat_write_header(pointer, &dictionary)
    }
}
