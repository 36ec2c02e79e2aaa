import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A named pipe that a reader such as snapserver opens: created if missing, written without ever
/// blocking, so that no reader means "try again soon" rather than a stuck writer thread.
///
/// The write end, once open, stays open until the sink ends, reader or not. A reader that opens the
/// FIFO while a writer holds it waits for data instead of reading end-of-file at once; snapserver,
/// which reopens after end-of-file, would otherwise only ever hold the FIFO for an instant and never
/// meet a writer that opens without blocking. Whether a reader is there is asked of the kernel,
/// which flags a write end without readers.
final class FIFOPeer: PCMPeer, @unchecked Sendable {  // used only on its owner's writer thread
    let pacesItself = false
    private let path: String
    private var fd: Int32 = -1

    /// Creates the FIFO when nothing is at `path`; refuses anything else that is there.
    init(path: String, label: String) throws {
        self.path = path
        try NamedPipe.ensure(at: path, label: label)
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    func open() throws -> String {
        if fd < 0 { fd = try openWriteEnd() }
        guard hasReader else { throw PeerUnavailable("no reader has opened \(path) yet") }
        return "a reader of \(path)"
    }

    /// A writer may only open without blocking while the FIFO has a reader, so this side is its
    /// reader for that moment.
    private func openWriteEnd() throws -> Int32 {
        let reader = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { throw PeerUnavailable("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(reader) }
        let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard writer >= 0 else { throw PeerUnavailable("cannot open \(path): \(String(cString: strerror(errno)))") }
        return writer
    }

    /// Whether anyone has the FIFO open for reading now.
    var hasReader: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return fd >= 0 && !(poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLERR) != 0)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        while true {
            let written = Glibc.write(fd, bytes.baseAddress, bytes.count)
            if written >= 0 { return written }
            switch errno {
            case EINTR: continue
            case EAGAIN: return 0
            case EPIPE: throw PeerUnavailable("the reader closed \(path)")
            default: throw PeerUnavailable(String(cString: strerror(errno)))
            }
        }
    }

    /// Once the reader has gone, what it left unread would reach the next reader as a backlog, so it
    /// goes. (The write end stays open, see the type's notes.)
    func close() {
        guard !hasReader else { return }
        let reader = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { return }
        var scratch = [UInt8](repeating: 0, count: 65536)
        while Glibc.read(reader, &scratch, scratch.count) > 0 {}
        Glibc.close(reader)
    }

    /// A reader may come at any moment; looking every 100 ms costs nothing.
    func retryDelay(afterFailures failures: Int) -> Double { 0.1 }

    /// snapserver reads its pipe in 20 ms chunks on its own clock and fills what the pipe lacks with
    /// silence, so audio written just in time is a gap whenever this writer wakes a little later than
    /// that reader (a loaded machine). A tenth of a second in the pipe covers such a late wake-up.
    let lead = 0.1
}
