import Dispatch

/// Marks the end of a piece of work running on a thread of its own: closed until `cross()`, then
/// every wait, however many and from whichever thread, returns at once.
public final class FinishLine: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    public init() {}

    /// The work has ended; called once, by the thread that did it.
    public func cross() { semaphore.signal() }

    /// Blocks until the work has ended.
    public func wait() {
        semaphore.wait()
        semaphore.signal()
    }

    /// Waits at most `timeout` seconds; true once the work has ended.
    public func wait(timeout: Double) -> Bool {
        guard semaphore.wait(timeout: .now() + timeout) == .success else { return false }
        semaphore.signal()
        return true
    }
}
