import APIContract
import Daemon
import Foundation
import Library
import RadioModel

/// `/api/v1/playlists`: the user's playlists and the system playlist "Liked" — listed, created (an empty
/// name is "New playlist", a name taken gets a number), shown, renamed, searched, deleted — and their
/// items added (a programme or a podcast as its episodes, oldest first; hidden items left out), removed
/// and moved. Items are named as `onair playlists add` names them, `KIND:REF` (`recording:12`,
/// `station:fip`, `programme:ID`, `podcast:ID`, `episode:ID`); files by path only from the command line.
extension API {
    func listPlaylists(_ input: Operations.ListPlaylists.Input) async throws -> Operations.ListPlaylists.Output {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            let liked = try stored { () throws(LibraryError) in try stores.library.liked().count }
            let playlists = try stored { () throws(LibraryError) in try stores.library.playlists() }
            return .ok(.init(body: .json(.init(playlists: [likedSummary(items: liked)] + playlists.map { summary($0.playlist, items: $0.count) }))))
        }
    }

    func createPlaylist(_ input: Operations.CreatePlaylist.Input) async throws -> Operations.CreatePlaylist.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let name = body.name ?? ""
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            let playlist = try stored { () throws(LibraryError) in try stores.library.create(name: name) }
            return .created(.init(body: .json(summary(playlist, items: 0))))
        }
    }

    func showLikedPlaylist(_ input: Operations.ShowLikedPlaylist.Input) async throws -> Operations.ShowLikedPlaylist.Output {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            let liked = try stored { () throws(LibraryError) in try stores.library.liked() }
            let entries = liked.enumerated().map { PlaylistEntry(position: $0 + 1, item: $1) }
            return .ok(.init(body: .json(.init(playlist: likedSummary(items: liked.count), entries: try GeneratedGlue.contract(entries)))))
        }
    }

    func searchPlaylists(_ input: Operations.SearchPlaylists.Input) async throws -> Operations.SearchPlaylists.Output {
        let text = input.query.q
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw APIError.badRequest("q must say what to look for") }
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            let found = try stored { () throws(LibraryError) in try stores.library.search(text) }
            return .ok(.init(body: .json(.init(playlists: found.playlists.map { summary($0, items: nil) },
                                               items: try GeneratedGlue.contract(found.items)))))
        }
    }

    func showPlaylist(_ input: Operations.ShowPlaylist.Input) async throws -> Operations.ShowPlaylist.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            return .ok(.init(body: .json(try detail(id, stores))))
        }
    }

    func renamePlaylist(_ input: Operations.RenamePlaylist.Input) async throws -> Operations.RenamePlaylist.Output {
        let id = input.path.id
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let name = body.name ?? ""
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            guard let renamed = try stored({ () throws(LibraryError) in try stores.library.rename(playlist: id, to: name) }) else {
                throw noPlaylist(id)
            }
            return .ok(.init(body: .json(try detail(renamed.id ?? id, stores).playlist)))
        }
    }

    func deletePlaylist(_ input: Operations.DeletePlaylist.Input) async throws -> Operations.DeletePlaylist.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            let deleted = try detail(id, stores).playlist
            _ = try stored { () throws(LibraryError) in try stores.library.delete(playlist: id) }
            return .ok(.init(body: .json(deleted)))
        }
    }

    func addPlaylistItems(_ input: Operations.AddPlaylistItems.Input) async throws -> Operations.AddPlaylistItems.Output {
        let id = input.path.id
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let names = body.items
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
            return .ok(.init(body: .json(.init(added: try GeneratedGlue.contract(added), hiddenLeftOut: wanted.count - added.count,
                                               playlist: try detail(id, stores)))))
        }
    }

    func removePlaylistItem(_ input: Operations.RemovePlaylistItem.Input) async throws -> Operations.RemovePlaylistItem.Output {
        let id = input.path.id
        let position = input.path.position
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            _ = try detail(id, stores)
            guard try stored({ () throws(LibraryError) in try stores.library.remove(position: Int(position), from: id) }) != nil else {
                throw APIError.notFound("playlist \(id) has no item \(position)")
            }
            return .ok(.init(body: .json(try detail(id, stores))))
        }
    }

    func movePlaylistItem(_ input: Operations.MovePlaylistItem.Input) async throws -> Operations.MovePlaylistItem.Output {
        let id = input.path.id
        let position = input.path.position
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let to = body.to
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            let count = try detail(id, stores).entries.count
            guard position <= count else { throw APIError.notFound("playlist \(id) has no item \(position)") }
            guard (1...count).contains(to) else { throw APIError.invalid("to must be a position from 1 to \(count)") }
            _ = try stored { () throws(LibraryError) in try stores.library.move(from: Int(position), to: to, in: id) }
            return .ok(.init(body: .json(try detail(id, stores))))
        }
    }

    private func detail(_ id: Int64, _ stores: LibraryStores) throws -> Components.Schemas.PlaylistDetail {
        let found = try stored { () throws(LibraryError) -> (Playlist, [PlaylistEntry])? in
            guard let playlist = try stores.library.playlist(id: id), let entries = try stores.library.entries(of: id) else { return nil }
            return (playlist, entries)
        }
        guard let (playlist, entries) = found else { throw noPlaylist(id) }
        return .init(playlist: summary(playlist, items: entries.count), entries: try GeneratedGlue.contract(entries))
    }

    /// A user's playlist in a list: `id` is what `onair play playlist:ID` takes; `items`, how many it holds,
    /// is nil in search results (not counted there).
    private func summary(_ playlist: Playlist, items: Int?) -> Components.Schemas.PlaylistSummary {
        .init(id: String(playlist.id ?? 0), name: playlist.name, items: items, system: false)
    }

    /// The system playlist "Liked": the items liked, in the order they were liked; changed by liking and unliking.
    private func likedSummary(items: Int) -> Components.Schemas.PlaylistSummary {
        .init(id: "liked", name: LibraryStore.likedName, items: items, system: true)
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
