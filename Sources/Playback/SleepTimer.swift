import Foundation
import RadioModel

/// Stops playback after a while, fading out over its last seconds. `s` cycles through the settings.
public struct SleepTimer: Sendable, Equatable {
    public enum Setting: Sendable, Equatable {
        case off
        case minutes(Int)
        /// On demand only: when the episode playing ends (live episodes don't end).
        case endOfEpisode
    }

    public static let minuteChoices = [5, 10, 15, 30, 45, 60]
    /// The fade's length, unless the timer is shorter than twice that.
    public static let fadeSeconds = 5.0

    public private(set) var setting: Setting = .off
    public private(set) var deadline: Date?
    /// The length of a "minute": 60, or a few seconds when tests shorten it.
    public let minuteSeconds: Double
    public let offersEndOfEpisode: Bool

    public init(minuteSeconds: Double = 60, offersEndOfEpisode: Bool) {
        self.minuteSeconds = minuteSeconds
        self.offersEndOfEpisode = offersEndOfEpisode
    }

    /// The next setting: off → 5 → 10 → … → 60 minutes (→ end of episode) → off.
    public mutating func cycle(now: Date = Date()) {
        var settings: [Setting] = [.off] + Self.minuteChoices.map { .minutes($0) }
        if offersEndOfEpisode { settings.append(.endOfEpisode) }
        let index = settings.firstIndex(of: setting) ?? 0
        setting = settings[(index + 1) % settings.count]
        if case .minutes(let minutes) = setting {
            deadline = now.addingTimeInterval(Double(minutes) * minuteSeconds)
        } else {
            deadline = nil
        }
    }

    /// Seconds left on a timed setting.
    public func remaining(now: Date = Date()) -> Double? {
        deadline.map { max(0, $0.timeIntervalSince(now)) }
    }

    public func hasExpired(now: Date = Date()) -> Bool { remaining(now: now) == 0 }

    /// The loudness factor (1 down to 0) for audio at `now`; `episodeLeft` is the playing episode's
    /// remaining seconds, for the end-of-episode setting.
    public func gain(now: Date = Date(), episodeLeft: Double? = nil) -> Double {
        let left: Double?
        let length: Double
        switch setting {
        case .off: return 1
        case .minutes(let minutes):
            left = remaining(now: now)
            length = Double(minutes) * minuteSeconds
        case .endOfEpisode:
            left = episodeLeft
            length = .infinity
        }
        guard let left else { return 1 }
        let fade = min(Self.fadeSeconds, length / 2)
        return left >= fade ? 1 : max(0, left / fade)
    }

    /// "sleep 4:59", "sleep at end of episode", or nil when off.
    public func label(now: Date = Date()) -> String? {
        switch setting {
        case .off: return nil
        case .endOfEpisode: return "sleep at end of episode"
        case .minutes: return "sleep in " + ClockText.of(remaining(now: now) ?? 0)
        }
    }
}
