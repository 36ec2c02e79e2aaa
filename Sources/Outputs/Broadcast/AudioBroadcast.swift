import Foundation
import RadioModel
import StreamInput

/// One encoded stream as its readers share it — the listeners of an HTTP relay mount, an Icecast
/// source connection: the container's header, then a window of recent audio with the title changes
/// in place.
///
/// The producer (a feed, on the station's decode thread) writes the bytes of one muxer call and
/// commits them as one unit, so every unit boundary is a point where a reader can join (whole MP3/ADTS
/// frames, Ogg pages, FLAC frames, WAV sample frames). That holds because libavformat flushes a
/// custom output after the header and after every packet (`flush_packets`' default for an output
/// with no minimum packet size), so no muxer call leaves bytes behind in its buffer. Readers keep a cursor into the window; the
/// window holds `retainedBytes`, however many readers there are, so memory does not grow with them.
/// A reader whose unread bytes would exceed that has lost its place (`.fellBehind`) and must leave:
/// that is how a slow listener is dropped without slowing anyone else.
package final class AudioBroadcast: @unchecked Sendable {  // the window, header and readers' count in `state`
    package enum Item: Sendable {
        case audio([UInt8])
        /// From here on, this is on air.
        case title(TitleChange)
    }

    /// A reader's place in the window.
    package struct Cursor: Sendable, Hashable {
        fileprivate var sequence: Int64
    }

    /// What a new reader needs: the container header to send first, then items from the cursor.
    package struct Joining: Sendable {
        package let header: [UInt8]
        package let contentType: String
        package let cursor: Cursor
        /// The title on air where the cursor starts.
        package let title: TitleChange?
    }

    package enum ReadResult: Sendable {
        /// The next items (none when the reader is at the live edge).
        case items([Item])
        /// The reader's unread bytes exceeded the window.
        case fellBehind
        /// The stream is over and the reader has everything.
        case ended
    }

    package let retainedBytes: Int
    private struct State {
        var header: [UInt8]?
        var contentType = "application/octet-stream"
        var pending: [UInt8] = []
        /// The window is `entries[dropped...]`; `entries[dropped + i]` has sequence number `firstSequence + i`.
        /// Dropped entries are removed in batches, so trimming the window is not a copy per commit.
        var entries: [(item: Item, start: Int64)] = []
        var dropped = 0
        var firstSequence: Int64 = 0
        var totalBytes: Int64 = 0
        var titleBeforeWindow: TitleChange?
        var ended = false
        var failure: Error?
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserver = 0
        var listenerCount = 0
    }
    private let state = Locked(State())

    package init(retainedBytes: Int = 256 * 1024) {
        self.retainedBytes = retainedBytes
    }

    // MARK: Producer

    /// Bytes of the muxer call in progress (the feed's `.stream` output).
    package func write(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { $0.pending.append(contentsOf: bytes) }
    }

    /// What the container is, once known (a copy learns it from the first packet's codec).
    package func setContentType(_ type: String) {
        state.withLock { $0.contentType = type }
    }

    /// Ends the muxer call in progress: its bytes become the header if none was committed yet (the
    /// stream is then live), else one unit of audio. Throws what a reader reported with `fail`.
    package func commit() throws {
        let notify = try state.withLock { (state) -> Bool in
            if let failure = state.failure { throw failure }
            guard state.header != nil else {
                state.header = state.pending
                state.pending = []
                return true
            }
            guard !state.pending.isEmpty else { return false }
            append(.audio(state.pending), bytes: state.pending.count, to: &state)
            state.pending = []
            return true
        }
        if notify { notifyObservers() }
    }

    package func publish(_ title: TitleChange) throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            append(.title(title), bytes: 0, to: &state)
        }
        notifyObservers()
    }

    /// No more audio will come.
    package func end() {
        let alreadyEnded = state.withLock { (state) -> Bool in
            defer { state.ended = true }
            return state.ended
        }
        if !alreadyEnded { notifyObservers() }
    }

    // MARK: Readers (any thread)

    /// Makes the producer fail at its next commit: a reader that cannot go on (Icecast refused the
    /// password) detaches the feed from the station this way, which reports it.
    package func fail(_ error: Error) {
        state.withLock { $0.failure = $0.failure ?? error }
    }

    /// `action` runs after every commit, title and the end, on the producer's thread: it must only
    /// wake the reader (it runs outside the broadcast's lock).
    package func observe(_ action: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = action
            return state.nextObserver
        }
    }

    package func stopObserving(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    /// A new reader's start: up to `burstBytes` of recent audio before the live edge (so a player
    /// fills its buffer at once and starts playing), or nil while no header exists yet.
    package func join(burstBytes: Int) -> Joining? {
        state.withLock { state in
            guard let header = state.header, !state.ended else { return nil }
            var index = state.entries.count
            while index > state.dropped, state.totalBytes - state.entries[index - 1].start <= Int64(burstBytes) { index -= 1 }
            var title = state.titleBeforeWindow
            for entry in state.entries[state.dropped..<index] { if case .title(let change) = entry.item { title = change } }
            return Joining(header: header, contentType: state.contentType,
                           cursor: Cursor(sequence: state.firstSequence + Int64(index - state.dropped)), title: title)
        }
    }

    /// The items after `cursor`, about `maxBytes` of audio at most (whole units), advancing it.
    package func read(_ cursor: inout Cursor, maxBytes: Int) -> ReadResult {
        state.withLock { state in
            guard cursor.sequence >= state.firstSequence else { return .fellBehind }
            var items: [Item] = []
            var bytes = 0
            var index = state.dropped + Int(cursor.sequence - state.firstSequence)
            while index < state.entries.count, bytes < maxBytes {
                items.append(state.entries[index].item)
                if case .audio(let audio) = state.entries[index].item { bytes += audio.count }
                index += 1
            }
            cursor.sequence = state.firstSequence + Int64(index - state.dropped)
            return items.isEmpty && state.ended ? .ended : .items(items)
        }
    }

    /// Whether a reader at `cursor` has fallen out of the window (its next `read` says `.fellBehind`).
    package func hasLost(_ cursor: Cursor) -> Bool {
        state.withLock { cursor.sequence < $0.firstSequence }
    }

    package var isLive: Bool { state.withLock { $0.header != nil && !$0.ended } }

    package var hasEnded: Bool { state.withLock { $0.ended } }

    /// The readers streaming it now, as the server that has them last counted.
    package var listeners: Int {
        get { state.withLock { $0.listenerCount } }
        set { state.withLock { $0.listenerCount = newValue } }
    }

    /// Audio bytes committed so far.
    package var bytesProduced: Int64 { state.withLock { $0.totalBytes } }

    package var mediaType: String { state.withLock { $0.contentType } }

    // MARK: Inside the lock

    private func append(_ item: Item, bytes: Int, to state: inout State) {
        state.entries.append((item, state.totalBytes))
        state.totalBytes += Int64(bytes)
        while state.dropped < state.entries.count, state.totalBytes - state.entries[state.dropped].start > Int64(retainedBytes) {
            if case .title(let change) = state.entries[state.dropped].item { state.titleBeforeWindow = change }
            state.entries[state.dropped].item = .audio([])  // the bytes go now, the slot with the next batch
            state.dropped += 1
            state.firstSequence += 1
        }
        if state.dropped >= 1024, state.dropped * 2 >= state.entries.count {
            state.entries.removeFirst(state.dropped)
            state.dropped = 0
        }
    }

    private func notifyObservers() {
        for observer in state.withLock({ Array($0.observers.values) }) { observer() }
    }
}
