import Foundation

/// Polls `condition` until it gives a value; throws, naming `what`, after `timeout` seconds.
func waitFor<T>(_ what: String, timeout: Double, _ condition: () throws -> T?) throws -> T {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if let value = try condition() { return value }
        Thread.sleep(forTimeInterval: 0.1)
    }
    throw TimedOut(description: "no \(what) within \(timeout) s")
}

struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// An array appended to from several threads.
final class ThreadSafeArray<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Element] = []
    func append(_ element: Element) { lock.withLock { stored.append(element) } }
    var values: [Element] { lock.withLock { stored } }
}
