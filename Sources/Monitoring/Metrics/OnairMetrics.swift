import Foundation
import Media
import Prometheus
import RadioModel
import StreamInput

/// The daemon's metrics in Prometheus' text format (swift-prometheus' registry, owned here rather
/// than bootstrapped into swift-metrics' process-wide factory, so two daemons in one test process
/// keep their own): per station (label `station`) and per daemon. `exposition(_:)` is what
/// `GET /metrics` serves.
///
/// How each value gets here, and what it costs the stations:
/// - bytes and seconds received, seconds decoded and the current quiet stretch live in the station's
///   `StationMeter` (relaxed atomics the decode thread adds to, per packet or frame); they become
///   counters only when the metrics are read, by adding what each grew since the last read;
/// - events (connected, gaps, reconnects, titles, alerts) bump Prometheus' own counters and gauges,
///   themselves relaxed atomics, on the thread the event came from: a few a minute;
/// - the daemon's figures (jobs, listeners, disk free) are asked for when the metrics are read.
public final class OnairMetrics: Sendable {
    /// What the daemon knows at the moment the metrics are read.
    public struct DaemonFigures: Sendable {
        /// Jobs running, by kind: relay, record, episode.
        public var jobs: [String: Int] = [:]
        /// Listeners of each station's HTTP relays, by station.
        public var listeners: [String: Int] = [:]
        /// Stations with an upstream connection open now.
        public var openStations: Set<String> = []
        /// Station leases this daemon holds, sharing a database with other daemons (0 on its own).
        public var leases = 0
        /// Where recordings are written: its file system's free bytes are reported.
        public var recordings: URL?

        public init() {}
    }

    /// Stations with series of their own; later ones share `station="other"`. A station is a catalogue id
    /// or a stream URL a job named (over the API too), and every label value is a series Prometheus keeps:
    /// unbounded, a client naming new URLs would grow the daemon's memory and the scraper's without end.
    static let stationSeries = 256
    static let otherStations = "other"

    private let registry = PrometheusCollectorRegistry()
    private let rules: AlertRules
    private let stations = Locked<[String: StationSeries]>([:])
    /// Serialises reads, each of which moves the meters' counts into the counters.
    private let reading = Serialized()

    /// `rules` set the quiet level each station's meter measures.
    public init(rules: AlertRules) {
        self.rules = rules
    }

    /// The station's meter, one for the life of the daemon: its counts run on across connections.
    public func meter(for station: String) -> StationMeter { series(station).meter }

    /// A station's event (from its connection's event route).
    public func note(station: String, _ event: StreamEvent) {
        let series = series(station)
        switch event {
        case .connected: series.connected.set(to: 1)
        case .disconnected, .failed: series.connected.set(to: 0)
        case .reconnecting:
            series.connected.set(to: 0)
            series.reconnects.increment()
        case .gap(let gap):
            series.gaps.increment()
            series.gapSeconds.increment(by: max(0, gap.seconds))
        case .metadata: series.lastTitle.withLock { $0 = Date() }
        case .alert(let alert):
            registry.counter("station_alerts", "total", labels: [("station", series.station), ("alert", alert.kind.rawValue)],
                             help: "Dead-air and down alerts raised.").increment()
        case .clipMatched(let sighting):
            // By kind, not by clip: a library of thousands of clips would make as many series per station.
            registry.counter("clip_matches", "total", labels: [("station", series.station), ("kind", sighting.kind)],
                             help: "Airings of known clips heard (onair clips), by kind: song, jingle, ad, id.").increment()
        default: break
        }
    }

    /// A scheduled episode ended: `done`, `failed` or `missed`.
    public func noteEpisode(_ outcome: String) {
        registry.counter("episodes", "total", labels: [("outcome", outcome)],
                         help: "Scheduled episodes by how they ended: done, failed, missed.").increment()
    }

    /// Every series, in Prometheus' text exposition format (version 0.0.4), with the daemon's figures as they are `now`.
    public func exposition(_ now: DaemonFigures) -> String {
        reading.run {
            for (station, series) in stations.current {
                series.collect(open: now.openStations.contains(station), listeners: now.listeners[station] ?? 0)
            }
            for kind in ["relay", "record", "episode"] {
                registry.gauge("jobs", labels: [("kind", kind)], help: "Jobs running, by kind.").set(to: Double(now.jobs[kind] ?? 0))
            }
            registry.gauge("stations_open", help: "Upstream station connections open.").set(to: Double(now.openStations.count))
            registry.gauge("leases_held", help: "Leases on shared work this daemon holds.").set(to: Double(now.leases))
            if let recordings = now.recordings, let free = DiskSpace.free(at: recordings) {
                registry.gauge("disk_free", "bytes", help: "Free bytes on the recordings' file system.").set(to: Double(free))
            }
            return registry.emitToString()
        }
    }

