import Foundation

/// Polls `condition` every `interval` (50 ms unless a look costs a process) until it holds (true) or `timeout` passes (false).
public func eventually(timeout: TimeInterval, every interval: TimeInterval = 0.05, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: interval)
    }
    return true
}

/// Runs `action` on a thread of its own after `seconds`. The faults tests inject at a moment of the
/// stream block (an encoder restart waits for the old encoder's exit), so they keep off Dispatch's
/// shared pool and their moment does not depend on it.
public func onOwnThread(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
    let start = Date()
    Thread {
        Thread.sleep(until: start.addingTimeInterval(seconds))
        action()
    }.start()
}
