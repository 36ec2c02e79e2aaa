import Synchronization

/// A `Mutex` shared by reference: state that escaping closures capture (a `Mutex` cannot be copied into
/// one) or that several objects hold. Classes that own their state keep a `Mutex` of their own.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, exclusively; keep it short and never call out to unknown code.
    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }

    /// A copy of the value now.
    public var current: Value { mutex.withLock { $0 } }
}
