import CFFmpeg
import RadioModel

/// libswresample to the sinks' PCM format. Configured from the first frame and again whenever the
/// decoded format changes (HE-AAC doubling its rate, a reconnect to another bitrate).
final class Resampler {
    let format: PCMFormat
    private var context: OpaquePointer?
    private var input: (format: Int32, rate: Int32, channels: Int32)?
    private var output: [UInt8] = []

    init(format: PCMFormat) { self.format = format }

    deinit { swr_free(&context) }

    /// 24-bit output is produced as 32-bit and packed, since swresample has no packed 24-bit format.
    private var sampleFormat: AVSampleFormat { format.bitsPerSample == 16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_S32 }
    private var producedBytesPerSample: Int { format.bitsPerSample == 16 ? 2 : 4 }

    /// Converts one frame; `body` gets interleaved PCM in `format`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let key = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels)
        if input == nil || input! != key {
            try configure(for: frame)
            input = key
        }
        let data = UnsafeMutableRawPointer(frame.pointee.extended_data)!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        try run(input: data, count: frame.pointee.nb_samples, body: body)
    }

    /// Emits what the resampler still holds (at the end of a run).
    func drain(body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard context != nil else { return }
        try run(input: nil, count: 0, body: body)
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws {
        swr_free(&context)
        var inLayout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            onair_default_channel_layout(&inLayout, frame.pointee.ch_layout.nb_channels)
        } else {
            av_channel_layout_copy(&inLayout, &frame.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = AVChannelLayout()
        onair_default_channel_layout(&outLayout, Int32(format.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var result = swr_alloc_set_opts2(&context, &outLayout, sampleFormat, Int32(format.sampleRate),
                                         &inLayout, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        guard result >= 0 else { throw MediaError("cannot set up the resampler", code: result) }
        result = swr_init(context)
        guard result >= 0 else { throw MediaError("cannot start the resampler", code: result) }
    }

    private func run(input data: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32,
                     body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let capacity = swr_get_out_samples(context, count) + 32
        let bytesPerFrame = producedBytesPerSample * format.channels
        if output.count < Int(capacity) * bytesPerFrame { output = [UInt8](repeating: 0, count: Int(capacity) * bytesPerFrame) }
        let produced = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var out: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return swr_convert(context, &out, capacity, data, count)
        }
        guard produced >= 0 else { throw MediaError("cannot resample", code: produced) }
        guard produced > 0 else { return }
        let bytes = Int(produced) * bytesPerFrame
        if format.bitsPerSample == 24 {
            try pack24(bytes: bytes).withUnsafeBytes { try body($0) }
        } else {
            try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<bytes])) }
        }
    }

    /// Keeps the top three bytes of each little-endian 32-bit sample.
    private func pack24(bytes: Int) -> [UInt8] {
        var packed = [UInt8]()
        packed.reserveCapacity(bytes / 4 * 3)
        for sample in stride(from: 0, to: bytes, by: 4) {
            packed.append(output[sample + 1]); packed.append(output[sample + 2]); packed.append(output[sample + 3])
        }
        return packed
    }
}
