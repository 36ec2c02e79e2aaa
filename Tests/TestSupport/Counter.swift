import Foundation

/// A thread-safe counter for handlers that behave differently on later requests. `lock` guards `value`.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    public init() {}

    /// Counts one more and returns the new count (1 for the first call).
    public func increment() -> Int { lock.withLock { value += 1; return value } }
}
