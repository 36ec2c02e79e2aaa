import CFFmpeg
import RadioModel

/// The EBU R128 loudness of PCM as it passes, measured by libavfilter's `ebur128` (K-weighted and
/// gated, as R128 and ReplayGain 2.0 define it), and its sample peak. Used on one thread.
public final class LoudnessMeter {
    /// Integrated loudness in LUFS since the start; nil until the first 400 ms block is measured.
    public private(set) var integrated: Double?
    /// The highest sample so far, 1 being full scale.
    public private(set) var peak = 0.0
    private let format: PCMFormat
    private let graph: PCMFilterGraph

    public init(format: PCMFormat) throws {
        self.format = format
        graph = try PCMFilterGraph(format: format, chain: [("ebur128", "metadata=1")], purpose: "measuring loudness")
    }

    public func measure(_ pcm: UnsafeRawBufferPointer) throws {
        guard pcm.count >= format.bytesPerFrame else { return }
        peak = max(peak, Self.peak(of: pcm, format: format))
        try graph.feed(pcm)
        try graph.pull { frame in
            guard let entry = av_dict_get(frame.pointee.metadata, "lavfi.r128.I", nil, 0), let value = entry.pointee.value,
                  let loudness = Double(String(cString: value)) else { return }
            // ebur128 says -70 (its absolute gate) until a block is loud enough to count.
            integrated = loudness > -70 ? loudness : nil
        }
    }

    /// The loudness and peak of a whole file, decoded as it would be played (in `format`).
    public static func measure(file path: String, format: PCMFormat = PCMFormat(sampleRate: 48000, bitsPerSample: 16, channels: 2))
        throws -> (integrated: Double?, peak: Double) {
        let file = try MediaFile(path: path, format: format)
        let meter = try LoudnessMeter(format: format)
        while try file.read({ try meter.measure($0) }) {}
        return (meter.integrated, meter.peak)
    }

    private static func peak(of pcm: UnsafeRawBufferPointer, format: PCMFormat) -> Double {
        if format.bitsPerSample == 16 {
            let samples = pcm.bindMemory(to: Int16.self)
            return Double(samples.lazy.map { $0.magnitude }.max() ?? 0) / Double(Int16.max)
        }
        let samples = pcm.bindMemory(to: Int32.self)
        return Double(samples.lazy.map { $0.magnitude }.max() ?? 0) / Double(Int32.max)
    }
}
