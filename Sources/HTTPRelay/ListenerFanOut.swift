import Foundation
import HTTPServing
import NIOCore
import NIOHTTPTypes
import Outputs
import RadioModel
import StreamInput

/// Writes a mount's broadcast to its listeners from their connections' event loops, as Icecast writes
/// from its own loop rather than from a task per listener: after a commit, each event loop that holds
/// listeners of the mount wakes once (a little later, gathering the next few commits into one write),
/// reads the broadcast once for all its listeners at the same place, and writes that one buffer —
/// the same storage, not a copy — to each of them. A listener's own task only waits for its end.
///
/// A listener whose connection is not writable (it stopped reading, and what was written fills the
/// socket and the channel's buffer) is skipped and keeps its place; once the broadcast's window has
/// moved past that place it is dropped — its connection closed — so it never holds anyone up, and
/// what waits for it is bounded by the channel's high-water mark, not by its lag.
final class ListenerFanOut: Sendable {
    /// How long a loop waits after a commit before it writes, so a write carries a quarter second of
    /// frames: each write is a system call per listener, most of what a thousand listeners cost; a
    /// listener has its burst of several seconds buffered, so it never waits for the next write.
    static let gatherWrites = TimeAmount.milliseconds(250)
    /// Audio read from the broadcast for a listener per write, at most: a quarter second of WAV fits.
    /// A listener still behind after a write (joined, or was slow for a while) gets the next at once.
    static let refillBytes = 64 * 1024

    private let broadcast: AudioBroadcast
    private let countSent: @Sendable ([Int: Int64]) -> Void
    private let loops = Locked<[ObjectIdentifier: LoopListeners]>([:])
    private let observation = Locked<Int?>(nil)

    /// `countSent` gets the bytes written to each listener (by id) in one round.
    init(broadcast: AudioBroadcast, countSent: @escaping @Sendable ([Int: Int64]) -> Void) {
        self.broadcast = broadcast
        self.countSent = countSent
        observation.withLock { $0 = broadcast.observe { [weak self] in self?.committed() } }
    }

    deinit { observation.current.map(broadcast.stopObserving) }

    /// Streams the broadcast from `cursor` to the listener `id` on `channel`, whose response head and
    /// first bytes are written already, until the broadcast ends (returns), the listener falls out of the
    /// window (throws `RelayListener.FellBehind`, its connection closed), its connection closes or the
    /// task is cancelled (throws).
    func serve(_ channel: any Channel, listener id: Int, from cursor: AudioBroadcast.Cursor, interleaver: ICYInterleaver?) async throws {
        let loop = listeners(on: channel.eventLoop)
        let listener = Listener(id: id, channel: channel, cursor: cursor, interleaver: interleaver)
        try await withTaskCancellationHandler {
            loop.eventLoop.execute { loop.add(listener) }
            try await listener.ending.wait()
        } onCancel: {
            listener.ending.finish(.failure(CancellationError()))
        }
    }

    private func listeners(on eventLoop: any EventLoop) -> LoopListeners {
        loops.withLock { loops in
            let key = ObjectIdentifier(eventLoop)
            if let existing = loops[key] { return existing }
            let made = LoopListeners(eventLoop: eventLoop, broadcast: broadcast, countSent: countSent)
            loops[key] = made
            return made
        }
    }

    /// The broadcast committed audio or a title, or ended: every loop with listeners writes soon.
    private func committed() {
        for loop in loops.current.values { loop.flushSoon() }
    }
}

/// One listener as its event loop serves it.
private final class Listener: @unchecked Sendable {  // `cursor` and `interleaver` are touched on the channel's event loop only, once it has the listener
    let id: Int
    let channel: any Channel
    var cursor: AudioBroadcast.Cursor
    var interleaver: ICYInterleaver?
    let ending = ListenerEnding()

    init(id: Int, channel: any Channel, cursor: AudioBroadcast.Cursor, interleaver: ICYInterleaver?) {
        self.id = id; self.channel = channel; self.cursor = cursor; self.interleaver = interleaver
    }
}

/// How a listener's stream ended, told once to the task waiting for it.
private final class ListenerEnding: Sendable {
    private let state = Locked<(waiting: CheckedContinuation<Void, Error>?, outcome: Result<Void, Error>?)>((nil, nil))

    var hasEnded: Bool { state.current.outcome != nil }

    /// The first outcome counts; later ones are ignored.
    func finish(_ outcome: Result<Void, Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: outcome)
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<Void, Error>? in
                if state.outcome == nil { state.waiting = continuation }
                return state.outcome
            }
            outcome.map { continuation.resume(with: $0) }
        }
    }
}

