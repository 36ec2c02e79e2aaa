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
final class PCMJitterBuffer: @unchecked Sendable {  // storage and indices in `state`
    /// What one `pull` delivered.
    struct Pull: Equatable {
        /// Frames of real audio at the start of the destination; the rest is silence.
        var audioFrames: Int
    }

    let bytesPerFrame: Int
    let capacityFrames: Int
    let targetFrames: Int

    private struct State {
        var storage: [UInt8]
        var readIndex = 0
        var storedBytes = 0
        var refilling = true
        var ending = false
        var droppedFrames: Int64 = 0
    }
    private let state: Locked<State>

    /// - Parameters:
    ///   - capacity: the most audio held, in seconds; the target level (and so the usual latency) is half.
    init(format: PCMFormat, capacity: Double) {
        bytesPerFrame = format.bytesPerFrame
        capacityFrames = max(2, Int((capacity * Double(format.sampleRate)).rounded()))
        targetFrames = capacityFrames / 2
        state = Locked(State(storage: [UInt8](repeating: 0, count: capacityFrames * bytesPerFrame)))
    }

    /// Audio frames held now.
    var bufferedFrames: Int { state.withLock { $0.storedBytes / bytesPerFrame } }

    /// Frames thrown away so far to keep latency bounded.
    var totalDroppedFrames: Int64 { state.withLock { $0.droppedFrames } }

    /// True once `end()` was called.
    var isEnded: Bool { state.withLock { $0.ending } }

    /// True once `end()` was called and everything buffered has been pulled.
    var isDrained: Bool { state.withLock { $0.ending && $0.storedBytes == 0 } }

    /// Adds interleaved PCM (whole frames); never blocks beyond a copy.
    func push(_ pcm: UnsafeRawBufferPointer) {
        let incoming = pcm.count - pcm.count % bytesPerFrame
        guard incoming > 0 else { return }
        state.withLock { state in
            guard !state.ending else { return }
            let capacityBytes = state.storage.count
            var source = pcm.baseAddress!
            var count = incoming
            if state.storedBytes + count > capacityBytes {
                // Keep the newest audio, down to the target level.
                let keep = targetFrames * bytesPerFrame
                if count >= keep {
                    state.droppedFrames += Int64((state.storedBytes + count - keep) / bytesPerFrame)
                    source += count - keep
                    count = keep
                    state.readIndex = 0
                    state.storedBytes = 0
                } else {
                    let drop = state.storedBytes + count - keep
                    state.droppedFrames += Int64(drop / bytesPerFrame)
                    state.readIndex = (state.readIndex + drop) % capacityBytes
                    state.storedBytes -= drop
                }
            }
            var writeIndex = (state.readIndex + state.storedBytes) % capacityBytes
            while count > 0 {
                let run = min(count, capacityBytes - writeIndex)
                state.storage.withUnsafeMutableBytes { ($0.baseAddress! + writeIndex).copyMemory(from: source, byteCount: run) }
                source += run
                count -= run
                state.storedBytes += run
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
        return state.withLock { (state) -> Int in
            if state.refilling {
                guard state.storedBytes >= targetFrames * bytesPerFrame || (state.ending && state.storedBytes > 0) else { return 0 }
                state.refilling = false
            }
            let available = min(wantedBytes, state.storedBytes)
            if let destination {
                var copied = 0
                while copied < available {
                    let run = min(available - copied, state.storage.count - (state.readIndex + copied) % state.storage.count)
                    let from = (state.readIndex + copied) % state.storage.count
                    state.storage.withUnsafeBytes { (destination + copied).copyMemory(from: $0.baseAddress! + from, byteCount: run) }
                    copied += run
                }
            }
            state.readIndex = (state.readIndex + available) % state.storage.count
            state.storedBytes -= available
            if available < wantedBytes { state.refilling = true }
            return available
        }
    }

    /// No more audio will come: what is buffered may be pulled below the target level.
    func end() {
        state.withLock { $0.ending = true }
    }
}
