import CFFmpeg
import RadioModel

/// Interleaved PCM of one format through a chain of libavfilter filters (abuffer → chain → abuffersink):
/// what `Tempo` and `LoudnessMeter` share. Owns its graph; used on one thread. libavfilter is reached
/// through `FilterLibrary`, loaded the first time a graph is made.
final class PCMFilterGraph {
    private let format: PCMFormat
    private let filters: FilterLibrary
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let ownedInput: OwnedFrame
    private let ownedOutput: OwnedFrame
    private var nextTimestamp: Int64 = 0

    /// `chain`: each filter's name and its arguments, in order; `purpose` names the graph in errors.
    init(format: PCMFormat, chain: [(filter: String, arguments: String?)], purpose: String) throws {
        guard let sampleFormat = Self.sampleFormatName(format) else {
            throw MediaError("\(purpose) needs 16- or 32-bit PCM, not \(format.bitsPerSample)-bit")
        }
        self.format = format
        filters = try FilterLibrary.shared()
        graph = filters.graphAlloc()
        ownedInput = try OwnedFrame()
        ownedOutput = try OwnedFrame()
        guard let graph else { throw MediaError("cannot allocate a filter graph") }
        let description = "sample_rate=\(format.sampleRate):sample_fmt=\(sampleFormat):channel_layout=\(Self.layoutName(format))"
        source = try add("abuffer", "in", arguments: description + ":time_base=1/\(format.sampleRate)", to: graph)
        var previous = source
        for (index, step) in chain.enumerated() {
            let filter = try add(step.filter, "step\(index)", arguments: step.arguments, to: graph)
            guard filters.link(previous, 0, filter, 0) >= 0 else { throw MediaError("cannot link the \(purpose) filters") }
            previous = filter
        }
        sink = try add("abuffersink", "out", arguments: nil, to: graph)
        guard filters.link(previous, 0, sink, 0) >= 0 else { throw MediaError("cannot link the \(purpose) filters") }
        let configured = filters.graphConfig(graph, nil)
        guard configured >= 0 else { throw MediaError("cannot configure the \(purpose) filters", code: configured) }
    }

    deinit {
        filters.graphFree(&graph)
    }

    /// "sample_fmts=…:sample_rates=…:channel_layouts=…" for an `aformat` that gives `format` back.
    static func aformatArguments(_ format: PCMFormat) -> String {
        "sample_fmts=\(sampleFormatName(format) ?? "s16"):sample_rates=\(format.sampleRate):channel_layouts=\(layoutName(format))"
    }

    func feed(_ pcm: UnsafeRawBufferPointer) throws {
        let input = ownedInput.pointer
        guard pcm.count >= format.bytesPerFrame else { return }
        let frames = pcm.count / format.bytesPerFrame
        input.pointee.nb_samples = Int32(frames)
        input.pointee.format = (format.bitsPerSample == 16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_S32).rawValue
        input.pointee.sample_rate = Int32(format.sampleRate)
        onair_default_channel_layout(&input.pointee.ch_layout, Int32(format.channels))
        input.pointee.pts = nextTimestamp
        nextTimestamp += Int64(frames)
        var status = av_frame_get_buffer(input, 0)
        guard status >= 0 else { throw MediaError("cannot allocate a filter frame", code: status) }
        input.pointee.data.0!.update(from: pcm.bindMemory(to: UInt8.self).baseAddress!, count: frames * format.bytesPerFrame)
        status = filters.bufferSourceAddFrame(source, input)  // takes the frame's buffers and resets it
        guard status >= 0 else { throw MediaError("cannot feed the filters", code: status) }
    }

    /// Tells the filters the input has ended, so they give out what they hold.
    func feedEnd() throws {
        let status = filters.bufferSourceAddFrame(source, nil)
        guard status >= 0 || status == onair_averror_eof() else { throw MediaError("cannot end the filters' input", code: status) }
    }

    /// Hands each frame the filters have ready to `body`, then unreferences it.
    func pull(_ body: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        let output = ownedOutput.pointer
        while true {
            let status = filters.bufferSinkGetFrame(sink, output)
            if status == onair_averror_eagain() || status == onair_averror_eof() { return }
            guard status >= 0 else { throw MediaError("cannot read from the filters", code: status) }
            defer { av_frame_unref(output) }
            try body(output)
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

    private static func layoutName(_ format: PCMFormat) -> String {
        format.channels == 1 ? "mono" : format.channels == 2 ? "stereo" : "\(format.channels)c"
    }
}
