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

    /// The Icecast/Shoutcast URLs to try, in order, for a live connection.
    func liveCandidates() throws -> [String] {
        switch self {
        case .url(let url):
            return [url]
        case .station(let station):
            let icy = station.streams.filter { $0.kind == .icy }.map(\.url)
            guard !icy.isEmpty else {
                throw CommandFailure(message: "\(station.id) streams only over HLS, which this version of onair does not play yet",
                                     exitCode: ExitStatus.streamFailed)
            }
            return icy
        }
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
