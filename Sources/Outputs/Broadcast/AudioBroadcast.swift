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
package final class AudioBroadcast: @unchecked Sendable {  // the window, header and readers' count inside `lock`
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
    private let lock = NSLock()
    private var header: [UInt8]?
    private var contentType = "application/octet-stream"
    private var pending: [UInt8] = []
    /// The window is `entries[dropped...]`; `entries[dropped + i]` has sequence number `firstSequence + i`.
    /// Dropped entries are removed in batches, so trimming the window is not a copy per commit.
    private var entries: [(item: Item, start: Int64)] = []
    private var dropped = 0
    private var firstSequence: Int64 = 0
    private var totalBytes: Int64 = 0
    private var titleBeforeWindow: TitleChange?
    private var ended = false
    private var failure: Error?
    private var observers: [Int: @Sendable () -> Void] = [:]
    private var nextObserver = 0
    private var listenerCount = 0

    package init(retainedBytes: Int = 256 * 1024) {
        self.retainedBytes = retainedBytes
    }

    // MARK: Producer

    /// Bytes of the muxer call in progress (the feed's `.stream` output).
    package func write(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock { pending.append(contentsOf: bytes) }
    }

    /// What the container is, once known (a copy learns it from the first packet's codec).
    package func setContentType(_ type: String) {
        lock.withLock { contentType = type }
    }

    /// Ends the muxer call in progress: its bytes become the header if none was committed yet (the
    /// stream is then live), else one unit of audio. Throws what a reader reported with `fail`.
    package func commit() throws {
        let notify = try lock.withLock { () -> Bool in
            if let failure { throw failure }
            guard header != nil else {
                header = pending
                pending = []
                return true
            }
            guard !pending.isEmpty else { return false }
            append(.audio(pending), bytes: pending.count)
            pending = []
            return true
        }
        if notify { notifyObservers() }
    }

    package func publish(_ title: TitleChange) throws {
        try lock.withLock {
            if let failure { throw failure }
            append(.title(title), bytes: 0)
        }
        notifyObservers()
    }

    /// No more audio will come.
    package func end() {
        let alreadyEnded = lock.withLock { () -> Bool in
            defer { ended = true }
            return ended
        }
        if !alreadyEnded { notifyObservers() }
    }

    // MARK: Readers (any thread)

    /// Makes the producer fail at its next commit: a reader that cannot go on (Icecast refused the
    /// password) detaches the feed from the station this way, which reports it.
    package func fail(_ error: Error) {
        lock.withLock { failure = failure ?? error }
    }

    /// `action` runs after every commit, title and the end, on the producer's thread: it must only
    /// wake the reader (it runs outside the broadcast's lock).
    package func observe(_ action: @escaping @Sendable () -> Void) -> Int {
        lock.withLock {
            nextObserver += 1
            observers[nextObserver] = action
            return nextObserver
        }
    }

    package func stopObserving(_ token: Int) {
        _ = lock.withLock { observers.removeValue(forKey: token) }
    }

    /// A new reader's start: up to `burstBytes` of recent audio before the live edge (so a player
    /// fills its buffer at once and starts playing), or nil while no header exists yet.
    package func join(burstBytes: Int) -> Joining? {
        lock.withLock {
            guard let header, !ended else { return nil }
            var index = entries.count
            while index > dropped, totalBytes - entries[index - 1].start <= Int64(burstBytes) { index -= 1 }
            var title = titleBeforeWindow
            for entry in entries[dropped..<index] { if case .title(let change) = entry.item { title = change } }
            return Joining(header: header, contentType: contentType,
                           cursor: Cursor(sequence: firstSequence + Int64(index - dropped)), title: title)
        }
    }

    /// The items after `cursor`, about `maxBytes` of audio at most (whole units), advancing it.
    package func read(_ cursor: inout Cursor, maxBytes: Int) -> ReadResult {
        lock.withLock {
            guard cursor.sequence >= firstSequence else { return .fellBehind }
            var items: [Item] = []
            var bytes = 0
            var index = dropped + Int(cursor.sequence - firstSequence)
            while index < entries.count, bytes < maxBytes {
                items.append(entries[index].item)
                if case .audio(let audio) = entries[index].item { bytes += audio.count }
                index += 1
            }
            cursor.sequence = firstSequence + Int64(index - dropped)
            return items.isEmpty && ended ? .ended : .items(items)
        }
    }

    /// Whether a reader at `cursor` has fallen out of the window (its next `read` says `.fellBehind`).
    package func hasLost(_ cursor: Cursor) -> Bool {
        lock.withLock { cursor.sequence < firstSequence }
    }

    package var isLive: Bool { lock.withLock { header != nil && !ended } }

    package var hasEnded: Bool { lock.withLock { ended } }

    /// The readers streaming it now, as the server that has them last counted.
    package var listeners: Int {
        get { lock.withLock { listenerCount } }
        set { lock.withLock { listenerCount = newValue } }
    }

    /// Audio bytes committed so far.
    package var bytesProduced: Int64 { lock.withLock { totalBytes } }

    package var mediaType: String { lock.withLock { contentType } }

    // MARK: Inside the lock

    private func append(_ item: Item, bytes: Int) {
        entries.append((item, totalBytes))
        totalBytes += Int64(bytes)
        while dropped < entries.count, totalBytes - entries[dropped].start > Int64(retainedBytes) {
            if case .title(let change) = entries[dropped].item { titleBeforeWindow = change }
            entries[dropped].item = .audio([])  // the bytes go now, the slot with the next batch
            dropped += 1
            firstSequence += 1
        }
        if dropped >= 1024, dropped * 2 >= entries.count {
            entries.removeFirst(dropped)
            dropped = 0
        }
    }

    private func notifyObservers() {
        for observer in lock.withLock({ Array(observers.values) }) { observer() }
    }
}
