import Foundation
import Hummingbird
import Library
import Podcasts
import RadioModel

/// `/podcasts`: the podcasts followed, a form to follow one by its feed's URL, and a refresh of every
/// feed (conditional requests: a feed that has not changed is neither downloaded nor read again).
struct PodcastsView {
    struct Item {
        var href: String
        var title: String
        var episodes: String
        var checked: String
    }

    var chrome: Chrome
    var podcasts: [Item]
    var hasPodcasts: Bool

    static let template = """
    {{<layout}}{{$content}}
    <form method="post" action="/podcasts" class="stack">{{>csrf}}
      <label for="feed">Follow a podcast: its feed's address</label>
      <input id="feed" name="url" type="url" inputmode="url" placeholder="https://example.org/feed.xml" required>
      <button type="submit">Follow</button>
    </form>
    <ul class="cards" id="podcasts">
    {{#podcasts}}<li><a class="title" href="{{href}}">{{title}}</a> <span class="meta">{{episodes}}</span> <span class="meta">{{checked}}</span></li>{{/podcasts}}
    {{^podcasts}}<li>No podcasts yet: follow one by its feed's address above.</li>{{/podcasts}}
    </ul>
    {{#hasPodcasts}}<form method="post" action="/podcasts/refresh" class="actions">{{>csrf}}<button type="submit">Refresh every feed</button></form>{{/hasPodcasts}}
    {{/content}}{{/layout}}
    """
}

/// `/podcasts/ID`: a podcast's episodes, newest first, with where each was left or that it was heard,
/// like and hide buttons, and a refresh of its feed.
struct PodcastView {
    struct Episode {
        var href: String
        var title: String
        var when: String
        var progress: String?
        var marks: Marks
        var play: PlayActions
    }

    var chrome: Chrome
    var id: Int64
    var play: PlayActions
    var description: String?
    var feed: String
    var checked: String
    var episodes: [Episode]
    var adding: AddToPlaylist

    static let template = """
    {{<layout}}{{$content}}
    {{#description}}<p class="description">{{description}}</p>{{/description}}
    <p class="meta">Feed: <a href="{{feed}}" target="_blank" rel="noopener noreferrer">{{feed}}</a> · {{checked}}</p>
    <div class="actions">
    {{>play}}
    <form method="post" action="/podcasts/{{id}}/refresh">{{>csrf}}<button type="submit">Refresh the feed</button></form>
    {{>addToPlaylist}}
    </div>
    <h2>Episodes</h2>
    <ul class="cards" id="episodes">
    {{#episodes}}<li><a class="title" href="{{href}}">{{title}}</a> <span class="meta">{{when}}</span>
      {{#progress}}<span class="progress">{{progress}}</span>{{/progress}}
      {{>play}}{{>marks}}</li>{{/episodes}}
    {{^episodes}}<li>The feed lists no episodes.</li>{{/episodes}}
    </ul>
    {{/content}}{{/layout}}
    """
}

/// `/episodes/ID`: one episode, played in the browser from its enclosure (from where it was left), with
/// its description, like and hide, and a playlist to add it to.
struct EpisodeView {
    var chrome: Chrome
    var id: Int64
    var podcast: String
    var podcastHref: String
    var when: String
    var description: String?
    var audioURL: String
    var playFrom: String
    var progress: String?
    var marks: Marks
    var adding: AddToPlaylist
    var play: PlayActions

    static let template = """
    {{<layout}}{{$content}}
    <p class="meta"><a href="{{podcastHref}}">{{podcast}}</a> · {{when}}</p>
    {{#progress}}<p class="progress" id="progress">{{progress}}</p>{{/progress}}
    {{>play}}
    <audio id="player" data-ref="episode:{{id}}" controls preload="metadata" src="{{audioURL}}{{playFrom}}">Your browser cannot play this episode:
    <a href="{{audioURL}}">download it</a>.</audio>
    {{#description}}<p class="description">{{description}}</p>{{/description}}
    <div class="actions">
    <a class="button" href="{{audioURL}}" target="_blank" rel="noopener noreferrer">Download</a>
    {{>marks}}
    {{>addToPlaylist}}
    </div>
    {{/content}}{{/layout}}
    """
}

/// The follow form: a feed's URL.
struct FollowForm: Decodable, Sendable {
    var url: String?
}

extension Pages {
    func podcasts(notice: String? = nil, error: String? = nil) -> RenderedPage {
        var chrome = Chrome(title: "Podcasts", section: "/podcasts", notice: notice, error: error)
        var items: [PodcastsView.Item] = []
        var status: HTTPResponse.Status = error == nil ? .ok : .unprocessableContent
        do {
            items = try services.podcasts.podcasts().map { podcast in
                let count = try services.podcasts.episodes(of: podcast.id ?? 0).count
                return PodcastsView.Item(href: "/podcasts/\(podcast.id ?? 0)", title: podcast.title,
                                         episodes: "\(count) episode\(count == 1 ? "" : "s")", checked: Self.checked(podcast))
            }
        } catch {
            chrome.error = "\(error)"
            status = Self.unreadable
        }
        return renderer.render("podcasts", PodcastsView(chrome: chrome, podcasts: items, hasPodcasts: !items.isEmpty), status: status)
    }

