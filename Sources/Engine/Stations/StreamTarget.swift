import Foundation
import RadioModel
import Recording
import StreamInput

/// What the user named: a catalogue station or a URL.
public enum StreamTarget: Sendable {
    case station(Station)
    case url(String)

    /// A URL is anything with a scheme; everything else is a station id from the catalogue (loaded only then).
    public static func parse(_ text: String, catalogue: () throws -> Catalogue) throws -> StreamTarget {
        if text.contains("://") { return .url(text) }
        guard let station = try catalogue().station(id: text) else {
            throw EngineError("no station with id '\(text)' (try: onair stations \(text), or give a URL)", kind: .configuration)
        }
        return .station(station)
    }

    /// The catalogue id, or the URL: what names the station's one shared connection.
    public var identifier: String {
        switch self {
        case .station(let station): return station.id
        case .url(let url): return url
        }
    }

    /// How the station shows in a sound server's mixer and to a relay's listeners.
    public var displayName: String {
        switch self {
        case .station(let station): return station.name
        case .url(let url): return url
        }
    }

    /// How a recording names the station: catalogue id and name, or a URL's host.
    public var label: StationLabel {
        switch self {
        case .station(let station): return StationLabel(id: station.id, name: station.name)
        case .url(let url):
            let host = URL(string: url)?.host ?? "stream"
            return StationLabel(id: host, name: host)
        }
    }

    /// The station's time zone; a URL's is this machine's.
    public var timeZone: TimeZone {
        if case .station(let station) = self, let zone = TimeZone(identifier: station.timeZone) { return zone }
        return .current
    }

    /// The URL a recording notes as its source, credentials redacted.
    public var redactedSource: String {
        switch self {
        case .station(let station): return URLRedaction.redact(station.streams.first?.url ?? station.id)
        case .url(let url): return URLRedaction.redact(url)
        }
    }

    /// A recording of this station: named and tagged by it, in its time zone unless told otherwise, the
    /// pre-roll its server sends on every connection (the catalogue's `preRoll`) marked.
    public func recordingPlan(programme: ProgrammeLabel?, timeZone: TimeZone? = nil, template: FileNameTemplate,
                              base: URL, format: RecordingFormat) -> RecordingPlan {
        var plan = RecordingPlan(station: label, programme: programme, source: redactedSource, timeZone: timeZone ?? self.timeZone,
                                 template: template, base: base, format: format)
        if case .station(let station) = self { plan.preRollSeconds = station.preRoll }
        return plan
    }

    /// The charset titles of this target use when they are not UTF-8.
    public var titleCharset: String? {
        if case .station(let station) = self { return station.charset }
        return nil
    }

    /// The catalogue programme on air now, by the station's schedule.
    public func programmeOnAir(at date: Date = Date()) -> String? {
        guard case .station(let station) = self else { return nil }
        return station.programmes.first { $0.broadcast(containing: date, timeZone: timeZone) != nil }?.name
    }

    /// A programme of the catalogue station, and when its broadcast on air at `date` ends (nil when it is not on air).
    public func programme(id: String, at date: Date = Date()) throws -> (label: ProgrammeLabel, currentBroadcastEnd: Date?) {
        guard case .station(let station) = self else {
            throw EngineError("--programme needs a station from the catalogue, not a URL", kind: .configuration)
        }
        let programme: Programme
        do { programme = try station.programme(id: id) } catch { throw EngineError(error.description, kind: .configuration) }
        return (ProgrammeLabel(id: programme.id, name: programme.name), programme.broadcast(containing: date, timeZone: timeZone)?.end)
    }

    /// The live source for this target. A station that prefers HLS or DASH (or one asked to start in the
    /// past, which only they can) and a URL ending in .m3u8 or .mpd are resolved first and followed by an
    /// `HLSStream`. Everything else connects straight away through a `LiveSource` — the quickest
    /// way to an Icecast stream's first sound — which hands over to HLS should a server answer with
    /// a playlist. A station's streams are tried in its order of preference.
    func liveSource(options: LiveStreamOptions, onEvent: @escaping @Sendable (StreamEvent) -> Void) throws -> IngestSource {
        switch self {
        case .url(let url):
            guard let path = URL(string: url)?.path.lowercased(), path.hasSuffix(".m3u8") || path.hasSuffix(".mpd") else {
                return LiveSource(candidates: [url], options: options, onEvent: onEvent)
            }
            return Self.follow(try resolve(quality: options.quality), options: options, onEvent: onEvent)
        case .station(var station):
            let hls = station.streams.filter { $0.kind == .hls || $0.kind == .dash }
            guard !hls.isEmpty, station.streams.first?.kind != .icy || options.startAt != nil else {
                return LiveSource(candidates: station.streams.map(\.url), options: options, onEvent: onEvent)
            }
            station.streams = hls
            return Self.follow(try StreamTarget.station(station).resolve(quality: options.quality), options: options, onEvent: onEvent)
        }
    }

    private static func follow(_ resolved: ResolvedStream, options: LiveStreamOptions,
                               onEvent: @escaping @Sendable (StreamEvent) -> Void) -> IngestSource {
        guard resolved.kind != .icy else { return LiveSource(candidates: [resolved.url], options: options, onEvent: onEvent) }
        return HLSStream(url: resolved.url, format: resolved.kind == .dash ? .dash : .hls,
                         masterVariables: resolved.chosenVariant?.masterVariables ?? [:], options: options, onEvent: onEvent)
    }

    /// Follows playlists and redirects to the stream to connect to.
    public func resolve(quality: StreamQuality) throws -> ResolvedStream {
        let resolver = StreamResolver(quality: quality)
        do {
            switch self {
            case .station(let station): return try resolver.resolve(station)
            case .url(let url): return try resolver.resolve(url)
            }
        } catch {
            throw EngineError("\(error)", kind: .stream)
        }
    }
}
