import Foundation

/// A piece of audio's Chromaprint fingerprint: one 32-bit item per `itemSeconds` of audio, item `i` describing
/// the audio from `i * itemSeconds` on. Two recordings of the same audio (re-encoded, louder or quieter) give
/// items that differ in few bits; other audio differs in about half of them.
public struct Fingerprint: Sendable, Equatable {
    /// The rate Chromaprint works at: audio is resampled to it, mono, before it is fed.
    public static let sampleRate = 11025
    /// Samples between items of Chromaprint's default algorithm (a third of its 4096-sample frame).
    public static let itemSamples = 1365
    public static let itemSeconds = Double(itemSamples) / Double(sampleRate)

    public var items: [UInt32]

    public init(items: [UInt32]) {
        self.items = items
    }

    /// The length of audio the items describe.
    public var seconds: Double { Double(items.count) * Self.itemSeconds }

    /// The items as stored: 4 bytes each, little-endian.
    public var data: Data {
        var data = Data(capacity: items.count * 4)
        for item in items { withUnsafeBytes(of: item.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    public init(data: Data) throws(ClipError) {
        guard data.count % 4 == 0 else { throw ClipError("a stored fingerprint of \(data.count) bytes is not whole items") }
        items = stride(from: 0, to: data.count, by: 4).map { offset in
            data[data.startIndex + offset..<data.startIndex + offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
    }

    /// How many of the 32 bits of two items differ.
    @inline(__always)
    static func differingBits(_ a: UInt32, _ b: UInt32) -> Int { (a ^ b).nonzeroBitCount }

    /// The share of differing bits between two runs of items, item by item (0: the same audio; about 0.5: unrelated).
    public static func bitErrorRate(_ a: ArraySlice<UInt32>, _ b: ArraySlice<UInt32>) -> Double {
        let count = min(a.count, b.count)
        guard count > 0 else { return 1 }
        var differing = 0
        for (x, y) in zip(a, b) { differing += differingBits(x, y) }
        return Double(differing) / Double(count * 32)
    }
}

/// Why a clip could not be fingerprinted, stored or matched: one line.
public struct ClipError: Error, CustomStringConvertible, Sendable {
    /// What a caller answers differently: a name already taken (a conflict) or anything else.
    public enum Reason: Sendable { case nameTaken, other }

    public let description: String
    public let reason: Reason

    public init(_ description: String, reason: Reason = .other) {
        self.description = description
        self.reason = reason
    }
}
