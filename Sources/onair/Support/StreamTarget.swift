import ArgumentParser
import Foundation
import RadioModel
import StreamInput

/// What the user named on the command line: a catalogue station or a URL.
enum StreamTarget {
    case station(Station)
    case url(String)

    /// A URL is anything with a scheme; everything else is a station id from the catalogue.
    static func parse(_ text: String) throws -> StreamTarget {
        if text.contains("://") { return .url(text) }
        let catalogue = try CatalogueAccess.load()
        guard let station = catalogue.station(id: text) else {
            throw CommandFailure(message: "no station with id '\(text)' (try: onair stations \(text), or give a URL)",
                                 exitCode: ExitStatus.configuration)
        }
        return .station(station)
    }

    /// The charset titles of this target use when they are not UTF-8.
    var titleCharset: String? {
        if case .station(let station) = self { return station.charset }
        return nil
    }

    /// Seconds of pre-roll the station sends on every connection (the catalogue's `preRoll`).
    var preRollSeconds: Double? {
        if case .station(let station) = self { return station.preRoll }
        return nil
    }

    /// The live source for this target. A station that prefers HLS (or one asked to start in the
    /// past, which only HLS can) and a URL ending in .m3u8 are resolved first and followed by an
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
        return HLSStream(url: resolved.url, format: resolved.kind == .dash ? .dash : .hls, options: options, onEvent: onEvent)
    }

    /// Follows playlists and redirects to the stream to connect to.
    func resolve(quality: StreamQuality) throws -> ResolvedStream {
        let resolver = StreamResolver(quality: quality)
        do {
            switch self {
            case .station(let station): return try resolver.resolve(station)
            case .url(let url): return try resolver.resolve(url)
            }
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.streamFailed)
        }
    }
}

extension StreamQuality: ExpressibleByArgument {}
