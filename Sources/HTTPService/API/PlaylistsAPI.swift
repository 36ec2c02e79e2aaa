import Daemon
import Foundation
import Hummingbird
import Library
import RadioModel

/// `/api/v1/playlists`: the user's playlists and the system playlist "Liked" — listed, created (an empty
/// name is "New playlist", a name taken gets a number), shown, renamed, searched, deleted — and their
/// items added (a programme or a podcast as its episodes, oldest first; hidden items left out), removed
/// and moved. Items are named as `onair playlists add` names them, `KIND:REF` (`recording:12`,
/// `station:fip`, `programme:ID`, `podcast:ID`, `episode:ID`); files by path only from the command line.
extension API {
    var playlistRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/playlists") { _, _ in
                try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let liked = try stored { () throws(LibraryError) in try stores.library.liked().count }
                    let playlists = try stored { () throws(LibraryError) in try stores.library.playlists() }
                    return JSONResponse.make(PlaylistList(playlists: [PlaylistSummary.liked(items: liked)]
                        + playlists.map { PlaylistSummary($0.playlist, items: $0.count) }))
                }
            },
            APIRoute(.post, "/api/v1/playlists") { request, _ in
                let name = try await request.decodeJSON(PlaylistName.self).name ?? ""
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let playlist = try stored { () throws(LibraryError) in try stores.library.create(name: name) }
                    return JSONResponse.make(PlaylistSummary(playlist, items: 0), status: .created)
                }
            },
            APIRoute(.get, "/api/v1/playlists/liked") { _, _ in
                try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let liked = try stored { () throws(LibraryError) in try stores.library.liked() }
                    return JSONResponse.make(PlaylistDetail(playlist: .liked(items: liked.count),
                                                            entries: liked.enumerated().map { PlaylistEntry(position: $0 + 1, item: $1) }))
                }
            },
            APIRoute(.get, "/api/v1/playlists/search") { request, _ in
                let text = request.uri.queryParameters.get("q") ?? ""
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw APIError.badRequest("q must say what to look for") }
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let found = try stored { () throws(LibraryError) in try stores.library.search(text) }
                    return JSONResponse.make(PlaylistSearch(playlists: found.playlists.map { PlaylistSummary($0, items: nil) }, items: found.items))
                }
            },
            APIRoute(.get, "/api/v1/playlists/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    return JSONResponse.make(try detail(id, stores))
                }
            },
            APIRoute(.patch, "/api/v1/playlists/{id}") { request, context in
                let id = try context.id()
                let name = try await request.decodeJSON(PlaylistName.self).name ?? ""
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    guard let renamed = try stored({ () throws(LibraryError) in try stores.library.rename(playlist: id, to: name) }) else {
                        throw noPlaylist(id)
                    }
                    return JSONResponse.make(try detail(renamed.id ?? id, stores).playlist)
                }
            },
            APIRoute(.delete, "/api/v1/playlists/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let deleted = try detail(id, stores).playlist
                    _ = try stored { () throws(LibraryError) in try stores.library.delete(playlist: id) }
                    return JSONResponse.make(deleted)
                }
            },
            APIRoute(.post, "/api/v1/playlists/{id}/items") { request, context in
                let id = try context.id()
                let names = try await request.decodeJSON(PlaylistItems.self).items
                guard !names.isEmpty else { throw APIError.invalid("items must name at least one item") }
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    _ = try detail(id, stores)
                    let resolver = resolver(stores, daemon)
                    var wanted: [LibraryItem] = []
                    for name in names {
                        let item = try namedItem(name, resolver)
                        wanted += try stored { () throws(LibraryError) in try resolver.expanded(item) }
                    }
                    guard let added = try stored({ () throws(LibraryError) in try stores.library.append(wanted, to: id) }) else {
                        throw noPlaylist(id)
                    }
                    return JSONResponse.make(ItemsAdded(added: added, hiddenLeftOut: wanted.count - added.count, playlist: try detail(id, stores)))
                }
            },
            APIRoute(.delete, "/api/v1/playlists/{id}/items/{position}") { _, context in
                let id = try context.id()
                let position = try context.id("position")
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    _ = try detail(id, stores)
                    guard try stored({ () throws(LibraryError) in try stores.library.remove(position: Int(position), from: id) }) != nil else {
                        throw APIError.notFound("playlist \(id) has no item \(position)")
                    }
                    return JSONResponse.make(try detail(id, stores))
                }
            },
            APIRoute(.post, "/api/v1/playlists/{id}/items/{position}/move") { request, context in
                let id = try context.id()
                let position = try context.id("position")
                let to = try await request.decodeJSON(ItemMove.self).to
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let count = try detail(id, stores).entries.count
                    guard position <= count else { throw APIError.notFound("playlist \(id) has no item \(position)") }
                    guard (1...count).contains(to) else { throw APIError.invalid("to must be a position from 1 to \(count)") }
                    _ = try stored { () throws(LibraryError) in try stores.library.move(from: Int(position), to: to, in: id) }
                    return JSONResponse.make(try detail(id, stores))
                }
            },
        ]
    }

    private func detail(_ id: Int64, _ stores: LibraryStores) throws -> PlaylistDetail {
        let found = try stored { () throws(LibraryError) -> (Playlist, [PlaylistEntry])? in
            guard let playlist = try stores.library.playlist(id: id), let entries = try stores.library.entries(of: id) else { return nil }
            return (playlist, entries)
        }
        guard let (playlist, entries) = found else { throw noPlaylist(id) }
        return PlaylistDetail(playlist: PlaylistSummary(playlist, items: entries.count), entries: entries)
    }

    private func noPlaylist(_ id: Int64) -> APIError { APIError.notFound("no playlist \(id)") }

    /// The resolver over the daemon's recordings and catalogue, as `onair playlists add` resolves names.
    func resolver(_ stores: LibraryStores, _ daemon: BlockingDaemon) -> ItemResolver {
        stores.resolver(index: daemon.recordings) { () throws(LibraryError) -> Catalogue in
            do { return try daemon.catalogue() } catch { throw LibraryError("the station catalogue cannot be read: \(error)") }
        }
    }

    /// The item `KIND:REF` names; 422 when it is not written so, names a file (the API reads no path),
    /// or names nothing. `gone`: an item that no longer resolves (a deleted recording) is still named,
    /// by its reference, so a like or a hide can be taken back.
    func namedItem(_ text: String, _ resolver: ItemResolver, gone: Bool = false) throws -> LibraryItem {
        guard let colon = text.firstIndex(of: ":"), let kind = ItemKind(rawValue: String(text[..<colon])), colon != text.index(before: text.endIndex)
        else {
            throw APIError.invalid("\"\(text)\" is not an item: write KIND:REF (recording:12, station:fip, programme:ID, podcast:ID, episode:ID)")
        }
        let ref = String(text[text.index(after: colon)...])
        if kind == .file {
            guard gone else { throw APIError.invalid("files are added by path from the command line (onair playlists add); the API names items by id") }
            return LibraryItem(kind: .file, ref: ref, title: URL(fileURLWithPath: ref).deletingPathExtension().lastPathComponent)
        }
        if let item = try stored({ () throws(LibraryError) in try resolver.item(kind: kind, ref: ref) }) { return item }
        guard gone else { throw APIError.invalid("nothing called \"\(text)\"") }
        return LibraryItem(kind: kind, ref: ref, title: ref)
    }
}

