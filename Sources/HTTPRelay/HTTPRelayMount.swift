import Foundation
import HTTPServing
import Media
import Outputs
import RadioModel
import StreamInput

/// One path of a relay server: the broadcast it serves, who may listen to it, and who listens now.
public final class HTTPRelayMount: Sendable {
    let path: String
    let broadcast: AudioBroadcast
    let options: HTTPRelayOptions
    /// `icy-name`, when the sink or the station has one.
    let name: String?
    /// The sink as written, token hidden: names the mount in events.
    let label: String
    /// Recent audio a new listener gets at once, as Icecast's burst-on-connect does, so a player fills
    /// its buffer and starts without waiting for real-time audio to trickle in.
    let burstBytes: Int
    let onEvent: @Sendable (StreamEvent) -> Void
    /// Told the number of listeners each time one comes or goes.
    let onListeners: @Sendable (Int) -> Void

    /// Writes the broadcast to the listeners, from their connections' event loops.
    let fanOut: ListenerFanOut

    private let listeners: Locked<[Int: RelayListenerRecord]>
    private let nextListener = Locked(0)

    init(path: String, broadcast: AudioBroadcast, options: HTTPRelayOptions, name: String?, label: String,
         burstBytes: Int, onEvent: @escaping @Sendable (StreamEvent) -> Void, onListeners: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.path = path; self.broadcast = broadcast; self.options = options; self.name = name
        self.label = label; self.burstBytes = burstBytes; self.onEvent = onEvent; self.onListeners = onListeners
        let listeners = Locked<[Int: RelayListenerRecord]>([:])
        self.listeners = listeners
        fanOut = ListenerFanOut(broadcast: broadcast) { sent in Self.count(sent, in: listeners) }
    }

    /// A mount and the feed that fills it, for a station's audio in `format`: what an `http://` sink
    /// and the daemon's live mounts (`/live/STATION`) serve.
    public static func make(path: String, format: RelayFormat = .copy, options: HTTPRelayOptions = HTTPRelayOptions(), label: String,
                            input: PCMFormat, name: String?, onEvent: @escaping @Sendable (StreamEvent) -> Void = { _ in },
                            onListeners: @escaping @Sendable (Int) -> Void = { _ in })
        throws -> (mount: HTTPRelayMount, feed: StreamConsumer) {
        // A listener may fall this far behind before it is dropped; lossless formats carry ~10× the
        // bytes per second of lossy ones, so they get a wider window for the same seconds.
        let lossless: Bool
        if case .encode(let encoding) = format { lossless = encoding == .flac || encoding == .wav } else { lossless = false }
        let window = lossless ? 2 * 1024 * 1024 : 256 * 1024
        let broadcast = AudioBroadcast(retainedBytes: window)
        let feed = try BroadcastFeed.make(format, input: input, label: label, into: broadcast)
        let mount = HTTPRelayMount(path: path, broadcast: broadcast, options: options, name: name, label: label,
                                   burstBytes: window / 4, onEvent: onEvent, onListeners: onListeners)
        return (mount, feed)
    }

    func admits(token: String?) -> Bool {
        guard let expected = options.token else { return true }
        return token.map { Secrets.equal($0, expected) } ?? false
    }

    // MARK: Listeners

    /// Listeners waiting for the stream or hearing it.
    public var listenerCount: Int { listeners.current.count }

    /// Whether the station's stream has ended (its connection failed for good or was stopped).
    public var hasEnded: Bool { broadcast.hasEnded }

    /// Takes a place for a listener, unless the mount is full.
    func admitListener(_ record: RelayListenerRecord) -> Int? {
        let id = nextListener.withLock { $0 += 1; return $0 }
        let admitted = listeners.withLock { listeners -> Int? in
            guard listeners.count < options.maxListeners else { return nil }
            listeners[id] = record
            return listeners.count
        }
        admitted.map(onListeners)
        return admitted == nil ? nil : id
    }

    func updateListener(_ id: Int, _ change: (inout RelayListenerRecord) -> Void) {
        let streaming = listeners.withLock { listeners -> Int in
            if var record = listeners[id] { change(&record); listeners[id] = record }
            return listeners.values.count(where: \.streaming)
        }
        broadcast.listeners = streaming
    }

    func removeListener(_ id: Int) {
        let (streaming, count) = listeners.withLock { listeners -> (Int, Int?) in
            let removed = listeners.removeValue(forKey: id) != nil
            return (listeners.values.count(where: \.streaming), removed ? listeners.count : nil)
        }
        broadcast.listeners = streaming
        count.map(onListeners)
    }

    var listenerRecords: [RelayListenerRecord] { listeners.current.values.sorted { $0.connectedAt < $1.connectedAt } }

    /// Adds the bytes written to each listener (by id) to what `/status.json` shows.
    func countSent(_ sent: [Int: Int64]) { Self.count(sent, in: listeners) }

    private static func count(_ sent: [Int: Int64], in listeners: Locked<[Int: RelayListenerRecord]>) {
        listeners.withLock { listeners in
            for (id, bytes) in sent { listeners[id]?.bytesSent += bytes }
        }
    }
}

/// What `/status.json` shows of one listener.
struct RelayListenerRecord: Sendable {
    let peer: String
    let connectedAt: Double
    let userAgent: String?
    let icyMetadata: Bool
    var streaming = false
    var bytesSent: Int64 = 0
}
