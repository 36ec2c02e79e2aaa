import Foundation

/// Polls `condition` every 50 ms until it holds (true) or `timeout` passes (false).
public func eventually(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return true
}

/// Runs `action` on a thread of its own after `seconds`: a fault a test injects at a moment of the
/// stream must not wait for a Dispatch worker, which work left running by earlier tests can hold.
public func onOwnThread(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
    let start = Date()
    Thread {
        Thread.sleep(until: start.addingTimeInterval(seconds))
        action()
    }.start()
}