/// A playlist in a list: `id` is what `onair play playlist:ID` takes ("liked" for the system playlist).
struct PlaylistSummary: Encodable {
    let id: String
    let name: String
    /// How many items it holds (not counted in search results).
    let items: Int?
    /// "Liked": the items liked, in the order they were liked; changed by liking and unliking.
    let system: Bool

    init(_ playlist: Playlist, items: Int?) {
        (id, name, self.items, system) = (String(playlist.id ?? 0), playlist.name, items, false)
    }

    private init(id: String, name: String, items: Int?, system: Bool) {
        (self.id, self.name, self.items, self.system) = (id, name, items, system)
    }

    static func liked(items: Int) -> PlaylistSummary {
        PlaylistSummary(id: "liked", name: LibraryStore.likedName, items: items, system: true)
    }
}

struct PlaylistList: Encodable { let playlists: [PlaylistSummary] }

struct PlaylistDetail: Encodable {
    let playlist: PlaylistSummary
    let entries: [PlaylistEntry]
}

struct PlaylistSearch: Encodable {
    let playlists: [PlaylistSummary]
    let items: [SearchHit]
}

struct ItemsAdded: Encodable {
    let added: [LibraryItem]
    /// Items left out because they are hidden.
    let hiddenLeftOut: Int
    let playlist: PlaylistDetail
}

/// What creating and renaming take; no name (or an empty one) is "New playlist".
struct PlaylistName: Decodable { let name: String? }

/// What `POST /api/v1/playlists/{id}/items` takes: items as `KIND:REF`.
struct PlaylistItems: Decodable { let items: [String] }

/// Where `POST …/items/{position}/move` moves the item to.
struct ItemMove: Decodable { let to: Int }
