import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Runs a handler on Ctrl-C or SIGTERM (a graceful stop); a second signal exits at once, after
/// `beforeExit` (which puts back what must not be left behind, like the terminal's settings).
/// The handler runs while the trap lives (a source is cancelled when let go): a command keeps it for its run.
final class SignalTrap {
    private let sources: [DispatchSourceSignal]

    init(beforeExit: @escaping @Sendable () -> Void = {}, _ handler: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "onair.signals")
        nonisolated(unsafe) var received = 0  // only touched on `queue`
        sources = [SIGINT, SIGTERM].map { number in
            Self.source(for: number, queue: queue) {
                received += 1
                if received > 1 {
                    beforeExit()
                    _exit(130)
                }
                handler()
            }
        }
    }

    /// A resumed source for `number`. Dispatch on Linux installs its own handler for a signal when its
    /// first source is registered (it forwards the signal to a signalfd), and never again. Until then the
    /// signal is ignored, so one that comes in between does not end the process; once Dispatch's handler
    /// is in, it is left alone: ignoring the signal again would keep it out for good and, since an ignored
    /// signal stays ignored across exec, make every child onair starts deaf to it (alert hooks, and in
    /// the tests, every server a test stops with SIGTERM).
    static func source(for number: Int32, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        var current = sigaction()
        if sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
            signal(number, SIG_IGN)
        }
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
