import Foundation
import RadioModel

/// The bounded buffer between a bursty producer (the decode thread: Icecast's burst on connect, the
/// catch-up after a reconnect) and a consumer that takes PCM at a steady rate (a sink's writer thread).
///
/// - The producer never waits. When a push would exceed the capacity, the oldest audio goes, down to
///   the target level, so latency stays bounded and there is headroom again for the next burst.
/// - The consumer always gets the frames it asks for; what the buffer lacks is silence (PCM here is
///   signed, so silence is zero bytes).
/// - Once it has run dry, it gives silence until the target level has built up again, so a stream that
///   trickles in comes out as one gap and then continuous audio, not slivers of audio between silences.
final class PCMJitterBuffer: @unchecked Sendable {  // storage and indices inside `lock`
    /// What one `pull` delivered.
    struct Pull: Equatable {
        /// Frames of real audio at the start of the destination; the rest is silence.
        var audioFrames: Int
    }

    let bytesPerFrame: Int
    let capacityFrames: Int
    let targetFrames: Int

    private let lock = NSLock()
    private var storage: [UInt8]
    private var readIndex = 0
    private var storedBytes = 0
    private var refilling = true
    private var ending = false
    private var droppedFrames: Int64 = 0

    /// - Parameters:
    ///   - capacity: the most audio held, in seconds; the target level (and so the usual latency) is half.
    init(format: PCMFormat, capacity: Double) {
        bytesPerFrame = format.bytesPerFrame
        capacityFrames = max(2, Int((capacity * Double(format.sampleRate)).rounded()))
        targetFrames = capacityFrames / 2
        storage = [UInt8](repeating: 0, count: capacityFrames * bytesPerFrame)
    }

    /// Audio frames held now.
    var bufferedFrames: Int { lock.withLock { storedBytes / bytesPerFrame } }

    /// Frames thrown away so far to keep latency bounded.
    var totalDroppedFrames: Int64 { lock.withLock { droppedFrames } }

    /// True once `end()` was called.
    var isEnded: Bool { lock.withLock { ending } }

    /// True once `end()` was called and everything buffered has been pulled.
    var isDrained: Bool { lock.withLock { ending && storedBytes == 0 } }

    /// Adds interleaved PCM (whole frames); never blocks beyond a copy.
    func push(_ pcm: UnsafeRawBufferPointer) {
        let incoming = pcm.count - pcm.count % bytesPerFrame
        guard incoming > 0 else { return }
        lock.withLock {
            guard !ending else { return }
            let capacityBytes = storage.count
            var source = pcm.baseAddress!
            var count = incoming
            if storedBytes + count > capacityBytes {
                // Keep the newest audio, down to the target level.
                let keep = targetFrames * bytesPerFrame
                if count >= keep {
                    droppedFrames += Int64((storedBytes + count - keep) / bytesPerFrame)
                    source += count - keep
                    count = keep
                    readIndex = 0
                    storedBytes = 0
                } else {
                    let drop = storedBytes + count - keep
                    droppedFrames += Int64(drop / bytesPerFrame)
                    readIndex = (readIndex + drop) % capacityBytes
                    storedBytes -= drop
                }
            }
            var writeIndex = (readIndex + storedBytes) % capacityBytes
            while count > 0 {
                let run = min(count, capacityBytes - writeIndex)
                storage.withUnsafeMutableBytes { ($0.baseAddress! + writeIndex).copyMemory(from: source, byteCount: run) }
                source += run
                count -= run
                storedBytes += run
                writeIndex = (writeIndex + run) % capacityBytes
            }
        }
    }

    /// Fills `destination` (whole frames) with the oldest audio, then silence for what is missing.
    func pull(into destination: UnsafeMutableRawBufferPointer) -> Pull {
        let copied = take(destination.count / bytesPerFrame, into: destination.baseAddress)
        if copied < destination.count {
            (destination.baseAddress! + copied).initializeMemory(as: UInt8.self, repeating: 0, count: destination.count - copied)
        }
        return Pull(audioFrames: copied / bytesPerFrame)
    }

    /// Takes `frames` the way `pull` does and throws them away: the clock runs on while no peer
    /// listens, so that a peer that comes gets the audio playing now, not a backlog.
    func discard(frames: Int) {
        _ = take(frames, into: nil)
    }

    /// Removes up to `frames` of the oldest audio, copying them to `destination` when given; none
    /// while refilling. Returns the bytes taken.
    private func take(_ frames: Int, into destination: UnsafeMutableRawPointer?) -> Int {
        let wantedBytes = frames * bytesPerFrame
        return lock.withLock { () -> Int in
            if refilling {
                guard storedBytes >= targetFrames * bytesPerFrame || (ending && storedBytes > 0) else { return 0 }
                refilling = false
            }
            let available = min(wantedBytes, storedBytes)
            if let destination {
                var copied = 0
                while copied < available {
                    let run = min(available - copied, storage.count - (readIndex + copied) % storage.count)
                    let from = (readIndex + copied) % storage.count
                    storage.withUnsafeBytes { (destination + copied).copyMemory(from: $0.baseAddress! + from, byteCount: run) }
                    copied += run
                }
            }
            readIndex = (readIndex + available) % storage.count
            storedBytes -= available
            if available < wantedBytes { refilling = true }
            return available
        }
    }

    /// No more audio will come: what is buffered may be pulled below the target level.
    func end() {
        lock.withLock { ending = true }
    }
}
