import Foundation

/// The level and mute a player asks of a sound server's stream (PulseAudio's sink-input volume, as a
/// mixer shows it). Set from any thread; the device's writer thread applies changes before its next
/// write, since the FFmpeg context lives there. Devices that take no volume messages (ALSA) say so,
/// and the player then scales the samples itself.
public final class DeviceVolume: @unchecked Sendable {  // level, mute and generation inside `lock`
    private let lock = NSLock()
    private var storedLevel: Double
    private var storedMuted = false
    private var storedHandled: Bool?
    private var generation = 0

    /// `level`: 1 is the server's 100 %.
    public init(level: Double = 1) { storedLevel = level }

    public func set(level: Double, muted: Bool) {
        lock.withLock {
            guard level != storedLevel || muted != storedMuted else { return }
            storedLevel = level
            storedMuted = muted
            generation += 1
        }
    }

    /// Whether the device applies the volume: nil until it has been reached.
    public var handledByDevice: Bool? { lock.withLock { storedHandled } }

    /// The wanted state if it changed since `seen`; the device thread's side.
    func change(since seen: Int) -> (level: Double, muted: Bool, generation: Int)? {
        lock.withLock { generation == seen ? nil : (storedLevel, storedMuted, generation) }
    }

    func noteHandled(_ handled: Bool) { lock.withLock { storedHandled = handled } }
}
