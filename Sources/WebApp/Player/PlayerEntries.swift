import Daemon
import Foundation
import Library
import Podcasts
import RadioModel
import Recording
import Store

/// One item of the web player's queue as the browser plays it: what to show, where its audio and artwork are
/// on this box, whether it can be sought (a recording, an episode) or is live (a station), and where it was left.
struct PlayerEntry: Encodable, Sendable, Equatable {
    struct Chapter: Encodable, Sendable, Equatable {
        var start: Double
        var title: String
    }

    /// "recording:12", "episode:3", "station:fip": as the play queue keeps it (`PlayerStore.PlayQueue`).
    var ref: String
    var title: String
    /// The station, the programme's station or the podcast.
    var subtitle: String
    var audio: String
    var artwork: String
    /// The item's page in the web app.
    var page: String
    var live: Bool
    /// The station whose live titles name what plays (`title` events of `/api/v1/events`).
    var station: String?
    /// The station's newest title, for a live station.
    var nowPlaying: String?
    var duration: Double?
    /// Where the player left it; nil when it starts from the top.
    var resume: Double?
    var liked: Bool
    var chapters: [Chapter]
}

/// Turns the references the browser names into player entries, and only those a request may name: a recording of
/// the index, an episode of a followed podcast, a catalogue station — never a file path or a stream URL, which only
/// the box's owner names (`onair play`). Hidden items are left out, as every queue leaves them. Blocking (SQLite, the
/// catalogue file): called inside the facade's `perform`.
struct PlayerEntries {
    /// A queue longer than this is refused: a queue is something a person goes through.
    static let maxItems = 500
    /// What one entry may be: every other kind is a parent of these, or not for a request to name.
    static let playableKinds: Set<String> = ["station", "recording", "episode"]
    /// A recording's chapters the player is given at most (a station may change its title every few seconds).
    static let maxChapters = 500

    let services: PageServices
    /// The index and library as read for this request, shared with the lists it builds.
    let reads: LibraryReads
    private let liked: Set<String>
    private let hidden: Set<String>
    private let catalogue: Catalogue
    private let titles: [String: StationTitles.Aired]

    init(services: PageServices) throws {
        self.services = services
        reads = LibraryReads(services: services)
        liked = Set(try services.library.liked().map(\.reference))
        hidden = try services.library.hiddenReferences()
        catalogue = try services.catalogue()
        titles = services.titles.latest()
    }

    /// What a request names to play or to queue, as entries in order: a playable item, or a parent as its
    /// episodes (`programme:ID`, `podcast:ID`, `playlist:ID`, `playlist:liked`) and the pages' own lists (`list:…`,
    /// see `SystemPlaylist`). Nil when it names nothing a request may play.
    func entries(for reference: String) throws -> [PlayerEntry]? {
        let references: [String]
        if let list = SystemPlaylist(reference: reference) {
            references = try list.references(reads)
        } else if reference.hasPrefix("playlist:") {
            guard let items = try services.resolver.playlistItems(String(reference.dropFirst("playlist:".count))) else { return nil }
            references = items.map(\.reference)
        } else if let colon = reference.firstIndex(of: ":"), let kind = ItemKind(rawValue: String(reference[..<colon])),
                  kind == .programme || kind == .podcast {
            // By kind and id only: the resolver's names would also try the text as a file.
            guard let parent = try services.resolver.item(kind: kind, ref: String(reference[reference.index(after: colon)...])) else { return nil }
            references = try services.resolver.expanded(parent).map(\.reference)
        } else {
            guard let entry = try entry(reference) else { return nil }
            return [entry]
        }
        return try references.prefix(Self.maxItems).compactMap(entry)
    }

    /// The entry of one playable reference, named as the library names it ("recording:12", never "recording:012",
    /// so a hidden item is hidden however it is written); nil when it is not one (or no longer is, or is hidden).
    func entry(_ reference: String) throws -> PlayerEntry? {
        guard let colon = reference.firstIndex(of: ":") else { return nil }
        let ref = String(reference[reference.index(after: colon)...])
        let id = Int64(ref).flatMap { String($0) == ref ? $0 : nil }
        guard !hidden.contains(reference) else { return nil }
        switch reference[..<colon] {
        case "station":
            guard let station = catalogue.station(id: ref), station.id == ref else { return nil }
            let title = titles[station.id]?.title
            return PlayerEntry(ref: reference, title: station.name, subtitle: title.flatMap { $0.isEmpty ? nil : $0 } ?? "Live",
                               audio: "/live/\(station.id)", artwork: ArtworkRoutes.station(station.id), page: "/stations/\(station.id)",
                               live: true, station: station.id, nowPlaying: title, duration: nil, resume: nil,
                               liked: liked.contains(reference), chapters: [])
        case "recording":
            guard let id, let recording = try reads.recording(id: id) else { return nil }
            let resume = services.positions.resumePoint(for: recording.file, duration: recording.duration)
            return PlayerEntry(ref: reference, title: RecordingTitle.of(recording),
                               subtitle: [recording.stationName, recording.programmeName].compactMap { $0 }.joined(separator: " · "),
                               audio: "/api/v1/recordings/\(id)/audio", artwork: ArtworkRoutes.station(recording.station),
                               page: "/recordings/\(id)", live: false, station: nil, nowPlaying: nil, duration: recording.duration,
                               resume: resume, liked: liked.contains(reference),
                               chapters: recording.titles.prefix(Self.maxChapters).map { PlayerEntry.Chapter(start: $0.start, title: String($0.title.prefix(300))) })
        case "episode":
            guard let id, let episode = try services.podcasts.episode(id: id) else { return nil }
            let podcast = try services.podcasts.podcast(id: episode.podcast)
            let position = try services.positions.position(of: episode)
            let resume = position.flatMap { $0.seconds > 0 && $0.seconds < (episode.duration ?? .infinity) - 1 ? $0.seconds : nil }
            return PlayerEntry(ref: reference, title: episode.title, subtitle: podcast?.title ?? "Podcast", audio: episode.url,
                               artwork: ArtworkRoutes.episode(id), page: "/episodes/\(id)", live: false, station: nil, nowPlaying: nil,
                               duration: episode.duration, resume: resume, liked: liked.contains(reference), chapters: [])
        default:
            return nil
        }
    }
}

/// How lists and the player name a recording: its episode's title, else its programme's or station's, with when.
enum RecordingTitle {
    static func of(_ entry: IndexedRecording) -> String {
        let name = entry.episodeTitle ?? entry.programmeName ?? entry.stationName
        return "\(name), \(entry.startLocal.prefix(16).replacingOccurrences(of: "T", with: " "))"
    }
}
