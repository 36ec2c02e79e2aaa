import Foundation

/// How a live stream retries: exponential backoff with jitter, bounded.
public struct ReconnectPolicy: Sendable, Equatable {
    /// Delay before the first retry, in seconds.
    public var initialDelay: Double
    /// Upper bound of any delay, in seconds.
    public var maxDelay: Double
    public var multiplier: Double
    /// Each delay is spread by up to ± this fraction, so many clients don't return in lockstep.
    public var jitter: Double
    /// Attempts at the very first connection: a dead URL should fail fast, not retry forever.
    public var initialAttempts: Int
    /// Consecutive failed reconnects after which the stream gives up; nil retries forever.
    public var maxConsecutiveFailures: Int?

    public init(initialDelay: Double = 0.5, maxDelay: Double = 30, multiplier: Double = 2, jitter: Double = 0.25,
                initialAttempts: Int = 3, maxConsecutiveFailures: Int? = nil) {
        self.initialDelay = initialDelay; self.maxDelay = maxDelay; self.multiplier = multiplier
        self.jitter = jitter; self.initialAttempts = initialAttempts; self.maxConsecutiveFailures = maxConsecutiveFailures
    }

    /// The delay before retry number `attempt` (1-based). `unit` is a random number in 0..<1.
    public func delay(attempt: Int, unit: Double) -> Double {
        let base = min(maxDelay, initialDelay * pow(multiplier, Double(max(0, attempt - 1))))
        return min(maxDelay, max(0, base * (1 + jitter * (2 * unit - 1))))
    }
}
