import Foundation
import Hummingbird
import Library

/// `/playlists`: the system playlist "Liked" and the user's playlists, a form to create one (no
/// name: "New playlist"; a name taken gets a number), and what was hidden, to show again.
struct PlaylistsView {
    struct Item {
        var href: String
        var name: String
        var count: String
    }

    struct Hidden {
        var title: String
        var marks: Marks
    }

    var chrome: Chrome
    var playlists: [Item]
    var hidden: [Hidden]

    static let template = """
    {{<layout}}{{$content}}
    <form method="post" action="/playlists" class="stack">{{>csrf}}
      <label for="name">Name of a new playlist (empty: “New playlist”)</label>
      <input id="name" name="name" maxlength="200">
      <button type="submit">Create the playlist</button>
    </form>
    <ul class="cards" id="playlists">
    {{#playlists}}<li><a class="title" href="{{href}}">{{name}}</a> <span class="meta">{{count}}</span></li>{{/playlists}}
    </ul>
    <h2 id="hidden-heading">Hidden</h2>
    <ul class="cards" id="hidden" aria-labelledby="hidden-heading">
    {{#hidden}}<li><span class="title">{{title}}</span> {{>marks}}</li>{{/hidden}}
    {{^hidden}}<li class="empty">Nothing is hidden: what you hide leaves every list, playlist and queue, and is shown here.</li>{{/hidden}}
    </ul>
    {{/content}}{{/layout}}
    """
}

/// `/playlists/ID` (or `/playlists/liked`): the items in order, each to open, move, remove, like or
/// hide (a hidden item leaves the list); delete the playlist.
struct PlaylistView {
    struct Entry {
        var position: Int
        var title: String
        var kind: String
        var href: String?
        var up: String?
        var down: String?
        var marks: Marks
    }

    var chrome: Chrome
    var playlist: String
    var liked: Bool
    var entries: [Entry]

    static let template = """
    {{<layout}}{{$content}}
    {{#liked}}<p class="meta">What you like, in the order you liked it: a like button adds here, pressing it again takes away.</p>{{/liked}}
    <ol class="cards" id="items">
    {{#entries}}<li><span class="at">{{position}}.</span> {{#href}}<a class="title" href="{{href}}">{{title}}</a>{{/href}}{{^href}}<span class="title">{{title}}</span>{{/href}}
      <span class="meta">{{kind}}</span>
      <div class="actions">
      {{^liked}}
      {{#up}}<form method="post" action="/playlists/{{playlist}}/items/{{position}}/move">{{>csrf}}<input type="hidden" name="to" value="{{up}}">
      <button type="submit" aria-label="Move {{title}} up">Move up</button></form>{{/up}}
      {{#down}}<form method="post" action="/playlists/{{playlist}}/items/{{position}}/move">{{>csrf}}<input type="hidden" name="to" value="{{down}}">
      <button type="submit" aria-label="Move {{title}} down">Move down</button></form>{{/down}}
      <form method="post" action="/playlists/{{playlist}}/items/{{position}}/remove">{{>csrf}}
      <button type="submit" aria-label="Remove {{title}} from the playlist">Remove</button></form>
      {{/liked}}
      {{>marks}}
      </div></li>{{/entries}}
    {{^entries}}<li>{{#liked}}Nothing liked yet: press Like on a recording or an episode.{{/liked}}{{^liked}}Empty: add recordings and episodes from their pages.{{/liked}}</li>{{/entries}}
    </ol>
    {{^liked}}<div class="actions"><form method="post" action="/playlists/{{playlist}}/delete" data-confirm="Delete this playlist? Its recordings and episodes stay.">{{>csrf}}
    <button type="submit" class="danger">Delete the playlist</button></form></div>{{/liked}}
    {{/content}}{{/layout}}
    """
}

struct PlaylistForm: Decodable, Sendable {
    var name: String?
}

struct MoveForm: Decodable, Sendable {
    var to: String?
}