    /// The station's series: its own (its name made printable: a label is text from outside), or past
    /// `stationSeries` stations the one they share.
    private func series(_ name: String) -> StationSeries {
        stations.withLock { all in
            let printable = UntrustedText.printable(name)
            let station = all[printable] != nil || all.count < Self.stationSeries - 1 ? printable : Self.otherStations
            if let series = all[station] { return series }
            let series = StationSeries(station: station, registry: registry, meter: StationMeter(quietBelow: rules.enabled ? rules.quietLevel : nil))
            all[station] = series
            return series
        }
    }
}

/// One station's series, and the meter counts already moved into them.
private final class StationSeries: Sendable {
    let meter: StationMeter
    let connected, silence, listeners: Gauge
    let receivedBytes, receivedSeconds, decodedSeconds, gaps, gapSeconds, reconnects: Counter
    let lastTitle = Locked<Date?>(nil)
    let station: String
    private let registry: PrometheusCollectorRegistry
    private let collected = Locked((bytes: Int64(0), received: 0.0, decoded: 0.0))

    init(station: String, registry: PrometheusCollectorRegistry, meter: StationMeter) {
        self.station = station
        self.registry = registry
        self.meter = meter
        let label = [("station", station)]
        connected = registry.gauge("station_connected", labels: label, help: "1 while the station's stream is connected.")
        silence = registry.gauge("station_silence", "seconds", labels: label,
                                 help: "Seconds the station's decoded audio has been below the dead-air level in a row.")
        listeners = registry.gauge("station_listeners", labels: label, help: "Listeners of the station's HTTP relays.")
        receivedBytes = registry.counter("station_received", "bytes_total", labels: label,
                                         help: "Audio bytes received (ICY metadata and container framing excluded).")
        receivedSeconds = registry.counter("station_received", "seconds_total", labels: label, help: "Seconds of audio received.")
        decodedSeconds = registry.counter("station_decoded", "seconds_total", labels: label, help: "Seconds of audio decoded.")
        gaps = registry.counter("station_gaps", "total", labels: label, help: "Gaps in the station's audio.")
        gapSeconds = registry.counter("station_gap", "seconds_total", labels: label, help: "Seconds of audio lost in gaps.")
        reconnects = registry.counter("station_reconnects", "total", labels: label, help: "Reconnections to the station.")
    }

    /// Moves what the meter counted since the last read into the counters; sets the gauges.
    func collect(open: Bool, listeners count: Int) {
        let (bytes, received, decoded) = (meter.audioBytes, meter.receivedSeconds, meter.decodedSeconds)
        collected.withLock { last in
            receivedBytes.increment(by: max(0, bytes - last.bytes))
            receivedSeconds.increment(by: max(0, received - last.received))
            decodedSeconds.increment(by: max(0, decoded - last.decoded))
            last = (bytes, received, decoded)
        }
        if !open { connected.set(to: 0) }
        silence.set(to: open ? meter.quietSeconds : 0)
        listeners.set(to: Double(count))
        if let title = lastTitle.current {
            registry.gauge("station_since_title", "seconds", labels: [("station", station)],
                           help: "Seconds since the station's title last changed.").set(to: Date().timeIntervalSince(title))
        }
    }
}

extension PrometheusCollectorRegistry {
    /// `onair_NAME_UNIT`, e.g. `counter("station_gaps", "total")` is `onair_station_gaps_total`.
    fileprivate func counter(_ name: String, _ unit: String, labels: [(String, String)] = [], help: String) -> Counter {
        makeCounter(descriptor: MetricNameDescriptor(namespace: "onair", metricName: name, unitName: unit, helpText: help), labels: labels)
    }

    fileprivate func gauge(_ name: String, _ unit: String = "", labels: [(String, String)] = [], help: String) -> Gauge {
        makeGauge(descriptor: MetricNameDescriptor(namespace: "onair", metricName: name, unitName: unit, helpText: help), labels: labels)
    }
}
