import Foundation
import Library
import Podcasts
import RadioModel
import Recording

/// One thing to play as lists show it: its artwork, its title linking to its page, a line about it, the live title
/// of a station, and (with script) buttons that play it or add it to the player's queue.
struct Card {
    var ref: String
    var title: String
    var subtitle: String
    var href: String
    var artwork: String
    /// The station whose live titles this card shows.
    var station: String?
    var nowPlaying: String
    var progress: String?

    init(_ entry: PlayerEntry) {
        (ref, title, subtitle, href, artwork, station) = (entry.ref, entry.title, entry.subtitle, entry.page, entry.artwork, entry.station)
        nowPlaying = entry.live ? entry.nowPlaying ?? "" : ""
        if entry.live { subtitle = "Live" }
        progress = entry.resume.map { "Left at \(ClockText.of($0))" + (entry.duration.map { " of \(ClockText.of($0))" } ?? "") }
    }

    init(ref: String, title: String, subtitle: String, href: String, artwork: String) {
        (self.ref, self.title, self.subtitle, self.href, self.artwork, station, nowPlaying, progress) = (ref, title, subtitle, href, artwork, nil, "", nil)
    }

    /// A playlist of the person's, played as its items.
    static func playlist(_ listed: (playlist: Playlist, count: Int)) -> Card {
        Card(ref: "playlist:\(listed.playlist.id ?? 0)", title: listed.playlist.name, subtitle: Pages.count(listed.count),
             href: "/playlists/\(listed.playlist.id ?? 0)", artwork: ArtworkRoutes.playlist(listed.playlist.name))
    }

    static let template = """
    <li class="card"><img class="art" src="{{artwork}}" alt="" width="56" height="56" loading="lazy">
    <span class="what"><a class="title" href="{{href}}">{{title}}</a>
    <span class="meta">{{subtitle}}{{#progress}} · <span class="progress">{{progress}}</span>{{/progress}}</span>
    {{#station}}<span class="live" data-live-title="{{station}}">{{nowPlaying}}</span>{{/station}}</span>
    <span class="play-actions" hidden><button type="button" class="icon" data-play="{{ref}}" aria-label="Play {{title}}">▶</button>
    <button type="button" class="icon quiet" data-queue="{{ref}}" aria-label="Add {{title}} to the queue">+</button></span></li>
    """
}

/// A row of cards with a name, playable as one queue (`list:…`, a playlist, a programme).
struct Shelf {
    var id: String
    var name: String
    /// What "Play all" queues; nil for a shelf of things played one by one (stations).
    var play: String?
    var cards: [Card]
    var empty: String
    var more: String?

    static let template = """
    <section class="shelf" aria-labelledby="{{id}}"><div class="shelf-head"><h2 id="{{id}}">{{name}}</h2>
    {{#play}}<span class="play-actions" hidden><button type="button" data-play="{{play}}">Play all</button></span>{{/play}}
    {{#more}}<a href="{{more}}">See all</a>{{/more}}</div>
    <ul class="cards shelf-cards">{{#cards}}{{>card}}{{/cards}}{{^cards}}<li class="empty">{{empty}}</li>{{/cards}}</ul></section>
    """
}

/// `/`: where a person starts listening — where they left off, their favourite stations with what is on, new
/// episodes and recordings not heard yet, the lists the box makes, and their playlists.
struct ListenNowView {
    var chrome: Chrome
    var shelves: [Shelf]

    static let template = """
    {{<layout}}{{$content}}
    {{#shelves}}{{>shelf}}{{/shelves}}
    {{/content}}{{/layout}}
    """
}

extension Pages {
    static let shelfLength = 8

    func listenNow(notice: String?) -> RenderedPage {
        var chrome = Chrome(title: "Listen now", section: "/", notice: notice)
        var shelves: [Shelf] = []
        do {
            let entries = try PlayerEntries(services: services)
            func shelf(_ list: SystemPlaylist, empty: String) throws -> Shelf {
                let cards = try entries.entries(for: list.reference) ?? []
                return Shelf(id: list.rawValue, name: list.name, play: cards.isEmpty ? nil : list.reference,
                             cards: cards.prefix(Self.shelfLength).map(Card.init), empty: empty, more: nil)
            }
            shelves.append(try shelf(.continueListening, empty: "Nothing left part-way: what you pause is kept here."))
            let favourites = try SystemPlaylist.favouriteStations(services).sorted().compactMap { try entries.entry("station:\($0)") }
            shelves.append(Shelf(id: "favourites", name: "Favourite stations", play: nil, cards: favourites.map(Card.init),
                                 empty: "Like a station on its page to keep it here.", more: nil))
            shelves.append(try shelf(.unheardEpisodes, empty: "No new episodes: follow podcasts on the Podcasts page."))
            shelves.append(try shelf(.favouritesThisWeek, empty: "Nothing recorded from your favourite stations this week."))
            shelves.append(try shelf(.unheardRecordings, empty: "Every recording has been heard."))
            let recent = try entries.reads.recordings().suffix(Self.shelfLength).reversed().compactMap { try entries.entry("recording:\($0.id ?? 0)") }
            shelves.append(Shelf(id: "recent", name: "Recently recorded", play: nil, cards: recent.map(Card.init),
                                 empty: "No recordings yet: record a station from its page, or add a rule to the schedule.", more: "/recordings"))
            let playlists = try services.library.playlists().map(Card.playlist)
            let liked = Card(ref: "playlist:liked", title: LibraryStore.likedName, subtitle: "What you liked", href: "/playlists/liked",
                             artwork: ArtworkRoutes.playlist(LibraryStore.likedName))
            shelves.append(Shelf(id: "playlists", name: "Playlists", play: nil, cards: [liked] + playlists, empty: "", more: "/playlists"))
        } catch {
            chrome.error = "\(error)"
        }
        return renderer.render("listen-now", ListenNowView(chrome: chrome, shelves: shelves), status: chrome.error == nil ? .ok : Self.unreadable)
    }
}
