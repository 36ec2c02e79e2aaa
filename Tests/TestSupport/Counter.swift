import Foundation

/// A thread-safe counter for handlers that behave differently on later requests. `lock` guards `value`.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    public init() {}

    /// Counts one more and returns the new count (1 for the first call).
    public func increment() -> Int { add(1) }

    /// Counts `amount` more (bytes served, say) and returns the new total.
    @discardableResult
    public func add(_ amount: Int) -> Int { lock.withLock { value += amount; return value } }

    public var total: Int { lock.withLock { value } }
}
