import Foundation
import Hummingbird
import Library

/// `/api/v1/likes` and `/api/v1/hidden`: an item liked (it joins the system playlist "Liked",
/// `GET /api/v1/playlists/liked`) or unliked, hidden (it leaves every playlist and is not added again)
/// or shown again, and the hidden items listed. Items are `KIND:REF`, as in playlists.
extension API {
    var markRoutes: [APIRoute] {
        [
            APIRoute(.post, "/api/v1/likes") { request, _ in
                let name = try await request.decodeJSON(ItemMark.self).item
                return try await mark(name, liked: true)
            },
            APIRoute(.delete, "/api/v1/likes") { request, _ in try await mark(try itemParameter(request), liked: false) },
            APIRoute(.get, "/api/v1/hidden") { _, _ in
                try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    return JSONResponse.make(HiddenList(items: try stored { () throws(LibraryError) in try stores.library.hidden() }))
                }
            },
            APIRoute(.post, "/api/v1/hidden") { request, _ in
                let name = try await request.decodeJSON(ItemMark.self).item
                return try await mark(name, hidden: true)
            },
            APIRoute(.delete, "/api/v1/hidden") { request, _ in try await mark(try itemParameter(request), hidden: false) },
        ]
    }

    /// Sets one mark on the item `name` names: taking a mark back also works for an item gone since.
    private func mark(_ name: String, liked: Bool? = nil, hidden: Bool? = nil) async throws -> Response {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            let item = try namedItem(name, resolver(stores, daemon), gone: liked == false || hidden == false)
            let changed = try stored { () throws(LibraryError) in
                if let liked { return try stores.library.setLiked(item, liked) }
                return try stores.library.setHidden(item, hidden ?? false)
            }
            return JSONResponse.make(MarkReply(item: item, liked: liked, hidden: hidden, changed: changed))
        }
    }

    private func itemParameter(_ request: Request) throws -> String {
        guard let item = request.uri.queryParameters.get("item"), !item.isEmpty else {
            throw APIError.badRequest("item must name the item, as KIND:REF (e.g. ?item=recording:12)")
        }
        return item
    }
}

/// What `POST /api/v1/likes` and `POST /api/v1/hidden` take.
struct ItemMark: Decodable { let item: String }

struct MarkReply: Encodable {
    let item: LibraryItem
    /// Set by `/likes`: whether the item is liked now.
    let liked: Bool?
    /// Set by `/hidden`: whether the item is hidden now.
    let hidden: Bool?
    /// False when it was so already.
    let changed: Bool
}

struct HiddenList: Encodable { let items: [LibraryItem] }
