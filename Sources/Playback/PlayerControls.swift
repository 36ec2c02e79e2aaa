import Foundation
import Outputs
import RadioModel

/// The listener's settings shared by the key loop, the view and the audio thread: volume, mute,
/// pause, the sleep timer. Lock-guarded; every thread sees one state.
public final class PlayerControls: Sendable {
    public static let volumeStep = 0.1
    public static let volumeRange = 0.0...1.5

    private struct State {
        var storedVolume = 1.0
        var storedMuted = false
        var storedPaused = false
        var storedSleep: SleepTimer
        var storedEpisodeLeft: Double?
    }
    private let state: Locked<State>
    /// The sound server's stream volume, when the sink is a speaker: the mixer then shows what the keys did.
    public let deviceVolume: DeviceVolume?

    public init(sleepTimer: SleepTimer, deviceVolume: DeviceVolume?) {
        state = Locked(State(storedSleep: sleepTimer))
        self.deviceVolume = deviceVolume
    }

    public var volume: Double { state.withLock { $0.storedVolume } }
    public var isMuted: Bool { state.withLock { $0.storedMuted } }
    public var isPaused: Bool { state.withLock { $0.storedPaused } }
    public var sleepTimer: SleepTimer { state.withLock { $0.storedSleep } }

    /// The volume as heard: 0 while muted.
    public var audibleVolume: Double { state.withLock { $0.storedMuted ? 0 : $0.storedVolume } }

    public func adjustVolume(by step: Double) {
        changeVolume { $0 + step }
    }

    /// Sets the volume (kept within `volumeRange`, to whole percent).
    public func setVolume(_ level: Double) {
        changeVolume { _ in level }
    }

    private func changeVolume(_ change: (Double) -> Double) {
        let (level, muted) = state.withLock { (state) -> (Double, Bool) in
            let level = (change(state.storedVolume) * 100).rounded() / 100
            state.storedVolume = min(Self.volumeRange.upperBound, max(Self.volumeRange.lowerBound, level))
            return (state.storedVolume, state.storedMuted)
        }
        deviceVolume?.set(level: level, muted: muted)
    }

    public func toggleMute() {
        let (level, muted) = state.withLock { (state) -> (Double, Bool) in
            state.storedMuted.toggle()
            return (state.storedVolume, state.storedMuted)
        }
        deviceVolume?.set(level: level, muted: muted)
    }

    public func setPaused(_ paused: Bool) { state.withLock { $0.storedPaused = paused } }

    public func cycleSleepTimer(now: Date = Date()) { state.withLock { $0.storedSleep.cycle(now: now) } }

    /// On demand: what is left of the episode playing, for the end-of-episode sleep setting.
    public func noteEpisodeLeft(_ seconds: Double?) { state.withLock { $0.storedEpisodeLeft = seconds } }

    /// Whether the sleep timer has run out.
    public func sleepHasExpired(now: Date = Date()) -> Bool {
        state.withLock { state in
            if case .endOfEpisode = state.storedSleep.setting { return state.storedEpisodeLeft.map { $0 <= 0 } ?? false }
            return state.storedSleep.hasExpired(now: now)
        }
    }

    /// The factor samples are scaled by at `now`: the sleep fade, and volume and mute unless the sound
    /// server applies those to the stream itself.
    public func sampleGain(now: Date = Date()) -> Double {
        let deviceTakesVolume = deviceVolume?.handledByDevice == true
        return state.withLock { state in
            let fade = state.storedSleep.gain(now: now, episodeLeft: state.storedEpisodeLeft)
            guard !deviceTakesVolume else { return fade }
            return state.storedMuted ? 0 : fade * state.storedVolume
        }
    }
}
