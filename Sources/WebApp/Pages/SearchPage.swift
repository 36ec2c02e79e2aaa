import Foundation
import Library
import Podcasts
import RadioModel
import Recording

/// `/search?q=`: one box for everything a person can play or open — stations, programmes, recordings, podcasts,
/// episodes and playlists — each group a shelf of cards.
struct SearchView {
    var chrome: Chrome
    var query: String
    var searched: Bool
    var shelves: [Shelf]
    var found: Bool

    static let template = """
    {{<layout}}{{$content}}
    <form method="get" action="/search" role="search" class="search">
      <label for="everything">Search stations, programmes, recordings, podcasts, episodes and playlists</label>
      <div class="row"><input id="everything" name="q" type="search" value="{{query}}"><button type="submit">Search</button></div>
    </form>
    {{#shelves}}{{>shelf}}{{/shelves}}
    {{#searched}}{{^found}}<p id="nothing-found">Nothing is called that.</p>{{/found}}{{/searched}}
    {{/content}}{{/layout}}
    """
}

extension Pages {
    static let searchLimit = 20

    func search(_ query: String) -> RenderedPage {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        var chrome = Chrome(title: text.isEmpty ? "Search" : "Search: \(text)", section: "/search")
        var shelves: [Shelf] = []
        if !text.isEmpty {
            do {
                shelves = try searchShelves(text).filter { !$0.cards.isEmpty }
            } catch {
                chrome.error = "\(error)"
            }
        }
        return renderer.render("search", SearchView(chrome: chrome, query: text, searched: !text.isEmpty, shelves: shelves, found: !shelves.isEmpty),
                               status: chrome.error == nil ? .ok : Self.unreadable)
    }

    private func searchShelves(_ text: String) throws -> [Shelf] {
        let entries = try PlayerEntries(services: services)
        let matches = { (candidate: String?) in candidate?.localizedCaseInsensitiveContains(text) == true }
        let catalogue = try services.catalogue()
        let stations = try catalogue.search(text).prefix(Self.searchLimit).compactMap { try entries.entry("station:\($0.id)") }

        let recordings = try entries.reads.recordings().reversed()
        // A programme is named by the catalogue, and by its recordings once it has been recorded.
        var programmes: [String: (name: String, station: String)] = [:]
        for station in catalogue.stations {
            for programme in station.programmes where matches(programme.name) { programmes[programme.id] = (programme.name, station.id) }
        }
        for recording in recordings {
            if let id = recording.programme, let name = recording.programmeName, matches(name), programmes[id] == nil {
                programmes[id] = (name, recording.station)
            }
        }
        let programmeCards = programmes.sorted { $0.value.name < $1.value.name }.prefix(Self.searchLimit).map { id, programme in
            Card(ref: "programme:\(id)", title: programme.name, subtitle: "Programme", href: "/recordings#programme-\(id)",
                 artwork: ArtworkRoutes.station(programme.station))
        }
        let recordingCards = try recordings.filter { matches(RecordingTitle.of($0)) || matches($0.stationName) || $0.titles.contains { matches($0.title) } }
            .prefix(Self.searchLimit).compactMap { try entries.entry("recording:\($0.id ?? 0)") }.map(Card.init)

        let podcasts = try services.podcasts.podcasts()
        let podcastCards = podcasts.filter { matches($0.title) }.prefix(Self.searchLimit).map { podcast in
            Card(ref: "podcast:\(podcast.id ?? 0)", title: podcast.title, subtitle: "Podcast", href: "/podcasts/\(podcast.id ?? 0)",
                 artwork: ArtworkRoutes.podcast(podcast.id ?? 0))
        }
        var episodeCards: [Card] = []
        for podcast in podcasts where episodeCards.count < Self.searchLimit {
            for episode in try services.podcasts.episodes(of: podcast.id ?? 0) where matches(episode.title) && episodeCards.count < Self.searchLimit {
                if let entry = try entries.entry("episode:\(episode.id ?? 0)") { episodeCards.append(Card(entry)) }
            }
        }
        let playlistCards = try services.library.playlists().filter { matches($0.playlist.name) }.map(Card.playlist)
        return [
            Shelf(id: "found-stations", name: "Stations", play: nil, cards: stations.map(Card.init), empty: "", more: nil),
            Shelf(id: "found-programmes", name: "Programmes", play: nil, cards: programmeCards, empty: "", more: nil),
            Shelf(id: "found-recordings", name: "Recordings", play: nil, cards: recordingCards, empty: "", more: nil),
            Shelf(id: "found-podcasts", name: "Podcasts", play: nil, cards: podcastCards, empty: "", more: nil),
            Shelf(id: "found-episodes", name: "Episodes", play: nil, cards: episodeCards, empty: "", more: nil),
            Shelf(id: "found-playlists", name: "Playlists", play: nil, cards: playlistCards, empty: "", more: nil),
        ]
    }
}
