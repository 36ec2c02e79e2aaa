import Foundation
import Outputs

/// The listener's settings shared by the key loop, the view and the audio thread: volume, mute,
/// pause, the sleep timer. Lock-guarded; every thread sees one state.
public final class PlayerControls: @unchecked Sendable {  // the stored settings inside `lock`
    public static let volumeStep = 0.1
    public static let volumeRange = 0.0...1.5

    private let lock = NSLock()
    private var storedVolume = 1.0
    private var storedMuted = false
    private var storedPaused = false
    private var storedSleep: SleepTimer
    private var storedEpisodeLeft: Double?
    /// The sound server's stream volume, when the sink is a speaker: the mixer then shows what the keys did.
    public let deviceVolume: DeviceVolume?

    public init(sleepTimer: SleepTimer, deviceVolume: DeviceVolume?) {
        storedSleep = sleepTimer
        self.deviceVolume = deviceVolume
    }

    public var volume: Double { lock.withLock { storedVolume } }
    public var isMuted: Bool { lock.withLock { storedMuted } }
    public var isPaused: Bool { lock.withLock { storedPaused } }
    public var sleepTimer: SleepTimer { lock.withLock { storedSleep } }

    /// The volume as heard: 0 while muted.
    public var audibleVolume: Double { lock.withLock { storedMuted ? 0 : storedVolume } }

    public func adjustVolume(by step: Double) {
        changeVolume { $0 + step }
    }

    /// Sets the volume (kept within `volumeRange`, to whole percent).
    public func setVolume(_ level: Double) {
        changeVolume { _ in level }
    }

    private func changeVolume(_ change: (Double) -> Double) {
        let (level, muted) = lock.withLock { () -> (Double, Bool) in
            let level = (change(storedVolume) * 100).rounded() / 100
            storedVolume = min(Self.volumeRange.upperBound, max(Self.volumeRange.lowerBound, level))
            return (storedVolume, storedMuted)
        }
        deviceVolume?.set(level: level, muted: muted)
    }

    public func toggleMute() {
        let (level, muted) = lock.withLock { () -> (Double, Bool) in
            storedMuted.toggle()
            return (storedVolume, storedMuted)
        }
        deviceVolume?.set(level: level, muted: muted)
    }

    public func setPaused(_ paused: Bool) { lock.withLock { storedPaused = paused } }

    public func cycleSleepTimer(now: Date = Date()) { lock.withLock { storedSleep.cycle(now: now) } }

    /// On demand: what is left of the episode playing, for the end-of-episode sleep setting.
    public func noteEpisodeLeft(_ seconds: Double?) { lock.withLock { storedEpisodeLeft = seconds } }

    /// Whether the sleep timer has run out.
    public func sleepHasExpired(now: Date = Date()) -> Bool {
        lock.withLock {
            if case .endOfEpisode = storedSleep.setting { return storedEpisodeLeft.map { $0 <= 0 } ?? false }
            return storedSleep.hasExpired(now: now)
        }
    }

    /// The factor samples are scaled by at `now`: the sleep fade, and volume and mute unless the sound
    /// server applies those to the stream itself.
    public func sampleGain(now: Date = Date()) -> Double {
        let deviceTakesVolume = deviceVolume?.handledByDevice == true
        return lock.withLock {
            let fade = storedSleep.gain(now: now, episodeLeft: storedEpisodeLeft)
            guard !deviceTakesVolume else { return fade }
            return storedMuted ? 0 : fade * storedVolume
        }
    }
}