/// The listeners of one mount whose connections are on one event loop, and their rounds of writes.
private final class LoopListeners: @unchecked Sendable {  // `listeners` is touched on `eventLoop` only; `schedule` inside its lock
    let eventLoop: any EventLoop
    private let broadcast: AudioBroadcast
    private let countSent: @Sendable ([Int: Int64]) -> Void
    private var listeners: [Listener] = []
    /// Whether a round is scheduled, and whether there is anyone to write to.
    private let schedule = Locked((pending: false, listeners: 0))

    init(eventLoop: any EventLoop, broadcast: AudioBroadcast, countSent: @escaping @Sendable ([Int: Int64]) -> Void) {
        self.eventLoop = eventLoop; self.broadcast = broadcast; self.countSent = countSent
    }

    /// Schedules a round unless one is pending or no listener is here.
    func flushSoon() { flush(after: ListenerFanOut.gatherWrites) }

    private func flush(after delay: TimeAmount) {
        let start = schedule.withLock { schedule -> Bool in
            guard !schedule.pending, schedule.listeners > 0 else { return false }
            schedule.pending = true
            return true
        }
        if start { eventLoop.scheduleTask(in: delay) { self.flush() } }
    }

    /// On the loop.
    func add(_ listener: Listener) {
        guard !listener.ending.hasEnded else { return }
        listeners.append(listener)
        schedule.withLock { $0.listeners = listeners.count }
        listener.channel.closeFuture.whenComplete { _ in
            listener.ending.finish(.failure(ChannelError.ioOnClosedChannel))
            self.removeEnded()
        }
        flushSoon()
    }

    private func removeEnded() {
        listeners.removeAll { $0.ending.hasEnded }
        schedule.withLock { $0.listeners = listeners.count }
    }

    /// One broadcast read per place listeners are at, shared by all of them there.
    private struct Read {
        let result: AudioBroadcast.ReadResult
        let next: AudioBroadcast.Cursor
        /// The audio as one buffer, for every listener without ICY titles.
        let plain: ByteBuffer
        /// Whether the read stopped at `refillBytes` (the listener has more to catch up).
        let full: Bool
    }

    /// One round, on the loop: every writable listener gets what the broadcast has after its place.
    private func flush() {
        schedule.withLock { $0.pending = false }
        var reads: [AudioBroadcast.Cursor: Read] = [:]
        var sent: [Int: Int64] = [:]
        var stalled = false
        var behind = false
        for listener in listeners where !listener.ending.hasEnded {
            guard listener.channel.isWritable else {
                if broadcast.hasLost(listener.cursor) { drop(listener) } else { stalled = true }
                continue
            }
            let read = reads[listener.cursor] ?? self.read(from: listener.cursor, allocator: listener.channel.allocator)
            reads[listener.cursor] = read
            switch read.result {
            case .fellBehind: drop(listener)
            case .ended: listener.ending.finish(.success(()))
            case .items(let items):
                behind = behind || read.full
                let bytes = listener.interleaver == nil ? read.plain : interleaved(items, for: listener)
                listener.cursor = read.next
                guard bytes.readableBytes > 0 else { continue }
                listener.channel.writeAndFlush(HTTPResponsePart.body(bytes), promise: nil)
                sent[listener.id] = Int64(bytes.readableBytes)
            }
        }
        removeEnded()
        if !sent.isEmpty { countSent(sent) }
        if behind { flush(after: .zero) } else if stalled { flushSoon() }
    }

    private func read(from cursor: AudioBroadcast.Cursor, allocator: ByteBufferAllocator) -> Read {
        var next = cursor
        let result = broadcast.read(&next, maxBytes: ListenerFanOut.refillBytes)
        guard case .items(let items) = result else { return Read(result: result, next: next, plain: ByteBuffer(), full: false) }
        var plain = allocator.buffer(capacity: 0)
        for case .audio(let bytes) in items { plain.writeBytes(bytes) }
        return Read(result: result, next: next, plain: plain, full: plain.readableBytes >= ListenerFanOut.refillBytes)
    }

    /// The items with this listener's ICY title slots, at its own positions.
    private func interleaved(_ items: [AudioBroadcast.Item], for listener: Listener) -> ByteBuffer {
        var output: [UInt8] = []
        RelayListener.append(items, to: &output, interleaver: &listener.interleaver)
        return ByteBuffer(bytes: output)
    }

    private func drop(_ listener: Listener) {
        listener.ending.finish(.failure(RelayListener.FellBehind()))
        listener.channel.close(promise: nil)
    }
}
