import Foundation

/// Passes runs from a source's network side to the one consumer thread blocked in `nextRun`.
/// Shared by every `IngestSource`, so they all end and stop the same way.
final class RunHandover: @unchecked Sendable {  // runs and flags only inside `condition`
    private let condition = NSCondition()
    private var ready: [IngestRun] = []
    /// The run the consumer has, so `stop` can end its reads at once.
    private var consumed: IngestRun?
    private var finished = false
    private var stopped = false

    /// Queues a run for the consumer.
    func offer(_ run: IngestRun) {
        condition.withLock {
            guard !stopped else { return run.queue.close() }
            ready.append(run)
            condition.broadcast()
        }
    }

    /// Blocks until a run is ready; nil once the source has finished (after the runs it offered) or was stopped.
    func next() -> IngestRun? {
        condition.withLock {
            while ready.isEmpty && !finished && !stopped { condition.wait() }
            consumed = stopped || ready.isEmpty ? nil : ready.removeFirst()
            return consumed
        }
    }

    /// No more runs will come; those already offered are still handed out.
    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// Ends everything at once: buffered bytes are dropped, reads return end of stream.
    func stop() {
        condition.withLock {
            stopped = true
            consumed?.queue.close()
            ready.forEach { $0.queue.close() }
            ready = []
            condition.broadcast()
        }
    }

    /// Finished or stopped: nothing more should be started.
    var isClosed: Bool { condition.withLock { finished || stopped } }
}
