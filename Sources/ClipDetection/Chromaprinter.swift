import CChromaprint

/// Chromaprint's fingerprinter over a stream of 16-bit interleaved PCM (at `Fingerprint.sampleRate`, mono, unless
/// told otherwise: Chromaprint then mixes down and resamples itself), handing out the items each feed completed: reading the items so far and clearing them (`chromaprint_clear_fingerprint`)
/// gives the same items as one pass over the whole (a test holds it), so a live station is fingerprinted as it
/// plays, without keeping its audio. Not Sendable: its context stays on the thread that feeds it.
public final class Chromaprinter {
    private let context: OpaquePointer
    /// Samples per feed at most: whole frames (Chromaprint drops a part frame at the end of a feed).
    private let chunk: Int

    public init(sampleRate: Int = Fingerprint.sampleRate, channels: Int = 1) throws(ClipError) {
        guard let context = chromaprint_new(Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue)) else {
            throw ClipError("Chromaprint could not make a fingerprinter")
        }
        self.context = context
        chunk = (1 << 20) / max(1, channels) * max(1, channels)
        guard chromaprint_start(context, Int32(sampleRate), Int32(channels)) == 1 else {
            chromaprint_free(context)
            throw ClipError("Chromaprint refused \(sampleRate) Hz audio in \(channels) channels")
        }
    }

    deinit { chromaprint_free(context) }

    /// Samples (of every channel, interleaved) the fingerprinter has not seen; the items they completed, in order.
    public func feed(_ samples: UnsafeBufferPointer<Int16>) -> [UInt32] {
        guard let base = samples.baseAddress, !samples.isEmpty else { return [] }
        var offset = 0
        while offset < samples.count {  // chromaprint_feed takes an Int32 count
            let count = min(samples.count - offset, chunk)
            _ = chromaprint_feed(context, base + offset, Int32(count))
            offset += count
        }
        return takeItems()
    }

    public func feed(_ samples: [Int16]) -> [UInt32] { samples.withUnsafeBufferPointer { feed($0) } }

    /// The last items, which the audio fed so far completes only once it is known to end.
    public func finish() -> [UInt32] {
        _ = chromaprint_finish(context)
        return takeItems()
    }

    /// Chromaprint's own item length in samples, for the test that holds `Fingerprint.itemSamples` to it.
    public var itemSamples: Int { Int(chromaprint_get_item_duration(context)) }

    private func takeItems() -> [UInt32] {
        var items: UnsafeMutablePointer<UInt32>?
        var count: Int32 = 0
        guard chromaprint_get_raw_fingerprint(context, &items, &count) == 1, let items else { return [] }
        defer { chromaprint_dealloc(items) }
        let taken = Array(UnsafeBufferPointer(start: items, count: Int(count)))
        _ = chromaprint_clear_fingerprint(context)
        return taken
    }
}
