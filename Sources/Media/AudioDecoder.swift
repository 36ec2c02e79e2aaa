import CFFmpeg

/// libavcodec decoder for one audio stream.
final class AudioDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    let codecName: String

    init(stream: UnsafeMutablePointer<AVStream>) throws {
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError("no decoder for codec \(String(cString: avcodec_get_name(parameters.pointee.codec_id)))")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw MediaError("cannot allocate a decoder") }
        self.context = context
        var result = avcodec_parameters_to_context(context, parameters)
        guard result >= 0 else { throw MediaError("cannot configure the decoder", code: result) }
        context.pointee.pkt_timebase = stream.pointee.time_base
        result = avcodec_open2(context, codec, nil)
        guard result >= 0 else { throw MediaError("cannot open the \(String(cString: codec.pointee.name)) decoder", code: result) }
        // The codec's name ("mp3"), not the decoder's ("mp3float").
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
    }

    deinit { avcodec_free_context(&context) }

    var bitRate: Int64 { context?.pointee.bit_rate ?? 0 }

    /// Forgets buffered packets and frames: after a seek, decoding starts afresh.
    func flush() { avcodec_flush_buffers(context) }

    /// Decodes one packet (nil drains the decoder) and passes every frame it yields to `body`.
    /// A corrupt packet is reported by throwing; the decoder stays usable.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>?, frame: UnsafeMutablePointer<AVFrame>,
                body: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        let sent = avcodec_send_packet(context, packet)
        if sent < 0 && sent != onair_averror_eof() && sent != onair_averror_eagain() {
            throw MediaError("cannot decode a packet", code: sent)
        }
        while true {
            let received = avcodec_receive_frame(context, frame)
            if received == onair_averror_eagain() || received == onair_averror_eof() { return }
            if received < 0 { throw MediaError("cannot decode a frame", code: received) }
            defer { av_frame_unref(frame) }
            try body(frame)
        }
    }
}
