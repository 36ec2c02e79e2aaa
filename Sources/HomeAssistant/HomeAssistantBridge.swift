import Daemon
import Engine
import Foundation
import MQTT
import RadioModel
import Scheduling
import StreamInput

/// How the daemon meets Home Assistant: the broker, discovery's topic prefix, and the daemon's name (its device).
public struct HomeAssistantOptions: Sendable {
    public var broker: BrokerURL
    public var discoveryPrefix = "homeassistant"
    public var daemonName: String

    public init(broker: BrokerURL, daemonName: String) {
        self.broker = broker
        self.daemonName = daemonName
    }
}

/// The daemon in Home Assistant, over MQTT: retained discovery configurations for its device and entities, their
/// states published as the daemon's typed events tell of a change (never polled), availability with a last will,
/// and the switches' commands (record a station, relay it to a sink declared on the box) run as the API runs them.
///
/// One loop owns the bridge's state: the broker's events (from libmosquitto's thread) and the daemon's live events
/// arrive on one stream and are handled in turn; what blocks (the jobs, the stores) runs on the facade's threads.
public final class HomeAssistantBridge: Sendable {
    private let client: MQTTClient
    private let discovery: Discovery
    private let inputs: AsyncStream<Input>.Continuation
    private let tasks: [Task<Void, Never>]

    enum Input: Sendable {
        case broker(MQTTClient.Event)
        case live(LiveEvent)
    }

    /// - Parameter log: told, in one line each, what went wrong (the broker away, a command refused).
    public init(facade: DaemonFacade, options: HomeAssistantOptions, log: @escaping @Sendable (String) -> Void) throws(MQTTError) {
        let discovery = Discovery(prefix: options.discoveryPrefix, daemonName: options.daemonName)
        // Unbounded, so the broker's connection events are never lost behind others: what comes in is bounded already (the
        // daemon's events by their own subscription's buffer, the broker's messages by `CommandBudget`).
        let (stream, inputs) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        let budget = CommandBudget()
        let client = try MQTTClient(broker: options.broker, clientID: "onair-\(discovery.node)",
                                    will: MQTTClient.Will(topic: discovery.availability, payload: "offline")) { event in
            if case .message = event, !budget.admits() { return }
            inputs.yield(.broker(event))
        }
        guard let live = facade.events.subscribe() else { throw MQTTError("the daemon's live events have no room for another subscriber") }
        self.client = client
        self.discovery = discovery
        self.inputs = inputs
        tasks = [
            Task { for await event in live { inputs.yield(.live(event)) } },
            Task {
                var state = BridgeState(facade: facade, client: client, discovery: discovery, log: log)
                for await input in stream { await state.handle(input) }
            },
        ]
    }

    /// Connects, and keeps connecting again while the broker is away.
    public func start() { client.start() }

    /// Tells Home Assistant the daemon is offline and leaves the broker.
    public func stop() {
        client.publish(discovery.availability, "offline", retain: true)
        client.stop()
        inputs.finish()
        tasks.forEach { $0.cancel() }
    }
}

/// What the bridge knows and has published; the loop's own.
private struct BridgeState {
    let facade: DaemonFacade
    let client: MQTTClient
    let discovery: Discovery
    let log: @Sendable (String) -> Void

    struct KnownStation {
        /// As a job takes it: a catalogue id, or the URL (with its password, if it has one).
        var station: String
        var name: String
    }

    /// By slug.
    var stations: [String: KnownStation] = [:]
    var sinks: [String] = []
    /// Topic → retained payload: published when it changes, and all again when the broker is back.
    var published: [String: String] = [:]
    var connected = false

    private struct Snapshot: Sendable {
        var favourites: [(station: String, name: String)]
        var jobs: [JobStatus]
        var sinks: [String: String]
        var status: DaemonStatus
    }

