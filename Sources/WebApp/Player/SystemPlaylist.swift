import Foundation
import Library
import Podcasts
import Recording

/// The lists the box makes from what was heard, liked and recorded, each playable as a queue (`list:NAME`): what
/// "Listen now" offers beside the playlists a person made.
enum SystemPlaylist: String, CaseIterable, Sendable {
    /// Recordings and episodes left part-way, the most recently played first.
    case continueListening = "continue"
    /// Recordings of the favourite stations (favourites of `onair play`, and liked stations) of the last seven days.
    case favouritesThisWeek = "favourites-week"
    /// Episodes of followed podcasts not heard yet, the newest first.
    case unheardEpisodes = "unheard-episodes"
    /// Recordings not heard yet, the newest first.
    case unheardRecordings = "unheard-recordings"

    static let longest = 100

    init?(reference: String) {
        guard reference.hasPrefix("list:") else { return nil }
        self.init(rawValue: String(reference.dropFirst("list:".count)))
    }

    var reference: String { "list:\(rawValue)" }

    var name: String {
        switch self {
        case .continueListening: "Continue listening"
        case .favouritesThisWeek: "Recorded from your favourite stations this week"
        case .unheardEpisodes: "New episodes"
        case .unheardRecordings: "Recorded, not heard yet"
        }
    }

    /// The list's items as references, in the order it plays them (hidden ones are left out by `PlayerEntries`).
    func references(_ reads: LibraryReads) throws -> [String] {
        let services = reads.services
        switch self {
        case .continueListening:
            let recordings = Dictionary(try reads.recordings().map { ($0.file, "recording:\($0.id ?? 0)") }, uniquingKeysWith: { first, _ in first })
            var episodes: [String: String] = [:]
            for episode in try reads.episodes() {
                let reference = "episode:\(episode.id ?? 0)"
                episodes[episode.url] = reference
                if let file = episode.file { episodes[file] = reference }
            }
            var seen = Set<String>()
            return try services.positions.positions(limit: 500).compactMap { kept -> String? in
                guard !kept.position.heard, kept.position.seconds > 1,
                      let reference = recordings[kept.file] ?? episodes[kept.file], seen.insert(reference).inserted else { return nil }
                return reference
            }.prefix(Self.longest).map { $0 }
        case .favouritesThisWeek:
            let favourites = try Self.favouriteStations(services)
            let weekAgo = Date().addingTimeInterval(-7 * 86_400)
            return try reads.recordings().reversed()
                .filter { favourites.contains($0.station) && $0.startUTC >= weekAgo }
                .prefix(Self.longest).map { "recording:\($0.id ?? 0)" }
        case .unheardEpisodes:
            let heard = try reads.heard()
            return try reads.episodes()
                .sorted { ($0.published ?? .distantPast) > ($1.published ?? .distantPast) }
                .lazy.filter { !heard.contains($0.url) && !($0.file.map(heard.contains) ?? false) }
                .prefix(Self.longest).map { "episode:\($0.id ?? 0)" }
        case .unheardRecordings:
            let heard = try reads.heard()
            return try reads.recordings().reversed().lazy
                .filter { !heard.contains($0.file) }
                .prefix(Self.longest).map { "recording:\($0.id ?? 0)" }
        }
    }

    /// The stations `onair play` keeps as favourites and the stations liked here.
    static func favouriteStations(_ services: PageServices) throws -> Set<String> {
        let liked = try services.library.liked().filter { $0.kind == .station }.map(\.ref)
        return Set(try services.positions.favourites().map(\.station) + liked)
    }
}
