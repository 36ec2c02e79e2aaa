import Foundation
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// Wakes a thread that sleeps in `poll()` from any other thread: the sleeper polls `readEnd`. Signals
/// coalesce, so a producer may signal on every write without filling the pipe.
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let signalled = Locked(false)

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SinkError.system("cannot create a wake-up pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func signal() {
        signalled.withLock { signalled in
            guard !signalled else { return }
            signalled = true
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    /// Called by the sleeper after `poll()` and before it looks at what changed: a signal that
    /// arrives later writes a new byte, so none is lost.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        signalled.withLock { $0 = false }
    }
}
