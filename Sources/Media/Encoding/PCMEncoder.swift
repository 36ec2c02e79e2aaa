import CFFmpeg
import Foundation
import RadioModel

/// Encodes the pipeline's PCM with libavcodec and writes it into a container: re-encoding relays,
/// Icecast pushes and recordings in a chosen format. Input frames are gathered in an audio FIFO so the
/// encoder always gets its own frame size.
public final class PCMEncoder: PCMConsumer, @unchecked Sendable {  // `state`: Locked; the frame, packet and writer are used only while it is locked; the rest are lets set in init
    public let label: String
    private let input: PCMFormat
    private struct State {
        var codec: UnsafeMutablePointer<AVCodecContext>?
        var resampler: OpaquePointer?
        var fifo: OpaquePointer?
        var samplesEncoded: Int64 = 0
        var finished = false
    }
    private let state: Locked<State>
    private let ownedFrame: OwnedFrame
    private let ownedPacket: OwnedPacket
    private let writer: ContainerWriter
    private let frameSize: Int32
    private let acceptsShortFrames: Bool

    public init(label: String, input: PCMFormat, encoding: AudioEncoding, container: AudioContainer? = nil,
                metadata: [String: String] = [:], output: ContainerOutput) throws {
        self.label = label
        self.input = input
        let container = container ?? encoding.streamContainer
        guard let encoder = avcodec_find_encoder_by_name(encoding.encoderName) else {
            throw MediaError("this FFmpeg has no \(encoding.encoderName) encoder")
        }
        guard let codec = avcodec_alloc_context3(encoder) else { throw MediaError("cannot allocate an encoder") }
        codec.pointee.sample_fmt = Self.sampleFormat(for: encoder, inputBits: input.bitsPerSample)
        codec.pointee.sample_rate = Self.sampleRate(for: encoder, preferred: Int32(input.sampleRate))
        onair_default_channel_layout(&codec.pointee.ch_layout, Int32(input.channels))
        if let bitRate = encoding.bitRate { codec.pointee.bit_rate = Int64(bitRate) }
        codec.pointee.time_base = AVRational(num: 1, den: codec.pointee.sample_rate)
        if container.wantsGlobalHeader { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var result = avcodec_open2(codec, encoder, nil)
        guard result >= 0 else { throw MediaError("cannot open the \(encoding.encoderName) encoder", code: result) }
        acceptsShortFrames = encoder.pointee.capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE != 0
        frameSize = codec.pointee.frame_size > 0 ? codec.pointee.frame_size : 1024

        var parameters = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&parameters) }
        avcodec_parameters_from_context(parameters, codec)
        writer = try ContainerWriter(container: container, parameters: parameters!, timeBase: codec.pointee.time_base,
                                     metadata: metadata, output: output)