extension Pages {
    func playlists(notice: String? = nil) -> RenderedPage {
        var chrome = Chrome(title: "Playlists", section: "/playlists", notice: notice)
        var items: [PlaylistsView.Item] = []
        var hidden: [PlaylistsView.Hidden] = []
        do {
            let library = try LibraryState(services.library)
            hidden = try services.library.hidden().map { PlaylistsView.Hidden(title: $0.title, marks: library.marks($0, back: "/playlists")) }
            let liked = try services.library.liked().count
            items = [PlaylistsView.Item(href: "/playlists/liked", name: LibraryStore.likedName, count: Self.count(liked))]
                + (try services.library.playlists()).map { PlaylistsView.Item(href: "/playlists/\($0.playlist.id ?? 0)", name: $0.playlist.name,
                                                                              count: Self.count($0.count)) }
        } catch {
            chrome.error = "\(error)"
        }
        return renderer.render("playlists", PlaylistsView(chrome: chrome, playlists: items, hidden: hidden), status: chrome.error == nil ? .ok : .internalServerError)
    }

    /// Creates a playlist as `onair playlists create` does; on to it.
    func createPlaylist(_ form: PlaylistForm) throws -> RenderedPage {
        let playlist = try services.library.create(name: form.name ?? "")
        return .redirect(Self.location("/playlists/\(playlist.id ?? 0)", notice: "Created playlist \(playlist.id ?? 0): \(playlist.name)."))
    }

    /// A playlist's items in order, or the liked ones (`id` "liked").
    func playlist(id text: String, notice: String? = nil) throws -> RenderedPage {
        let back = "/playlists/\(text)"
        let name: String, items: [LibraryItem], liked = text.lowercased() == LibraryStore.likedName.lowercased()
        if liked {
            (name, items) = (LibraryStore.likedName, try services.library.liked())
        } else {
            guard let id = Int64(text), let playlist = try services.library.playlist(id: id), let entries = try services.library.entries(of: id) else {
                return notFound("No playlist \(text): it may have been deleted.", section: "/playlists")
            }
            (name, items) = (playlist.name, entries.map(\.item))
        }
        let library = try LibraryState(services.library)
        let entries = items.enumerated().map { index, item in
            PlaylistView.Entry(position: index + 1, title: item.title, kind: Self.kindName(item.kind), href: Self.page(of: item),
                               up: index > 0 ? String(index) : nil, down: index + 1 < items.count ? String(index + 2) : nil,
                               marks: library.marks(item, back: back))
        }
        return renderer.render("playlist", PlaylistView(chrome: Chrome(title: name, section: "/playlists", notice: notice),
                                                        playlist: liked ? "liked" : text, liked: liked, entries: entries))
    }

    func deletePlaylist(id: Int64) throws -> RenderedPage {
        guard let deleted = try services.library.delete(playlist: id) else {
            return notFound("No playlist \(id): it may have been deleted.", section: "/playlists")
        }
        return .redirect(Self.location("/playlists", notice: "Deleted playlist \(deleted.name)."))
    }

    func removeFromPlaylist(id: Int64, position: Int) throws -> RenderedPage {
        guard let removed = try services.library.remove(position: position, from: id) else {
            return notFound("Playlist \(id) has no item \(position).", section: "/playlists")
        }
        return .redirect(Self.location("/playlists/\(id)", notice: "Removed \(removed.title)."))
    }

    func moveInPlaylist(id: Int64, from: Int, _ form: MoveForm) throws -> RenderedPage {
        guard let to = form.to.flatMap({ Int($0) }), try services.library.move(from: from, to: to, in: id) else {
            return notFound("Playlist \(id) has no items \(from) and \(form.to ?? "").", section: "/playlists")
        }
        return .redirect(Self.location("/playlists/\(id)", notice: "Moved item \(from) to \(to)."))
    }

    static func count(_ items: Int) -> String { "\(items) item\(items == 1 ? "" : "s")" }

    /// Where the item is shown and played on this site; nil for what is only on the box (a file) or has no page (a programme).
    private static func page(of item: LibraryItem) -> String? {
        switch item.kind {
        case .recording: return "/recordings/\(item.ref)"
        case .episode: return "/episodes/\(item.ref)"
        case .podcast: return "/podcasts/\(item.ref)"
        case .station: return item.ref.contains("://") ? nil : "/stations/\(item.ref)"
        case .file, .programme: return nil
        }
    }

    private static func kindName(_ kind: ItemKind) -> String {
        switch kind {
        case .recording: return "recording"
        case .file: return "file"
        case .station: return "live station"
        case .programme: return "programme"
        case .podcast: return "podcast"
        case .episode: return "podcast episode"
        }
    }
}
