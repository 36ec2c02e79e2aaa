import Foundation
import RadioModel

/// The level and mute a player asks of a sound server's stream (PulseAudio's sink-input volume, as a
/// mixer shows it). Set from any thread; the device's writer thread applies changes before its next
/// write, since the FFmpeg context lives there. Devices that take no volume messages (ALSA) say so,
/// and the player then scales the samples itself.
public final class DeviceVolume: Sendable {
    private struct State {
        var storedLevel: Double
        var storedMuted = false
        var storedHandled: Bool?
        var generation = 0
    }
    private let state: Locked<State>

    /// `level`: 1 is the server's 100 %.
    public init(level: Double = 1) { state = Locked(State(storedLevel: level)) }

    public func set(level: Double, muted: Bool) {
        state.withLock { state in
            guard level != state.storedLevel || muted != state.storedMuted else { return }
            state.storedLevel = level
            state.storedMuted = muted
            state.generation += 1
        }
    }

    /// Whether the device applies the volume: nil until it has been reached.
    public var handledByDevice: Bool? { state.withLock { $0.storedHandled } }

    /// The wanted state if it changed since `seen`; the device thread's side.
    func change(since seen: Int) -> (level: Double, muted: Bool, generation: Int)? {
        state.withLock { $0.generation == seen ? nil : ($0.storedLevel, $0.storedMuted, $0.generation) }
    }

    func noteHandled(_ handled: Bool) { state.withLock { $0.storedHandled = handled } }
}
