import Foundation

/// A value shared between threads, reachable only inside its lock: the way onair guards mutable state
/// that several threads touch. An `NSLock` (a pthread mutex) rather than Synchronization's `Mutex`: on
/// Linux `Mutex` locks with futex calls inside the Swift runtime, which ThreadSanitizer cannot see, so
/// every value it guards was reported as a data race in CI's ThreadSanitizer stage (RELIABILITY.md).
/// Sendable when what it holds is: a type that shares it is then checked by the compiler for what it keeps inside.
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, exclusively; keep it short and never call out to unknown code.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the value now.
    public var current: Value { lock.withLock { value } }
}

extension Locked: @unchecked Sendable where Value: Sendable {}  // `value` is only touched inside `lock`

/// Work one thread at a time does, guarding no value of its own (a job being started, metrics being read, lines being
/// written). `Locked(())` reads the same, but its value has no storage, and ThreadSanitizer took the access to it inside
/// the lock for a race with another thread's read of the lock itself (CI's tsan stage on 4933fec, RuntimeJobs).
public final class Serialized: @unchecked Sendable {  // `lock` is an NSLock, safe from any thread
    private let lock = NSLock()

    public init() {}

    /// Runs `body` while no other thread runs this one's work.
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }
}
