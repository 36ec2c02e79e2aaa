import Foundation
import Media
import Monitoring
import RadioModel
import StreamInput

/// The stations a long-running engine is connected to: one `StationConnection` per station, shared
/// by every job on it — scheduled episodes, relays, recordings — however many overlap. A job joins
/// with its consumers and leaves with them; the connection starts with its first job and stops when
/// the last one leaves. A connection whose stream ends by itself (it failed for good) is forgotten,
/// so the next job connects afresh.
public final class Stations: Sendable {
    /// Companions are what every connection gets besides its jobs' consumers, for as long as it runs (the daemon's
    /// clip watch): they never keep a station connected.
    public typealias Companions = @Sendable (_ station: String, StationConnection) -> [StreamConsumer]

    private struct Entry {
        let connection: StationConnection
        var companions: [StreamFanOut.Token]
    }
    private let connections = Locked<[String: Entry]>([:])
    private let companions = Locked<Companions>({ _, _ in [] })
    private let alerts: AlertRules
    private let meters: @Sendable (String) -> StationMeter?
    private let log: @Sendable (String, StreamEvent) -> Void

    /// `log` hears every station's events, with its identifier: the daemon's log. `alerts` say when a
    /// station is dead air or down; `meters` gives a station the meter its metrics read, if any.
    public init(alerts: AlertRules = .standard, meters: @escaping @Sendable (String) -> StationMeter? = { _ in nil },
                log: @escaping @Sendable (String, StreamEvent) -> Void = { _, _ in }) {
        self.alerts = alerts
        self.meters = meters
        self.log = log
    }

    /// A job's place on a station: the connection, and what it attached there.
    public final class Membership: Sendable {
        public let connection: StationConnection
        fileprivate let tokens: [StreamFanOut.Token]

        fileprivate init(connection: StationConnection, tokens: [StreamFanOut.Token]) {
            self.connection = connection
            self.tokens = tokens
        }

        /// Connects the station if this job is its first; the consumers get audio from then on.
        public func start() { connection.start() }
    }

    /// Attaches what `consumers` makes (given the connection, for its clock and format) to the
    /// station's running connection, or to a new one, which `Membership.start()` connects. `startAt` asks a new HLS connection to begin at
    /// that instant of its playlist's window (a late start's back-fill).
    public func join(_ target: StreamTarget, startAt: Date? = nil,
                     consumers: (StationConnection) throws -> [StreamConsumer]) throws -> Membership {
        var options = LiveStreamOptions()
        options.titleCharset = target.titleCharset
        options.startAt = startAt
        let key = target.identifier
        // Made outside the lock (an HLS station is resolved over the network) and never started if
        // the station turns out to be connected already.
        let fresh = connections.current[key] == nil
            ? try StationConnection(target: target, options: options, format: Recorders.pcmFormat, alerts: alerts, meter: meters(key)) {
                [log] in log(key, $0)
            } : nil
        let joined = try connections.withLock { connections -> Membership? in
            // Read inside the lock that `setCompanions` changes it in: a new connection gets the rule it last set.
            let companions = self.companions.current
            guard let entry = connections[key] ?? fresh.map({ Entry(connection: $0, companions: []) }) else { return nil }
            let connection = entry.connection
            let tokens = try consumers(connection).map { connection.attach($0) }
            connections[key] = Entry(connection: connection,
                                     companions: connections[key] == nil ? companions(key, connection).map { connection.attach($0) } : entry.companions)
            return Membership(connection: connection, tokens: tokens)
        }
        // The running connection ended between the look and the lock: connect afresh.
        guard let membership = joined else { return try join(target, startAt: startAt, consumers: consumers) }
        if let fresh, membership.connection === fresh { forgetWhenEnded(fresh, key: key) }
        return membership
    }

    /// Detaches (and finishes) the job's consumers; the connection stops if it was the last job.
    public func leave(_ membership: Membership) {
        let connection = membership.connection
        let last = connections.withLock { connections -> Bool in
            for token in membership.tokens { _ = connection.detach(token) }
            let fanOut = connection.pipeline.fanOut
            guard let (key, entry) = connections.first(where: { $0.value.connection === connection }) else { return fanOut.count == 0 }
            // The jobs' consumers left, whatever companions are (or, one having failed, are no longer) attached.
            guard fanOut.count(excluding: Set(entry.companions)) == 0 else { return false }
            connections[key] = nil
            return true
        }
        if last { connection.stop() }
    }

    /// Gives every connection, now and from now on, what `make` makes for it instead of its companions so far (which
    /// are detached and finished).
    public func setCompanions(_ make: @escaping Companions) {
        let replaced = connections.withLock { connections -> [(StationConnection, [StreamFanOut.Token])] in
            companions.withLock { $0 = make }
            return connections.map { key, entry in
                connections[key]?.companions = make(key, entry.connection).map { entry.connection.attach($0) }
                return (entry.connection, entry.companions)
            }
        }
        // Finished outside the lock: a companion may tell the station's events what it was doing.
        for (connection, tokens) in replaced { tokens.forEach { _ = connection.detach($0) } }
    }

    /// How many upstream connections are open now.
    public var count: Int { connections.current.count }

    /// The stations connected now, by identifier.
    public var identifiers: Set<String> { Set(connections.current.keys) }

    private func forgetWhenEnded(_ connection: StationConnection, key: String) {
        Thread.detachNewThread { [weak self] in
            connection.waitUntilFinished()
            self?.connections.withLock { if $0[key]?.connection === connection { $0[key] = nil } }
        }
    }
}
