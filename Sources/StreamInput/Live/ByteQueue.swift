import Foundation

/// A bounded FIFO of bytes between the network thread (producer) and one demux thread (consumer).
///
/// The producer never blocks: `tryAppend` refuses bytes when the queue is full, and the transfer
/// pauses until the consumer has drained it below half (`onSpaceAvailable`). The consumer blocks in
/// `read` until bytes arrive or the producer calls `finish`.
///
/// A consumer that nobody waits on (a recording, a copy served to listeners who hold seconds of it) may
/// set `readerPatience`: once drained it sleeps that long, or until `wakeThreshold` bytes are in, and takes
/// what gathered in one wake-up. A station sent every 100 ms otherwise wakes its reader ten times a second:
/// at a thousand stations, 12,700 context switches a second instead of 3,900.
public final class ByteQueue: @unchecked Sendable {  // storage and state only inside `condition`
    public let capacity: Int
    private let condition = NSCondition()
    private var storage: [UInt8] = []
    private var readIndex = 0
    private var finished = false
    private var closed = false
    private var refusedSinceLastRead = false
    /// The reader sleeps in `read` or `peek` until the next append, which must wake it.
    private var readerWaitsForAnyByte = false
    private var patience = 0.0
    private var onSpaceAvailable: (@Sendable () -> Void)?
    /// Bytes handed to the consumer so far.
    public private(set) var bytesRead: Int64 = 0

    /// Storage kept for the next bytes once the queue is drained: libcurl's largest write.
    static let keptCapacity = 16 << 10

    /// Bytes that wake a patient reader before its time is up: a burst, or a fast stream, is not held back.
    public var wakeThreshold: Int { min(64 << 10, capacity / 2) }

    public init(capacity: Int = 1 << 20) {
        self.capacity = capacity
    }

    /// Seconds a drained reader waits for more bytes to gather before it reads again; 0 (the default)
    /// reads each write as it comes. Set by the reader, so it never changes under a wait.
    public var readerPatience: Double {
        get { condition.withLock { patience } }
        set { condition.withLock { patience = max(0, newValue) } }
    }

    /// Called (outside the lock) when a refused producer may try again.
    public func setSpaceAvailableHandler(_ handler: @escaping @Sendable () -> Void) {
        condition.withLock { onSpaceAvailable = handler }
    }

    private var buffered: Int { storage.count - readIndex }

    /// Whether `count` more bytes fit. An empty queue takes any chunk, so progress never stops.
    public func hasRoom(for count: Int) -> Bool {
        condition.withLock {
            let fits = closed || buffered == 0 || buffered + count <= capacity
            if !fits { refusedSinceLastRead = true }
            return fits
        }
    }

    /// Appends bytes; call `hasRoom` first. Bytes for a closed queue are dropped.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        let wakeReader = condition.withLock { () -> Bool in
            guard !closed, !finished else { return false }
            // Room for a whole write at once, rather than growing to it a doubling at a time.
            if storage.capacity < Self.keptCapacity { storage.reserveCapacity(Self.keptCapacity) }
            storage.append(contentsOf: bytes)
            return readerWaitsForAnyByte || buffered >= wakeThreshold
        }
        // Woken once the lock is free: woken inside it, the reader ran only to wait for the lock
        // and be woken again, two context switches per write where one will do. The reader says
        // under the lock that it waits before it does, so no wake-up is lost.
        if wakeReader { condition.broadcast() }
    }

    /// The producer is done: readers get the rest, then end of stream.
    public func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// The consumer is gone: everything buffered is dropped, readers and producers return at once.
    public func close() {
        condition.withLock {
            closed = true
            finished = true
            storage = []
            readIndex = 0
            condition.broadcast()
        }
    }

    /// Bytes of memory the queue holds now, buffered or not.
    public var heldBytes: Int { condition.withLock { storage.capacity } }

    public var isFinished: Bool { condition.withLock { finished && buffered == 0 } }

    /// Blocks until at least one byte is available, then copies up to `buffer.count` bytes.
    /// Returns 0 at the end of the stream.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var wakeProducer: (@Sendable () -> Void)?
        let count: Int = condition.withLock {
            if buffered == 0 && !finished && patience > 0 {
                let deadline = Date(timeIntervalSinceNow: patience)
                while buffered < wakeThreshold && !finished && condition.wait(until: deadline) {}
            }
            waitForBytes { buffered > 0 }
            let count = min(buffer.count, buffered)
            guard count > 0 else { return 0 }
            storage.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[readIndex..<readIndex + count]))
            }
            readIndex += count
            bytesRead += Int64(count)
            if readIndex == storage.count {
                // Drained, as it is most of the time: start again at the front, at no cost. Storage that a
                // burst grew is let go, so a thousand stations do not each keep the largest burst they had.
                if storage.capacity > Self.keptCapacity { storage = [] } else { storage.removeAll(keepingCapacity: true) }
                readIndex = 0
            } else if readIndex >= 1 << 16 && readIndex * 2 >= storage.count {
                storage.removeFirst(readIndex)
                readIndex = 0
            }
            if refusedSinceLastRead && buffered <= capacity / 2 {
                refusedSinceLastRead = false
                wakeProducer = onSpaceAvailable
            }
            return count
        }
        wakeProducer?()
        return count
    }

    /// Blocks until `count` bytes are buffered (or the stream ends) and returns them without
    /// consuming them: what a format probe looks at.
    public func peek(upTo count: Int) -> [UInt8] {
        condition.withLock {
            waitForBytes { buffered >= count }
            return Array(storage[readIndex..<readIndex + min(count, buffered)])
        }
    }

    /// Under the lock: sleeps until `enough` holds or the stream ends, each append waking it.
    private func waitForBytes(until enough: () -> Bool) {
        guard !enough() && !finished else { return }
        readerWaitsForAnyByte = true
        while !enough() && !finished { condition.wait() }
        readerWaitsForAnyByte = false
    }
}