    mutating func handle(_ input: HomeAssistantBridge.Input) async {
        switch input {
        case .broker(.connected):
            connected = true
            discovery.commandFilters.forEach(client.subscribe)
            client.publish(discovery.availability, "online", retain: true)
            for (topic, payload) in published { client.publish(topic, payload, retain: true) }
            await refresh()
        case .broker(.disconnected(let reason)), .broker(.refused(let reason)):
            connected = false
            log("\(reason)")
        case .broker(.message(let message)):
            // A retained command is one said earlier, replayed by the broker on every (re)connection: never acted on.
            guard !message.retained else { return log("ignored a retained message on \(Self.shown(message.topic)): commands are not retained") }
            await command(message)
        case .live(let event):
            await note(event)
        }
    }

    // MARK: The daemon's events

    private mutating func note(_ event: LiveEvent) async {
        let slug = event.station.map { known($0) }
        switch (event.type, slug) {
        case (.title, let slug?):
            // Home Assistant refuses a state over 255 characters.
            publish(discovery.title(slug), String((event.title ?? "").prefix(255)))
            publish(discovery.state(slug), "playing")
        case (.connected, let slug?):
            publish(discovery.state(slug), "playing")
        case (.recovered, let slug?):
            publish(discovery.state(slug), "playing")
            publish(discovery.deadAir(slug), "OFF")
        case (.reconnect, let slug?):
            publish(discovery.state(slug), "reconnecting")
        case (.down, let slug?):
            publish(discovery.state(slug), "down")
        case (.deadAir, let slug?):
            publish(discovery.deadAir(slug), "ON")
        case (.listeners, let slug?):
            publish(discovery.listeners(slug), "\(event.listeners ?? 0)")
        case (.jobStart, _), (.jobStop, _), (.episodeStart, _), (.episodeEnd, _), (.recordingDeleted, _):
            await refresh()
        default:
            break
        }
    }

    /// The slug of a station an event names (the daemon names a URL with its password masked), known from now on;
    /// `station` is how a job names it (with the password), when known.
    private mutating func known(_ shown: String, station: String? = nil) -> String {
        let slug = Discovery.slug(shown)
        if stations[slug] == nil {
            stations[slug] = KnownStation(station: station ?? shown, name: shown)
            configure(slug)
        } else if let station {
            stations[slug]?.station = station
        }
        return slug
    }

    /// The stations, sinks, switches and the daemon's own sensors as they are now: after a job or an episode began or
    /// ended, a recording was deleted, or the broker came back.
    private mutating func refresh() async {
        let snapshot: Snapshot
        do {
            snapshot = try await facade.perform { daemon in
                let favourites = (try? daemon.library().positions.favourites().map { ($0.station, $0.name) }) ?? []
                return Snapshot(favourites: favourites, jobs: daemon.runningJobs(), sinks: (try? daemon.declaredSinks().sinks) ?? [:],
                                status: daemon.status())
            }
        } catch {
            return log("the daemon's state could not be read: \(error)")
        }
        let sinkNames = snapshot.sinks.keys.sorted()
        let sinksChanged = sinkNames != sinks
        sinks = sinkNames
        for (station, name) in snapshot.favourites {
            let slug = Discovery.slug(URLRedaction.redact(station))
            let changed = stations[slug]?.name != name || stations[slug]?.station != station
            stations[slug] = KnownStation(station: station, name: name)
            if changed { configure(slug) }
        }
        for job in snapshot.jobs where job.kind != .watch { _ = known(URLRedaction.redact(job.station), station: job.station) }
        if sinksChanged { stations.keys.forEach { configure($0) } }
        if published[discovery.daemonConfigs()[0].0] == nil { discovery.daemonConfigs().forEach { publish($0.0, $0.1) } }

        for (slug, known) in stations {
            let jobs = snapshot.jobs.filter { Discovery.slug(URLRedaction.redact($0.station)) == slug }
            publish(discovery.record(slug), jobs.contains { $0.kind == .record } ? "ON" : "OFF")
            for sink in sinks {
                let target = snapshot.sinks[sink]
                publish(discovery.relay(slug, sink), jobs.contains { $0.kind == .relay && $0.sinks.contains { $0.sink == target } } ? "ON" : "OFF")
            }
            let episodes = snapshot.status.active.contains { $0.station == known.station }
            if jobs.isEmpty, !episodes { publish(discovery.state(slug), "idle") }
        }
        let recordings = snapshot.jobs.filter { $0.kind == .record }.count + snapshot.status.active.count
        publish(discovery.recordings, "\(recordings)")
        publish(discovery.nextEpisode, snapshot.status.next.first.map { Timestamp.format($0.start) } ?? "None")
        publish(discovery.diskFree, snapshot.status.retention.freeBytes.map { "\($0)" } ?? "None")
    }

