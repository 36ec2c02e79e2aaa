import Foundation
import Media
import RadioModel

/// The player's PCM stage between the decoder and the sinks: scales the samples (volume, mute, the
/// sleep timer's fade, `--normalize`'s gain) and, for a live station, holds what arrives while paused — time-shift —
/// up to a bound, playing on from where it paused.
public final class PlayerStage: PCMConsumer, @unchecked Sendable {  // `delay`: Locked; `scratch`, `lastGain` and `normalizer` on the thread that plays
    public let label = "player"
    private let format: PCMFormat
    private let controls: PlayerControls
    private let sinks: [PCMConsumer]
    /// Live only: audio received but not yet played (while paused, and behind live after).
    private let delay: Locked<ByteRing?>
    private var scratch: [UInt8] = []
    private var lastGain: Double
    private let normalizer: LoudnessNormalizer?

    /// `timeShiftSeconds`: how much a paused live station buffers; nil on demand, where pausing stops reading.
    public init(format: PCMFormat, controls: PlayerControls, sinks: [PCMConsumer], timeShiftSeconds: Double?,
                normalizer: LoudnessNormalizer? = nil) {
        self.format = format
        self.controls = controls
        self.sinks = sinks
        self.normalizer = normalizer
        lastGain = normalizer == nil ? 1 : 0  // a measured item starts from silence
        delay = Locked(timeShiftSeconds.map { ByteRing(capacity: Int($0 * Double(format.bytesPerSecond)) / format.bytesPerFrame * format.bytesPerFrame) })
    }

    /// How far behind the live edge playback is, in seconds.
    public var behindLive: Double {
        delay.withLock { Double($0?.count ?? 0) / Double(format.bytesPerSecond) }
    }

    /// Back to the live edge: the time-shifted audio is dropped.
    public func goLive() {
        delay.withLock { $0?.removeAll() }
        controls.setPaused(false)
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        let chunk: [UInt8]? = delay.withLock { delay in
            guard let delay, controls.isPaused || delay.count > 0 else { return nil }
            if controls.isPaused {
                if delay.free >= pcm.count {
                    delay.append(pcm)
                    return []
                }
                // The bound is reached: play on from where it paused, that far behind live.
                controls.setPaused(false)
            }
            delay.append(pcm)
            return delay.take(pcm.count)
        }
        if let chunk {
            guard !chunk.isEmpty else { return }
            try chunk.withUnsafeBytes { try play($0) }
        } else {
            try play(pcm)
        }
    }

    public func finish() { sinks.forEach { $0.finish() } }

    /// On demand, as each item starts (on the play thread): what its tags say of its loudness, for `--normalize`.
    public func beginItem(loudness: LoudnessTag?) { normalizer?.begin(tagged: loudness) }

    /// Scales one buffer, ramping from the last buffer's gain to this one's so that changes don't click.
    private func play(_ pcm: UnsafeRawBufferPointer) throws {
        let gain = controls.sampleGain() * (normalizer?.gain(for: pcm) ?? 1)
        if gain == 1 && lastGain == 1 {
            try sinks.forEach { try $0.consume(pcm) }
            return
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: pcm)
        SampleScaling.ramp(&scratch, format: format, from: lastGain, to: gain)
        lastGain = gain
        try scratch.withUnsafeBytes { buffer in try sinks.forEach { try $0.consume(buffer) } }
    }
}

extension PlayerStage: TitleConsumer {
    /// The stage stands in for its sinks at the station: titles still reach those that take them (an HTTP
    /// mount that encodes, re-injecting ICY titles).
    public func titleChanged(_ change: TitleChange) throws {
        for sink in sinks { try (sink as? TitleConsumer)?.titleChanged(change) }
    }
}

/// Scales interleaved signed little-endian PCM (16, 24 or 32 bits) in place.
enum SampleScaling {
    static func ramp(_ bytes: inout [UInt8], format: PCMFormat, from start: Double, to end: Double) {
        let width = format.bitsPerSample / 8
        let frames = bytes.count / format.bytesPerFrame
        guard frames > 0 else { return }
        let maximum = Double((1 << (format.bitsPerSample - 1)) - 1)
        bytes.withUnsafeMutableBytes { raw in
            for frame in 0..<frames {
                let gain = start + (end - start) * Double(frame + 1) / Double(frames)
                for channel in 0..<format.channels {
                    let offset = (frame * format.channels + channel) * width
                    var sample: Int64 = 0
                    for byte in 0..<width { sample |= Int64(raw[offset + byte]) << (8 * byte) }
                    sample = (sample << (64 - 8 * width)) >> (64 - 8 * width)  // sign-extend
                    let scaled = Int64(max(-maximum - 1, min(maximum, (Double(sample) * gain).rounded())))
                    for byte in 0..<width { raw[offset + byte] = UInt8(truncatingIfNeeded: scaled >> (8 * byte)) }
                }
            }
        }
    }
}

/// A bounded FIFO of bytes in one ring, allocated on first use (a listener who never pauses never
/// pays for it): appending and taking never move what is held.
final class ByteRing {
    private let capacity: Int
    private var storage: [UInt8] = []
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var free: Int { capacity - count }

    /// Appends, dropping the oldest bytes if the ring would overflow.
    func append(_ bytes: UnsafeRawBufferPointer) {
        if storage.isEmpty { storage = [UInt8](repeating: 0, count: capacity) }
        let incoming = UnsafeRawBufferPointer(rebasing: bytes.suffix(capacity))
        let overflow = max(0, count + incoming.count - capacity)
        head = (head + overflow) % capacity
        count -= overflow
        var tail = (head + count) % capacity
        var offset = 0
        storage.withUnsafeMutableBytes { ring in
            while offset < incoming.count {
                let run = min(incoming.count - offset, capacity - tail)
                ring.baseAddress!.advanced(by: tail).copyMemory(from: incoming.baseAddress!.advanced(by: offset), byteCount: run)
                offset += run
                tail = (tail + run) % capacity
            }
        }
        count += incoming.count
    }

    /// Takes up to `wanted` of the oldest bytes.
    func take(_ wanted: Int) -> [UInt8] {
        let taken = min(wanted, count)
        var out = [UInt8](repeating: 0, count: taken)
        var offset = 0
        storage.withUnsafeBytes { ring in
            out.withUnsafeMutableBytes { destination in
                while offset < taken {
                    let run = min(taken - offset, capacity - head)
                    destination.baseAddress!.advanced(by: offset).copyMemory(from: ring.baseAddress!.advanced(by: head), byteCount: run)
                    offset += run
                    head = (head + run) % capacity
                }
            }
        }
        count -= taken
        return out
    }

    func removeAll() {
        head = 0
        count = 0
    }
}
