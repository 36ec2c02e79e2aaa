import CFFmpeg
import RadioModel

/// Plays PCM faster or slower without changing its pitch: libavfilter's `atempo` in a graph of its
/// own (abuffer → atempo → aformat → abuffersink). Used on one thread.
public final class Tempo {
    public static let range = 0.5...3.0
    public let speed: Double
    private let format: PCMFormat
    private let graph: PCMFilterGraph

    public init(format: PCMFormat, speed: Double) throws {
        guard Self.range.contains(speed) else {
            throw MediaError("speed \(speed) is outside \(Self.range.lowerBound)–\(Self.range.upperBound)")
        }
        self.speed = speed
        self.format = format
        graph = try PCMFilterGraph(format: format, chain: [("atempo", "tempo=\(speed)"),
                                                           ("aformat", PCMFilterGraph.aformatArguments(format))],
                                   purpose: "changing the speed")
    }

    /// Feeds interleaved PCM in; `body` gets what comes out at the new speed (less, or more, than went in).
    public func process(_ pcm: UnsafeRawBufferPointer, body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard pcm.count >= format.bytesPerFrame else { return }
        try graph.feed(pcm)
        try pull(body)
    }

    /// Flushes what the filter still holds (at the end of a recording).
    public func drain(body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try graph.feedEnd()
        try pull(body)
    }

    private func pull(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try graph.pull { frame in
            try body(UnsafeRawBufferPointer(start: frame.pointee.data.0, count: Int(frame.pointee.nb_samples) * format.bytesPerFrame))
        }
    }
}
