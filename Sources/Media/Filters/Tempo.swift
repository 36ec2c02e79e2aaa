import CFFmpeg
import RadioModel

/// Plays PCM faster or slower without changing its pitch: libavfilter's `atempo` in a graph of its
/// own (abuffer → atempo → aformat → abuffersink), loaded on first use. Used on one thread.
public final class Tempo {
    public static let range = 0.5...3.0
    public let speed: Double
    private let format: PCMFormat
    private let filters: FilterLibrary
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let ownedInput: OwnedFrame
    private let ownedOutput: OwnedFrame
    private var nextTimestamp: Int64 = 0

    public init(format: PCMFormat, speed: Double) throws {
        guard Self.range.contains(speed) else {
            throw MediaError("speed \(speed) is outside \(Self.range.lowerBound)–\(Self.range.upperBound)")
        }
        guard let sampleFormat = Self.sampleFormatName(format) else {
            throw MediaError("changing the speed needs 16- or 32-bit PCM, not \(format.bitsPerSample)-bit")
        }
        self.speed = speed
        self.format = format
        filters = try FilterLibrary.shared()
        graph = filters.graphAlloc()
        ownedInput = try OwnedFrame()
        ownedOutput = try OwnedFrame()
        guard let graph else { throw MediaError("cannot allocate a filter graph") }
        let layout = format.channels == 1 ? "mono" : format.channels == 2 ? "stereo" : "\(format.channels)c"
        let description = "sample_rate=\(format.sampleRate):sample_fmt=\(sampleFormat):channel_layout=\(layout)"
        source = try add("abuffer", "in", arguments: description + ":time_base=1/\(format.sampleRate)", to: graph)
        let tempo = try add("atempo", "tempo", arguments: "tempo=\(speed)", to: graph)
        let shape = try add("aformat", "shape",
                                 arguments: "sample_fmts=\(sampleFormat):sample_rates=\(format.sampleRate):channel_layouts=\(layout)",
                                 to: graph)
        sink = try add("abuffersink", "out", arguments: nil, to: graph)
        guard filters.link(source, 0, tempo, 0) >= 0, filters.link(tempo, 0, shape, 0) >= 0,
              filters.link(shape, 0, sink, 0) >= 0 else { throw MediaError("cannot link the tempo filters") }
        let configured = filters.graphConfig(graph, nil)
        guard configured >= 0 else { throw MediaError("cannot configure the tempo filters", code: configured) }
    }

    deinit {
        filters.graphFree(&graph)
    }

    /// Feeds interleaved PCM in; `body` gets what comes out at the new speed (less, or more, than went in).
    public func process(_ pcm: UnsafeRawBufferPointer, body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let input = ownedInput.pointer
        guard pcm.count >= format.bytesPerFrame else { return }
        let frames = pcm.count / format.bytesPerFrame
        input.pointee.nb_samples = Int32(frames)
        input.pointee.format = Self.sampleFormat(format).rawValue
        input.pointee.sample_rate = Int32(format.sampleRate)
        onair_default_channel_layout(&input.pointee.ch_layout, Int32(format.channels))
        input.pointee.pts = nextTimestamp
        nextTimestamp += Int64(frames)
        var status = av_frame_get_buffer(input, 0)
        guard status >= 0 else { throw MediaError("cannot allocate a filter frame", code: status) }
        input.pointee.data.0!.update(from: pcm.bindMemory(to: UInt8.self).baseAddress!, count: frames * format.bytesPerFrame)
        status = filters.bufferSourceAddFrame(source, input)  // takes the frame's buffers and resets it
        guard status >= 0 else { throw MediaError("cannot feed the tempo filter", code: status) }
        try pull(body)
    }

    /// Flushes what the filter still holds (at the end of a recording).
    public func drain(body: (UnsafeRawBufferPointer) throws -> Void) throws {
        _ = filters.bufferSourceAddFrame(source, nil)
        try pull(body)
    }

    private func pull(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let output = ownedOutput.pointer
        while true {
            let status = filters.bufferSinkGetFrame(sink, output)
            if status == onair_averror_eagain() || status == onair_averror_eof() { return }
            guard status >= 0 else { throw MediaError("cannot read from the tempo filter", code: status) }
            defer { av_frame_unref(output) }
            let bytes = Int(output.pointee.nb_samples) * format.bytesPerFrame
            try body(UnsafeRawBufferPointer(start: output.pointee.data.0, count: bytes))
        }
    }

    private func add(_ filter: String, _ name: String, arguments: String?,
                            to graph: UnsafeMutablePointer<AVFilterGraph>) throws -> UnsafeMutablePointer<AVFilterContext> {
        var context: UnsafeMutablePointer<AVFilterContext>?
        let status = filters.graphCreateFilter(&context, filters.getByName(filter), name, arguments, nil, graph)
        guard status >= 0, let context else { throw MediaError("cannot create the \(filter) filter", code: status) }
        return context
    }

    private static func sampleFormatName(_ format: PCMFormat) -> String? {
        switch format.bitsPerSample {
        case 16: return "s16"
        case 32: return "s32"
        default: return nil
        }
    }

    private static func sampleFormat(_ format: PCMFormat) -> AVSampleFormat {
        format.bitsPerSample == 16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_S32
    }
}
