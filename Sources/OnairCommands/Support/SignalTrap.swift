import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Runs a handler on Ctrl-C or SIGTERM (a graceful stop); a second signal exits at once, after
/// `beforeExit` (which puts back what must not be left behind, like the terminal's settings).
final class SignalTrap {
    private var sources: [DispatchSourceSignal] = []

    init(beforeExit: @escaping @Sendable () -> Void = {}, _ handler: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "onair.signals")
        nonisolated(unsafe) var received = 0
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                received += 1
                if received > 1 {
                    beforeExit()
                    _exit(130)
                }
                handler()
            }
            source.resume()
            sources.append(source)
        }
    }
}