        var inLayout = AVChannelLayout()
        onair_default_channel_layout(&inLayout, Int32(input.channels))
        defer { av_channel_layout_uninit(&inLayout) }
        var resampler: OpaquePointer?
        result = swr_alloc_set_opts2(&resampler, &codec.pointee.ch_layout, codec.pointee.sample_fmt, codec.pointee.sample_rate,
                                     &inLayout, input.bitsPerSample == 16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_S32,
                                     Int32(input.sampleRate), 0, nil)
        guard result >= 0, swr_init(resampler) >= 0 else { throw MediaError("cannot set up the encoder's resampler", code: result) }
        let fifo = av_audio_fifo_alloc(codec.pointee.sample_fmt, Int32(input.channels), frameSize * 4)
        state = Locked(State(codec: codec, resampler: resampler, fifo: fifo))
        ownedFrame = try OwnedFrame()
        ownedPacket = try OwnedPacket()
        guard fifo != nil else { throw MediaError("cannot allocate encoder buffers") }
    }

    deinit {
        state.withLock { state in
            avcodec_free_context(&state.codec)
            swr_free(&state.resampler)
            av_audio_fifo_free(state.fifo)
        }
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            guard !state.finished else { return }
            let frames = pcm.count / input.bytesPerFrame
            if input.bitsPerSample == 24 {
                try Self.widen24(pcm).withUnsafeBytes { try resample(&state, $0.baseAddress, frames: frames) }
            } else {
                try resample(&state, pcm.baseAddress, frames: frames)
            }
            try encodeWhileFull(&state, minimum: frameSize)
        }
    }

    /// Sends on what the container holds back: the output then holds all the audio encoded so far (the
    /// encoder keeps less than a frame).
    public func flushContainer() throws {
        try state.withLock { state in
            guard !state.finished else { return }
            try writer.flush()
        }
    }

    /// Flushes everything and completes the container. Errors at this point (a full disk) are lost
    /// to the caller, as `finish` cannot throw; `close()` reports them.
    public func finish() { try? close() }

    /// Flushes the resampler and the encoder and completes the container.
    public func close() throws {
        try state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            try resample(&state, nil, frames: 0)
            try encodeWhileFull(&state, minimum: frameSize)
            if av_audio_fifo_size(state.fifo) > 0 { try encodeFrame(&state, samples: av_audio_fifo_size(state.fifo)) }
            try drain(state, avcodec_send_frame(state.codec, nil))
            try writer.finish()
        }
    }

    // MARK: Inside the lock

    private func resample(_ state: inout State, _ data: UnsafeRawPointer?, frames: Int) throws {
        let capacity = swr_get_out_samples(state.resampler, Int32(frames)) + 64
        let frame = ownedFrame.pointer
        av_frame_unref(frame)
        frame.pointee.nb_samples = capacity
        frame.pointee.format = state.codec!.pointee.sample_fmt.rawValue
        av_channel_layout_copy(&frame.pointee.ch_layout, &state.codec!.pointee.ch_layout)
        var result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw MediaError("cannot allocate a frame", code: result) }
        var source = data.map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) }
        let converted = withUnsafeMutablePointer(to: &source) { sourcePointer in
            swr_convert(state.resampler, frame.pointee.extended_data, capacity, sourcePointer, Int32(frames))
        }
        guard converted >= 0 else { throw MediaError("cannot resample for the encoder", code: converted) }
        let planes = UnsafeMutableRawPointer(frame.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        result = av_audio_fifo_write(state.fifo, planes, converted)
        guard result >= 0 else { throw MediaError("cannot queue samples for the encoder", code: result) }
    }

    private func encodeWhileFull(_ state: inout State, minimum: Int32) throws {
        while av_audio_fifo_size(state.fifo) >= minimum { try encodeFrame(&state, samples: minimum) }
    }

    private func encodeFrame(_ state: inout State, samples: Int32) throws {
        let frame = ownedFrame.pointer
        guard let codec = state.codec else { return }
        av_frame_unref(frame)
        // A codec with fixed frames gets its last frame padded with silence.
        let size = acceptsShortFrames ? samples : frameSize
        frame.pointee.nb_samples = size
        frame.pointee.format = codec.pointee.sample_fmt.rawValue
        frame.pointee.sample_rate = codec.pointee.sample_rate
        av_channel_layout_copy(&frame.pointee.ch_layout, &codec.pointee.ch_layout)
        var result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw MediaError("cannot allocate a frame", code: result) }
        av_samples_set_silence(frame.pointee.extended_data, 0, size, codec.pointee.ch_layout.nb_channels, codec.pointee.sample_fmt)
        let planes = UnsafeMutableRawPointer(frame.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        result = av_audio_fifo_read(state.fifo, planes, samples)
        guard result >= 0 else { throw MediaError("cannot take samples for the encoder", code: result) }
        frame.pointee.pts = state.samplesEncoded
        state.samplesEncoded += Int64(samples)
        try drain(state, avcodec_send_frame(codec, frame))
    }

    /// Writes every packet the encoder has ready after `sent`'s frame.
    private func drain(_ state: State, _ sent: Int32) throws {
        guard sent >= 0 || sent == onair_averror_eof() else { throw MediaError("cannot encode", code: sent) }
        let packet = ownedPacket.pointer
        guard let codec = state.codec else { return }
        while true {
            let received = avcodec_receive_packet(codec, packet)
            if received == onair_averror_eagain() || received == onair_averror_eof() { return }
            guard received >= 0 else { throw MediaError("cannot encode", code: received) }
            defer { av_packet_unref(packet) }
            try writer.write(EncodedPacket(packet: packet, timeBase: codec.pointee.time_base))
        }
    }

    // MARK: Choosing formats

    /// Integer samples stay integers for lossless codecs; lossy ones get the float format they prefer.
    private static func sampleFormat(for encoder: UnsafePointer<AVCodec>, inputBits: Int) -> AVSampleFormat {
        let supported = list(encoder.pointee.sample_fmts, end: AV_SAMPLE_FMT_NONE)
        let integer = inputBits == 16 ? [AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P] : [AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P]
        for preferred in integer + [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT] where supported.contains(preferred) {
            return preferred
        }
        return supported.first ?? AV_SAMPLE_FMT_S16
    }

    /// The input's rate if the encoder takes it (Opus only knows 48 kHz and below), else its highest.
    private static func sampleRate(for encoder: UnsafePointer<AVCodec>, preferred: Int32) -> Int32 {
        let supported = list(encoder.pointee.supported_samplerates, end: 0)
        return supported.isEmpty || supported.contains(preferred) ? preferred : supported.max()!
    }

    private static func list<T: Equatable>(_ pointer: UnsafePointer<T>?, end: T) -> [T] {
        guard var pointer else { return [] }
        var values: [T] = []
        while pointer.pointee != end {
            values.append(pointer.pointee)
            pointer += 1
        }
        return values
    }

    /// Packed 24-bit samples as 32-bit ones, which swresample takes.
    private static func widen24(_ pcm: UnsafeRawBufferPointer) -> [Int32] {
        stride(from: 0, to: pcm.count - 2, by: 3).map { offset in
            Int32(bitPattern: UInt32(pcm[offset]) << 8 | UInt32(pcm[offset + 1]) << 16 | UInt32(pcm[offset + 2]) << 24)
        }
    }
}
