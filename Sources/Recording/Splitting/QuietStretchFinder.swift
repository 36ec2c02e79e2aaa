import Foundation
import RadioModel

/// The loudness of the recent audio in 10 ms blocks, and where in a stretch of it the quietest part lies:
/// the place to cut between two songs.
struct QuietStretchFinder {
    static let blockSeconds = 0.01
    /// Blocks within this factor (6 dB) of the quietest count as equally quiet.
    static let quietFactor: Float = 4
    /// Below this (about -90 dBFS) everything is silence, however the decoder dithered it.
    static let silenceFloor: Float = 1e-9

    private let format: PCMFormat
    private let framesPerBlock: Int
    /// Mean square per block, the first starting at `firstBlockStart` seconds.
    private var blocks: [Float] = []
    private var firstBlockStart = 0.0
    /// Squares summed into the block not yet complete.
    private var partialSum: Float = 0
    private var partialFrames = 0
    /// Seconds of audio measured so far.
    private(set) var measured = 0.0

    init(format: PCMFormat) {
        self.format = format
        framesPerBlock = max(1, Int(Double(format.sampleRate) * Self.blockSeconds))
    }

    /// Measures the next PCM, interleaved in `format`.
    mutating func add(_ pcm: UnsafeRawBufferPointer) {
        let bytesPerSample = format.bitsPerSample / 8
        let frames = pcm.count / format.bytesPerFrame
        for frame in 0..<frames {
            var square: Float = 0
            for channel in 0..<format.channels {
                let sample = Self.sample(pcm, at: (frame * format.channels + channel) * bytesPerSample, bytes: bytesPerSample)
                square += sample * sample
            }
            partialSum += square / Float(format.channels)
            partialFrames += 1
            if partialFrames == framesPerBlock {
                blocks.append(partialSum / Float(framesPerBlock))
                partialSum = 0
                partialFrames = 0
            }
        }
        measured += Double(frames) / Double(format.sampleRate)
    }

    /// Forgets blocks that start before `time`.
    mutating func discard(before time: Double) {
        let count = min(blocks.count, max(0, Int((time - firstBlockStart) / Self.blockSeconds)))
        guard count > 0 else { return }
        blocks.removeFirst(count)
        firstBlockStart += Double(count) * Self.blockSeconds
    }

    /// The middle of the longest quiet run of blocks in `range`; of equally long ones, the one nearest
    /// `preferred`. With nothing measured there, `preferred` itself.
    func quietestPoint(in range: ClosedRange<Double>, preferred: Double) -> Double {
        let first = max(0, Int(((range.lowerBound - firstBlockStart) / Self.blockSeconds).rounded(.up)))
        let last = min(blocks.count - 1, Int(((range.upperBound - firstBlockStart) / Self.blockSeconds).rounded(.down)) - 1)
        guard first <= last else { return preferred }
        let levels = blocks[first...last]
        let threshold = max(levels.min()! * Self.quietFactor, Self.silenceFloor)
        var best: (start: Int, length: Int)?
        var runStart: Int?
        func time(_ block: Int) -> Double { firstBlockStart + Double(block) * Self.blockSeconds }
        func consider(_ start: Int, _ end: Int) {
            let length = end - start
            let centre = (time(start) + time(end)) / 2
            if let current = best {
                let currentCentre = (time(current.start) + time(current.start + current.length)) / 2
                guard length > current.length
                    || (length == current.length && abs(centre - preferred) < abs(currentCentre - preferred)) else { return }
            }
            best = (start, length)
        }
        for index in first...last {
            if levels[index] <= threshold {
                runStart = runStart ?? index
            } else if let start = runStart {
                consider(start, index)
                runStart = nil
            }
        }
        if let start = runStart { consider(start, last + 1) }
        guard let best else { return preferred }
        return (time(best.start) + time(best.start + best.length)) / 2
    }

    /// One sample as a float in -1...1.
    private static func sample(_ pcm: UnsafeRawBufferPointer, at offset: Int, bytes: Int) -> Float {
        switch bytes {
        case 2: return Float(Int16(littleEndian: pcm.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32768
        case 3:
            let value = Int32(bitPattern: UInt32(pcm[offset]) << 8 | UInt32(pcm[offset + 1]) << 16 | UInt32(pcm[offset + 2]) << 24)
            return Float(value) / 2_147_483_648
        default: return Float(Int32(littleEndian: pcm.loadUnaligned(fromByteOffset: offset, as: Int32.self))) / 2_147_483_648
        }
    }
}
