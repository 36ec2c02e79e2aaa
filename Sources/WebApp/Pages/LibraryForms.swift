import Foundation
import Hummingbird
import Library

/// The like and hide buttons of an item (a recording, a podcast episode): one form, the button pressed
/// says which. Liked items form the playlist "Liked"; a hidden one leaves every playlist.
struct Marks {
    /// "recording:12", as `onair like` names it.
    var item: String
    var title: String
    var liked: Bool
    var hidden: Bool
    /// The page to come back to.
    var back: String

    static let template = """
    {{#marks}}<form method="post" action="/library/marks" class="marks">{{>csrf}}<input type="hidden" name="item" value="{{item}}">
    <input type="hidden" name="back" value="{{back}}">
    {{#liked}}<button type="submit" name="mark" value="unlike" aria-pressed="true" aria-label="Liked {{title}}">Liked</button>{{/liked}}
    {{^liked}}<button type="submit" name="mark" value="like" aria-pressed="false" aria-label="Like {{title}}">Like</button>{{/liked}}
    {{#hidden}}<button type="submit" name="mark" value="unhide" aria-pressed="true" aria-label="Hidden {{title}}">Hidden</button>{{/hidden}}
    {{^hidden}}<button type="submit" name="mark" value="hide" aria-pressed="false" aria-label="Hide {{title}}">Hide</button>{{/hidden}}
    </form>{{/marks}}
    """
}

/// The form that adds an item (a podcast: its episodes) at the end of a playlist.
struct AddToPlaylist {
    struct Option {
        var id: Int64
        var name: String
    }

    var item: String
    var title: String
    /// The select's id, one per item on a page.
    var field: String
    var back: String
    var playlists: [Option]
    var hasPlaylists: Bool

    static let template = """
    {{#adding}}{{#hasPlaylists}}<form method="post" action="/playlists/add" class="row add-to-playlist">{{>csrf}}
    <input type="hidden" name="item" value="{{item}}"><input type="hidden" name="back" value="{{back}}">
    <label for="{{field}}">Add to</label>
    <select id="{{field}}" name="playlist">{{#playlists}}<option value="{{id}}">{{name}}</option>{{/playlists}}</select>
    <button type="submit" aria-label="Add {{title}} to the playlist">Add</button></form>{{/hasPlaylists}}
    {{^hasPlaylists}}<p class="meta"><a href="/playlists">Create a playlist</a> to add this to one.</p>{{/hasPlaylists}}{{/adding}}
    """
}

/// What a page needs to show items' marks and the playlists to add them to, read once per page.
struct LibraryState {
    private let liked: Set<String>
    private let hidden: Set<String>
    private let playlists: [AddToPlaylist.Option]

    init(_ library: LibraryStore) throws(LibraryError) {
        liked = Set(try library.liked().map(\.reference))
        hidden = try library.hiddenReferences()
        playlists = try library.playlists().map { AddToPlaylist.Option(id: $0.playlist.id ?? 0, name: $0.playlist.name) }
    }

    func marks(_ item: LibraryItem, back: String) -> Marks {
        Marks(item: item.reference, title: item.title, liked: liked.contains(item.reference), hidden: hidden.contains(item.reference), back: back)
    }

    func adding(_ item: LibraryItem, back: String) -> AddToPlaylist {
        AddToPlaylist(item: item.reference, title: item.title, field: "playlist-\(item.kind.rawValue)-\(item.ref)", back: back,
                      playlists: playlists, hasPlaylists: !playlists.isEmpty)
    }
}

/// A like or hide button pressed.
struct MarkForm: Decodable, Sendable {
    var item: String?
    var mark: String?
    var back: String?
}

/// An item added to a playlist.
struct AddItemForm: Decodable, Sendable {
    var item: String?
    var playlist: String?
    var back: String?
}

extension Pages {
    /// Likes, unlikes, hides or shows again the item the form names (as `onair like`/`hide` do); back to its page.
    func mark(_ form: MarkForm) throws -> RenderedPage {
        let mark = form.mark ?? ""
        guard ["like", "unlike", "hide", "unhide"].contains(mark) else {
            throw HTTPError(.badRequest, message: "say like, unlike, hide or unhide")
        }
        // A file is named on the box itself; from a browser, only what onair keeps (it may be un-marked).
        guard let found = try item(form.item, allowingFiles: mark.hasPrefix("un")) else {
            return notFound("Nothing called \(form.item ?? "") to \(mark).", section: "/playlists")
        }
        let library = services.library
        let said: String
        switch mark {
        case "like": said = try library.setLiked(found, true) ? "Liked \(found.title)." : "\(found.title) was liked already."
        case "unlike": said = try library.setLiked(found, false) ? "Unliked \(found.title)." : "\(found.title) was not liked."
        case "hide": said = try library.setHidden(found, true) ? "Hid \(found.title): it left every playlist." : "\(found.title) was hidden already."
        default: said = try library.setHidden(found, false) ? "\(found.title) is shown again." : "\(found.title) was not hidden."
        }
        return .redirect(Self.location(back: form.back, fallback: "/playlists", notice: said))
    }

    /// Adds the item at the end of the playlist, a podcast as its episodes and hidden ones left out (as
    /// `onair playlists add` does); back to the item's page.
    func addToPlaylist(_ form: AddItemForm) throws -> RenderedPage {
        guard let id = form.playlist.flatMap({ Int64($0) }), let playlist = try services.library.playlist(id: id) else {
            return notFound("No playlist \(form.playlist ?? ""): it may have been deleted.", section: "/playlists")
        }
        guard let found = try item(form.item, allowingFiles: false) else {
            return notFound("Nothing called \(form.item ?? "") to add.", section: "/playlists")
        }
        let wanted = try services.resolver.expanded(found)
        let added = try services.library.append(wanted, to: id) ?? []
        var said = added.count == 1 ? "Added \(added[0].title) to \(playlist.name)." : "Added \(added.count) items to \(playlist.name)."
        if added.count < wanted.count { said += " Left out \(wanted.count - added.count) hidden." }
        return .redirect(Self.location(back: form.back, fallback: "/playlists/\(id)", notice: said))
    }

    /// The item a form names as KIND:REF ("recording:12", "episode:3", "podcast:1", "station:fip"), never
    /// a bare name the resolver would also try as a path.
    private func item(_ reference: String?, allowingFiles: Bool) throws -> LibraryItem? {
        guard let reference = Display.given(reference), let colon = reference.firstIndex(of: ":"),
              let kind = ItemKind(rawValue: String(reference[..<colon])), allowingFiles || kind != .file else { return nil }
        return try services.resolver.item(named: reference)
    }
}
