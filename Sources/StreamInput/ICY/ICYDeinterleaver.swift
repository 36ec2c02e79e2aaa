/// Splits an ICY response body into audio bytes and the metadata blocks that the server inserts
/// after every `metaint` audio bytes (one length byte L, then L × 16 bytes).
///
/// The state machine works on arbitrary chunk boundaries, so a block split across network reads is
/// reassembled. A length byte can at most announce 255 × 16 = 4080 bytes, which bounds memory.
public struct ICYDeinterleaver: Sendable {
    public static let maxBlockBytes = 255 * 16

    private enum State: Sendable {
        case audio(remaining: Int)
        case lengthByte
        case metadata(remaining: Int)
    }

    public let metaint: Int
    private var state: State
    private var block: [UInt8] = []
    /// Audio bytes passed on so far: the position at which the next metadata block takes effect.
    public private(set) var audioBytes: Int64 = 0

    public init(metaint: Int) {
        precondition(metaint > 0)
        self.metaint = metaint
        state = .audio(remaining: metaint)
    }

    /// Feeds one chunk. `audio` receives runs of audio bytes; `metadata` receives each non-empty block
    /// with the audio byte offset at which it arrived.
    public mutating func consume(_ chunk: UnsafeRawBufferPointer,
                                 audio: (UnsafeRawBufferPointer) -> Void,
                                 metadata: ([UInt8], Int64) -> Void) {
        var index = 0
        while index < chunk.count {
            switch state {
            case .audio(let remaining):
                let take = min(remaining, chunk.count - index)
                audio(UnsafeRawBufferPointer(rebasing: chunk[index..<index + take]))
                audioBytes += Int64(take)
                index += take
                state = take == remaining ? .lengthByte : .audio(remaining: remaining - take)
            case .lengthByte:
                let length = Int(chunk[index]) * 16
                index += 1
                state = length == 0 ? .audio(remaining: metaint) : .metadata(remaining: length)
                block.removeAll(keepingCapacity: true)
            case .metadata(let remaining):
                let take = min(remaining, chunk.count - index)
                block.append(contentsOf: chunk[index..<index + take])
                index += take
                if take == remaining {
                    metadata(block, audioBytes)
                    state = .audio(remaining: metaint)
                } else {
                    state = .metadata(remaining: remaining - take)
                }
            }
        }
    }
}