    /// Follows the feed at the form's URL (as `onair podcasts add` does): on to its page.
    func follow(_ form: FollowForm) -> RenderedPage {
        guard let url = Display.given(form.url) else { return podcasts(error: "Give the feed's address (http or https).") }
        do {
            switch try services.podcastFetch.add(url) {
            case .updated(let podcast, let added):
                return .redirect(Self.location("/podcasts/\(podcast.id ?? 0)",
                                               notice: "Following \(podcast.title): \(added) new episode\(added == 1 ? "" : "s")."))
            case .notModified(let podcast):
                return .redirect(Self.location("/podcasts/\(podcast.id ?? 0)", notice: "Following \(podcast.title): its feed has not changed."))
            }
        } catch {
            return podcasts(error: "\(error)")
        }
    }

    /// Asks for one feed (`id`) or every feed again; back to where the button was.
    func refreshPodcasts(_ id: Int64?) throws -> RenderedPage {
        let followed = try services.podcasts.podcasts().filter { id == nil || $0.id == id }
        if let id, followed.isEmpty { return notFound("No podcast \(id): it may have been removed.", section: "/podcasts") }
        var said: [String] = [], failed: [String] = []
        for podcast in followed {
            do {
                switch try services.podcastFetch.refresh(podcast) {
                case .updated(let podcast, let added): said.append("\(podcast.title): \(added) new episode\(added == 1 ? "" : "s").")
                case .notModified(let podcast): said.append("\(podcast.title): not changed.")
                }
            } catch {
                failed.append("\(podcast.title): \(error)")
            }
        }
        guard failed.isEmpty else {
            let (notice, error) = (said.isEmpty ? nil : said.joined(separator: " "), failed.joined(separator: " "))
            return try id.map { try podcast(id: $0, notice: notice, error: error) } ?? podcasts(notice: notice, error: error)
        }
        return .redirect(Self.location(id.map { "/podcasts/\($0)" } ?? "/podcasts", notice: said.joined(separator: " ")))
    }

    func podcast(id: Int64, notice: String? = nil, error: String? = nil) throws -> RenderedPage {
        guard let podcast = try services.podcasts.podcast(id: id) else {
            return notFound("No podcast \(id): it may have been removed.", section: "/podcasts")
        }
        let library = try LibraryState(services.library)
        let back = "/podcasts/\(id)"
        let hidden = try services.library.hiddenReferences()
        let shown = try services.podcasts.episodes(of: id).reversed().filter { !hidden.contains(ItemResolver.item($0).reference) }.map { episode in
            let item = ItemResolver.item(episode)
            return PodcastView.Episode(href: "/episodes/\(episode.id ?? 0)", title: episode.title, when: Self.published(episode),
                                       progress: try Self.progress(services.positions.position(of: episode)),
                                       marks: library.marks(item, back: back), play: PlayActions(ref: item.reference, title: item.title))
        }
        let view = PodcastView(chrome: Chrome(title: podcast.title, section: "/podcasts", notice: notice, error: error), id: id,
                               play: PlayActions(ref: "podcast:\(id)", title: podcast.title),
                               description: podcast.description, feed: podcast.url, checked: Self.checked(podcast), episodes: shown,
                               adding: library.adding(LibraryItem(kind: .podcast, ref: String(id), title: podcast.title), back: back))
        return renderer.render("podcast", view, status: error == nil ? .ok : .unprocessableContent)
    }

    /// An episode played from its enclosure's URL: the browser fetches it (with range requests where the
    /// podcast's server takes them) as a podcast app would, so the box relays nothing. It starts where
    /// the player left it, unless it was heard.
    func episode(id: Int64, notice: String? = nil) throws -> RenderedPage {
        guard let episode = try services.podcasts.episode(id: id), let podcast = try services.podcasts.podcast(id: episode.podcast) else {
            return notFound("No episode \(id): its podcast may have been removed.", section: "/podcasts")
        }
        let position = try services.positions.position(of: episode)
        let resume = position.flatMap { $0.heard || $0.seconds <= 0 ? nil : $0.seconds }
        let library = try LibraryState(services.library)
        let item = ItemResolver.item(episode), back = "/episodes/\(id)"
        let view = EpisodeView(chrome: Chrome(title: episode.title, section: "/podcasts", notice: notice), id: id, podcast: podcast.title,
                               podcastHref: "/podcasts/\(podcast.id ?? 0)", when: Self.published(episode), description: episode.description,
                               audioURL: episode.url, playFrom: resume.map { String(format: "#t=%.2f", $0) } ?? "",
                               progress: Self.progress(position), marks: library.marks(item, back: back), adding: library.adding(item, back: back),
                               play: PlayActions(ref: item.reference, title: item.title))
        return renderer.render("episode", view)
    }

    /// "Heard", or "Left at 12:34" (where `onair play` or the browser stopped it).
    private static func progress(_ position: PlayerStore.Position?) -> String? {
        guard let position else { return nil }
        if position.heard { return "Heard" }
        return position.seconds > 0 ? "Left at \(ClockText.of(position.seconds))" : nil
    }

    private static func published(_ episode: PodcastEpisode) -> String {
        let date = episode.published.map { Display.time($0, .current) } ?? "no date"
        return episode.duration.map { "\(date) · \(ClockText.of($0))" } ?? date
    }

    private static func checked(_ podcast: Podcast) -> String {
        podcast.checkedAt.map { "checked \(Display.time($0, .current))" } ?? "not checked yet"
    }
}
