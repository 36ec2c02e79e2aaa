#if canImport(Glibc)
import Glibc
#endif

/// Keeps SIGPIPE from killing the process when a sink writes to a FIFO whose reader has left. The
/// signal is blocked on the writer thread alone (a library must not change the process's handlers),
/// so the write fails with EPIPE instead; the signal stays pending on that thread, harmlessly, and
/// goes with it.
enum BrokenPipeSignal {
    static func blockOnThisThread() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
