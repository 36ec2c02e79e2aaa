import Foundation

/// A job the daemon runs beside its scheduled episodes, as a client asks for it and as the database
/// keeps it (`--persist`): relay a station to sinks, record it, or watch it (keep it connected for what listens to every
/// station the daemon has open: the known clips, the alerts, the metrics).
public struct JobSpec: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case relay, record, watch
    }

    public var kind: Kind
    /// A catalogue station id, or a URL.
    public var station: String
    /// Relay: the sinks, as `--to` takes them.
    public var sinks: [String]
    /// Relay: seconds of audio the paced sinks buffer.
    public var buffer: Double?
    /// Record: `copy` or an encoding (mp3, m4a, opus, flac).
    public var format: String?
    /// Record: a file-name template.
    public var output: String?
    /// Record: one file per title.
    public var splitTracks: Bool
    /// Kept in the database, so the job comes back when the daemon restarts.
    public var persist: Bool
    /// Asked for over the network (the API, a web page): its sinks and output were admitted as such a
    /// request may have them (`admittedFromNetwork`), and are admitted again whenever it starts. nil: on the box.
    public var fromNetwork: Bool?

    public init(kind: Kind, station: String, sinks: [String] = [], buffer: Double? = nil, format: String? = nil, output: String? = nil,
                splitTracks: Bool = false, persist: Bool = false) {
        self.kind = kind; self.station = station; self.sinks = sinks; self.buffer = buffer; self.format = format
        self.output = output; self.splitTracks = splitTracks; self.persist = persist
    }
}

/// A running job as `onair jobs list` shows it.
public struct JobStatus: Codable, Sendable, Equatable {
    public struct Sink: Codable, Sendable, Equatable {
        public var sink: String
        /// An HTTP relay's listeners now; nil for a sink without listeners.
        public var listeners: Int?
    }

    public var id: Int64
    public var kind: JobSpec.Kind
    public var station: String
    public var persist: Bool
    /// "connecting", "playing", "reconnecting", "failed".
    public var state: String
    public var startedAt: Date
    /// Seconds since the job started.
    public var uptime: Double
    public var sinks: [Sink]
    /// Bytes of the station's audio the job has taken (a recording's: written to its file).
    public var bytes: Int64
    public var title: String?
    /// Gaps in the audio since the job started, and their length in all.
    public var gaps: Int
    public var gapSeconds: Double
    public var reconnects: Int
    /// A recording's finished files so far and the one being written.
    public var files: [String]?
    public var partial: String?
    /// The last problem: a dropped sink, a failed stream.
    public var lastError: String?
}
