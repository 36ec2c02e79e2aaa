import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads raw PCM from a FIFO or a socket on a thread of its own, the way a real reader (snapserver, a
/// TCP receiver) would, and timestamps every read on the monotonic clock. From that it tells how
/// much audio arrived when, and how long the reader ever waited for data: a paced writer delivers
/// `elapsed × bytesPerSecond` and never lets the reader wait much longer than its tick.
///
///     let capture = PCMCapture.fifo(at: path)      // opens like a reader: blocks until a writer comes
///     Thread.sleep(forTimeInterval: 10)
///     capture.stop()
///     XCTAssertLessThan(capture.longestWait(), 0.05)
public final class PCMCapture: @unchecked Sendable {
    /// One read: when it returned (monotonic seconds) and the bytes received so far, this read included.
    public struct Read: Sendable {
        public let time: Double
        public let totalBytes: Int
    }

    private let lock = NSLock()
    private var fd: Int32 = -1
    private var stopped = false
    private var bytes = Data()
    private var log: [Read] = []
    private var ended = false
    private let done = DispatchSemaphore(value: 0)

    /// Reads a descriptor that is already open (an accepted socket).
    public init(descriptor: Int32) {
        fd = descriptor
        start { $0 }
    }

    private init(opening path: String) {
        start { _ in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            return descriptor
        }
    }

    /// Opens the FIFO for reading on the capture's thread (blocking until a writer opens it, as a
    /// reader does) and reads until stopped or the writer closes it.
    public static func fifo(at path: String) -> PCMCapture {
        PCMCapture(opening: path)
    }

    private func start(_ open: @escaping @Sendable (Int32) -> Int32) {
        let initial = fd
        let thread = Thread { [self] in
            let descriptor = open(initial)
            let proceed = lock.withLock { () -> Bool in
                fd = descriptor
                return !stopped && descriptor >= 0
            }
            if proceed { readLoop(descriptor) }
            done.signal()
        }
        thread.name = "pcm-capture"
        thread.start()
    }

    private func readLoop(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            let now = Self.now()
            if count < 0 && errno == EINTR { continue }
            let keepGoing = lock.withLock { () -> Bool in
                guard count > 0, !stopped else {
                    ended = true
                    return false
                }
                bytes.append(contentsOf: buffer[0..<count])
                log.append(Read(time: now, totalBytes: bytes.count))
                return true
            }
            if !keepGoing { return }
        }
    }

    /// Stops reading and closes the descriptor (a FIFO reader leaving, a receiver hanging up).
    public func stop() {
        let (descriptor, alreadyStopped) = lock.withLock { () -> (Int32, Bool) in
            defer { stopped = true }
            return (fd, stopped)
        }
        guard !alreadyStopped else { return }
        // Wakes a blocked read; a capture still waiting in open() for a writer is left to end with the process.
        if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
        if done.wait(timeout: .now() + 2) == .success, descriptor >= 0 { close(descriptor) }
    }

    /// Everything read so far.
    public var data: Data { lock.withLock { bytes } }

    /// Every read so far, in order.
    public var reads: [Read] { lock.withLock { log } }

    /// True once the writer closed its end (or the capture was stopped).
    public var hasEnded: Bool { lock.withLock { ended } }

    /// The longest time between two reads after the first, in seconds: how long the reader starved.
    public func longestWait() -> Double {
        let reads = self.reads
        return zip(reads, reads.dropFirst()).map { $1.time - $0.time }.max() ?? 0
    }

    /// How far the audio that arrived after the first read, up to `seconds` later, is ahead of (+) or
    /// behind (−) the wall clock, in seconds of audio.
    public func drift(over seconds: Double, bytesPerSecond: Int) -> Double? {
        let reads = self.reads
        guard let first = reads.first, let last = reads.last(where: { $0.time <= first.time + seconds }),
              last.time - first.time > seconds * 0.9 else { return nil }
        let audio = Double(last.totalBytes - first.totalBytes) / Double(bytesPerSecond)
        return audio - (last.time - first.time)
    }

    /// Seconds on the monotonic clock, comparable to `Read.time`.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