    private mutating func configure(_ slug: String) {
        guard let station = stations[slug] else { return }
        for (topic, payload) in discovery.stationConfigs(slug: slug, name: station.name, sinks: sinks) { publish(topic, payload) }
        // No one listens until the daemon says so: every listener's coming is an event the bridge sees from the start.
        if published[discovery.listeners(slug)] == nil { publish(discovery.listeners(slug), "0") }
    }

    private mutating func publish(_ topic: String, _ payload: String) {
        guard published[topic] != payload else { return }
        published[topic] = payload
        if connected { client.publish(topic, payload, retain: true) }
    }

    // MARK: Commands

    /// `…/station/SLUG/record/set` or `…/station/SLUG/relay/SINK/set` with ON or OFF; anything else is one log line.
    private mutating func command(_ message: MQTTClient.Message) async {
        let prefix = discovery.base + "/station/"
        let shown = Self.shown(message.topic)
        guard message.topic.hasPrefix(prefix) else { return log("ignored a message on \(shown): not a command topic") }
        let parts = message.topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let payload = String(decoding: message.payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        guard payload == "ON" || payload == "OFF" else { return log("ignored the command on \(shown): its payload is not ON or OFF") }
        guard let slug = parts.first, let station = stations[slug] else { return log("ignored the command on \(shown): no such station") }
        let on = payload == "ON"
        let action = Array(parts.dropFirst())
        var request: JobSpec
        if action == ["record", "set"] {
            request = JobSpec(kind: .record, station: station.station)
        } else if action.count == 3, action[0] == "relay", action[2] == "set" {
            guard let sink = sinks.first(where: { Discovery.slug($0) == action[1] }) else {
                return log("ignored the command on \(shown): no sink of that name is declared on the box (onair sinks add)")
            }
            request = JobSpec(kind: .relay, station: station.station, sinks: [sink])
        } else {
            return log("ignored a message on \(shown): not a command topic")
        }
        request.fromNetwork = true  // admitted as the API admits it: declared sinks only
        do {
            try await facade.perform { [request] daemon in
                let running = daemon.runningJobs().filter { URLRedaction.redact($0.station) == URLRedaction.redact(request.station) && $0.kind == request.kind }
                let declared = try daemon.declaredSinks()
                let matching = running.filter { job in
                    request.sinks.allSatisfy { sink in job.sinks.contains { $0.sink == (try? declared.resolve(sink)) } }
                }
                if on, matching.isEmpty { _ = try daemon.startJob(request) }
                if !on { for job in matching { _ = try daemon.stopJob(id: job.id) } }
            }
        } catch {
            log("the command on \(shown) failed: \(error)")
        }
        await refresh()
    }

    /// A topic as a log line shows it: printable, and not longer than a line.
    static func shown(_ topic: String) -> String {
        UntrustedText.printable(topic, maxLength: 160)
    }
}

/// How many of the broker's messages the bridge takes: 20 a second, the rest dropped before they queue. A command costs
/// a job's start or stop; a publisher flooding the command topics must not grow memory or the log.
final class CommandBudget: Sendable {
    static let perSecond = 20
    private let window = Locked((second: 0, taken: 0))

    func admits() -> Bool {
        let second = Int(Date().timeIntervalSince1970)
        return window.withLock { window in
            if window.second != second { window = (second, 0) }
            window.taken += 1
            return window.taken <= Self.perSecond
        }
    }
}
