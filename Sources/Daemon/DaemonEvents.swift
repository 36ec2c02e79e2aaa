import Engine
import Foundation
import RadioModel
import Scheduling

/// One thing that happened in the daemon, as its live event stream (`/api/v1/events`) tells it.
public struct LiveEvent: Codable, Sendable, Equatable {
    /// The stream's event types (the `event:` field of each server-sent event).
    public enum Kind: String, Codable, Sendable {
        case title, gap, reconnect, episodeStart = "episode-start", episodeEnd = "episode-end", jobStart = "job-start"
        case jobStop = "job-stop", recordingDeleted = "recording-deleted", clipMatched = "clip-matched"
        /// A station's stream connected (again); it went quiet (`dead-air`) or without audio (`down`) for the alert's
        /// threshold; its sound came back (`recovered`, the alert's line in `message`).
        case connected, deadAir = "dead-air", down, recovered
        /// How many listen to the station's live mount on this daemon (`/live/ID`), each time one comes or goes.
        case listeners
    }

    public var type: Kind
    public var station: String?
    /// The new title, for `title`.
    public var title: String?
    /// Details a person reads: a gap's length, a failure's reason.
    public var message: String?
    public var episode: Int64?
    public var job: Int64?
    /// The airing of a known clip, for `clip-matched`: clip, kind, station, start, end, mediaTime, offset, score, partial.
    public var airing: ClipSighting?
    /// The number of listeners, for `listeners`.
    public var listeners: Int?
    public var at: Date

    public init(type: Kind, station: String? = nil, title: String? = nil, message: String? = nil,
                episode: Int64? = nil, job: Int64? = nil, airing: ClipSighting? = nil, listeners: Int? = nil, at: Date = Date()) {
        self.type = type; self.station = station; self.title = title; self.message = message
        self.episode = episode; self.job = job; self.airing = airing; self.listeners = listeners; self.at = at
    }

    /// The log's events that a listener of the stream cares about, renamed to the stream's types.
    init?(_ event: DaemonEvent) {
        let type: Kind
        switch event.event {
        case .episodeStarted: type = .episodeStart
        case .episodeDone, .episodeFailed, .episodeInterrupted: type = .episodeEnd
        case .streamGap: type = .gap
        case .streamReconnecting: type = .reconnect
        case .recordingDeleted: type = .recordingDeleted
        default: return nil
        }
        self.init(type: type, station: event.station, message: event.message, episode: event.episode)
    }
}

/// Hands every live event to whoever is subscribed now; a subscriber that does not keep up loses the
/// oldest of its unread events, never slows the daemon.
public final class DaemonEvents: Sendable {
    /// Unread events a subscriber may hold before the oldest are dropped.
    static let bufferedEvents = 256

    private let subscribers = Locked<[UUID: AsyncStream<LiveEvent>.Continuation]>([:])

    public init() {}

    /// Event streams open at once, at most: each holds a connection and a buffer of `bufferedEvents`.
    public static let maxSubscribers = 64

    /// A new subscriber's stream; nil when `maxSubscribers` are open.
    public func subscribe() -> AsyncStream<LiveEvent>? {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
        continuation.onTermination = { [subscribers] _ in subscribers.withLock { $0[id] = nil } }
        let admitted = subscribers.withLock { subscribers -> Bool in
            guard subscribers.count < Self.maxSubscribers else { return false }
            subscribers[id] = continuation
            return true
        }
        return admitted ? stream : nil
    }

    public func publish(_ event: LiveEvent) {
        if event.type == .title, let station = event.station { titles.note(event.title ?? "", of: station, at: event.at) }
        for continuation in subscribers.current.values { continuation.yield(event) }
    }

    /// The titles each station sent while this daemon listened to it (a job, a live mount), newest first: what
    /// a page shows before the next title arrives, and a station's recent history.
    public let titles = StationTitles()
}

/// The last titles of each station this daemon heard, kept in memory (a restart forgets them, as a radio's display
/// does): `StationTitles.kept` per station, for at most `maxStations` stations (a catalogue's worth), the least
/// recently titled forgotten first.
public final class StationTitles: Sendable {
    public struct Aired: Sendable, Equatable {
        public var title: String
        public var at: Date
    }

    static let kept = 20
    static let maxStations = 2_000
    /// Characters of a title kept at most (a stream's own metadata has no limit of its own).
    static let longestTitle = 500
    private let byStation = Locked<[String: [Aired]]>([:])

    func note(_ title: String, of station: String, at date: Date) {
        let title = String(title.prefix(Self.longestTitle))
        byStation.withLock { stations in
            var aired = stations[station] ?? []
            // A reconnect sends the same title again: it is one airing.
            guard aired.first?.title != title else { return }
            aired.insert(Aired(title: title, at: date), at: 0)
            stations[station] = Array(aired.prefix(Self.kept))
            if stations.count > Self.maxStations,
               let oldest = stations.min(by: { ($0.value.first?.at ?? .distantPast) < ($1.value.first?.at ?? .distantPast) })?.key {
                stations[oldest] = nil
            }
        }
    }

    /// The station's titles, newest first (an empty title: the station cleared it).
    public func recent(of station: String) -> [Aired] { byStation.withLock { $0[station] ?? [] } }

    /// Each station's newest title.
    public func latest() -> [String: Aired] { byStation.withLock { $0.compactMapValues(\.first) } }
}
