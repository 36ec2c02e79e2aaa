import APIContract
import Foundation
import Library

/// `/api/v1/likes` and `/api/v1/hidden`: an item liked (it joins the system playlist "Liked",
/// `GET /api/v1/playlists/liked`) or unliked, hidden (it leaves every playlist and is not added again)
/// or shown again, and the hidden items listed. Items are `KIND:REF`, as in playlists.
extension API {
    func like(_ input: Operations.Like.Input) async throws -> Operations.Like.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        return .ok(.init(body: .json(try await mark(body.item, liked: true))))
    }

    func unlike(_ input: Operations.Unlike.Input) async throws -> Operations.Unlike.Output {
        .ok(.init(body: .json(try await mark(try itemParameter(input.query.item), liked: false))))
    }

    func listHidden(_ input: Operations.ListHidden.Input) async throws -> Operations.ListHidden.Output {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            let hidden = try stored { () throws(LibraryError) in try stores.library.hidden() }
            return .ok(.init(body: .json(.init(items: try GeneratedGlue.contract(hidden)))))
        }
    }

    func hide(_ input: Operations.Hide.Input) async throws -> Operations.Hide.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        return .ok(.init(body: .json(try await mark(body.item, hidden: true))))
    }

    func unhide(_ input: Operations.Unhide.Input) async throws -> Operations.Unhide.Output {
        .ok(.init(body: .json(try await mark(try itemParameter(input.query.item), hidden: false))))
    }

    /// Sets one mark on the item `name` names: taking a mark back also works for an item gone since.
    private func mark(_ name: String, liked: Bool? = nil, hidden: Bool? = nil) async throws -> Components.Schemas.MarkReply {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            let item = try namedItem(name, resolver(stores, daemon), gone: liked == false || hidden == false)
            let changed = try stored { () throws(LibraryError) in
                if let liked { return try stores.library.setLiked(item, liked) }
                return try stores.library.setHidden(item, hidden ?? false)
            }
            return .init(item: try GeneratedGlue.contract(item), liked: liked, hidden: hidden, changed: changed)
        }
    }

    /// The `item` a DELETE names (`?item=`): 400 when empty (the generated glue refuses one missing).
    private func itemParameter(_ item: String) throws -> String {
        guard !item.isEmpty else { throw APIError.badRequest("item must name the item, as KIND:REF (e.g. ?item=recording:12)") }
        return item
    }
}
