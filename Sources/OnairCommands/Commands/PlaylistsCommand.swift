import ArgumentParser
import Foundation
import Library
import RadioModel
import Store

/// The library's store and resolver, opened the way every command opens the database.
enum LibraryAccess {
    static func store() throws -> LibraryStore {
        do {
            return try LibraryStore(database: try OnairDatabase(directory: CatalogueAccess.paths.data))
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    static func resolver() throws -> ItemResolver {
        let podcasts = try PodcastsCommand.openStore()
        let catalogue = { () throws(LibraryError) -> Catalogue in
            do { return try CatalogueAccess.load() } catch { throw LibraryError("\(error)") }
        }
        return ItemResolver(index: try RecordingsCommand.openIndex(), catalogue: catalogue, library: try store(),
                            podcasts: podcasts, podcastFetch: PodcastsCommand.fetcher(podcasts))
    }

    /// A library failure exits 3 (configuration), one fetching from the network 1 (stream failed).
    static func run<T>(_ body: () throws(LibraryError) -> T) throws -> T {
        do { return try body() } catch {
            throw CommandFailure(message: "\(error)", exitCode: error.isNetwork ? ExitStatus.streamFailed : ExitStatus.configuration)
        }
    }

    /// The item ITEM names, or exit status 4.
    static func item(_ text: String, _ resolver: ItemResolver) throws -> LibraryItem {
        guard let item = try run({ () throws(LibraryError) in try resolver.item(named: text) }) else {
            throw CommandFailure(message: "nothing called '\(text)': give a file, a recording id, a station, a programme, or KIND:REF",
                                 exitCode: ExitStatus.notFound)
        }
        return item
    }

    /// `like` and `hide`: sets a mark on the item ITEM names and says so ("Liked Jazz Hour (it was already)").
    static func mark(_ text: String, _ value: Bool, done: String,
                     _ set: (LibraryStore, LibraryItem, Bool) throws(LibraryError) -> Bool) throws {
        try reportingFailures {
            let found = try item(text, try resolver())
            let store = try store()
            let changed = try run { () throws(LibraryError) in try set(store, found, value) }
            print("\(done) \(found.title)" + (changed ? "" : " (it was already)"))
        }
    }

    static func notFound(_ playlist: String) -> CommandFailure {
        CommandFailure(message: "no playlist \(playlist) (see: onair playlists)", exitCode: ExitStatus.notFound)
    }
}

struct PlaylistsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlists",
        abstract: "Playlists of recordings, files and stations; `onair play playlist:ID` plays one in order.",
        discussion: """
        An item is a file, a recording id (see onair recordings), a station, a programme, or KIND:REF \
        (recording:12, file:PATH, station:fip, programme:ID, podcast:ID, episode:ID). A programme is added \
        as its recorded episodes, a podcast as its episodes, oldest first. Hidden items (onair hide) are not added and leave every playlist; liked \
        ones (onair like) form the playlist "Liked" (playlist:liked).

        Examples:
          onair playlists create "Sunday morning"
          onair playlists rename 1 "Sunday jazz"
          onair playlists add 1 12 jazz-record-requests ~/Music/intro.mp3
          onair playlists move 1 3 1
          onair playlists show 1
          onair play playlist:1

        Exit codes: 0 success; 3 the database cannot be opened; 4 no such playlist, position or item; 64 usage error.
        """,
        subcommands: [List.self, Create.self, Rename.self, Add.self, Remove.self, Move.self, Show.self, Search.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The playlists, with Liked first.")
        @Flag(help: "One JSON object per playlist.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                let liked = try LibraryAccess.run { () throws(LibraryError) in try store.liked().count }
                let lists = [("liked", LibraryStore.likedName, liked)]
                    + (try LibraryAccess.run { () throws(LibraryError) in try store.playlists() }).map { (String($0.playlist.id!), $0.playlist.name, $0.count) }
                if json { return lists.forEach { Console.json(PlaylistView(id: $0, name: $1, items: $2)) } }
                print(TextTable.render(lists.map { [$0, $1, "\($2) item\($2 == 1 ? "" : "s")"] }))
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a playlist (no name: \"New playlist\"; a name taken gets a number).")
        @Argument(help: "Its name.") var name: String = ""
        @Flag(help: "Print it as JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                let playlist = try LibraryAccess.run { () throws(LibraryError) in try store.create(name: name) }
                json ? Console.json(PlaylistView(id: String(playlist.id!), name: playlist.name, items: 0))
                     : print("Created playlist \(playlist.id!): \(playlist.name)")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a playlist (no name: \"New playlist\"; a name taken gets a number).")
        @Argument(help: "The playlist's id.") var playlist: Int64
        @Argument(help: "Its new name.") var name: String = ""

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                guard let renamed = try LibraryAccess.run({ () throws(LibraryError) in try store.rename(playlist: playlist, to: name) }) else {
                    throw LibraryAccess.notFound(String(playlist))
                }
                print("Renamed playlist \(playlist): \(renamed.name)")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add items at the end, in the order given.")
        @Argument(help: "The playlist's id.") var playlist: Int64
        @Argument(help: "Files, recording ids, stations, programmes, or KIND:REF.") var items: [String]

        func run() throws {
            try reportingFailures {
                let resolver = try LibraryAccess.resolver(), store = try LibraryAccess.store()
                var wanted: [LibraryItem] = []
                for text in items {
                    let item = try LibraryAccess.item(text, resolver)
                    wanted += try LibraryAccess.run { () throws(LibraryError) in try resolver.expanded(item) }
                }
                guard let added = try LibraryAccess.run({ () throws(LibraryError) in try store.append(wanted, to: playlist) }) else {
                    throw LibraryAccess.notFound(String(playlist))
                }
                added.forEach { print("Added \($0.title)") }
                if added.count < wanted.count { Console.message("left out \(wanted.count - added.count) hidden item(s)") }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove the item at a position (see: onair playlists show ID).")
        @Argument(help: "The playlist's id.") var playlist: Int64
        @Argument(help: "The item's position, 1 first.") var position: Int

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                guard let removed = try LibraryAccess.run({ () throws(LibraryError) in try store.remove(position: position, from: playlist) }) else {
                    throw CommandFailure(message: "playlist \(playlist) has no item \(position)", exitCode: ExitStatus.notFound)
                }
                print("Removed \(removed.title)")
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move an item from one position to another.")
        @Argument(help: "The playlist's id.") var playlist: Int64
        @Argument(help: "Its position now.") var from: Int
        @Argument(help: "Its new position.") var to: Int

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                guard try LibraryAccess.run({ () throws(LibraryError) in try store.move(from: from, to: to, in: playlist) }) else {
                    throw CommandFailure(message: "playlist \(playlist) has no items \(from) and \(to)", exitCode: ExitStatus.notFound)
                }
                print("Moved item \(from) to \(to)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "A playlist's items in order (`liked` for the liked items).")
        @Argument(help: "The playlist's id, or liked.") var playlist: String
        @Flag(help: "One JSON object per item.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                let entries: [PlaylistEntry]
                if playlist.lowercased() == "liked" {
                    entries = try LibraryAccess.run { () throws(LibraryError) in try store.liked() }.enumerated().map {
                        PlaylistEntry(position: $0 + 1, item: $1)
                    }
                } else {
                    guard let id = Int64(playlist), let found = try LibraryAccess.run({ () throws(LibraryError) in try store.entries(of: id) })
                    else { throw LibraryAccess.notFound(playlist) }
                    entries = found
                }
                if json { return entries.forEach { Console.json($0) } }
                print(entries.isEmpty ? "The playlist is empty (add items with: onair playlists add ID ITEM…)"
                      : TextTable.render(entries.map { [String($0.position), $0.item.kind.rawValue, $0.item.title] }, maxWidths: [nil, nil, 70]))
            }
        }
    }

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "search", abstract: "Find playlists by name and items by title (case and accents ignored).")
        @Argument(help: "The text to look for.") var text: String
        @Flag(help: "One JSON object per playlist and item found.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                let found = try LibraryAccess.run { () throws(LibraryError) in try store.search(text) }
                if json {
                    found.playlists.forEach { Console.json(PlaylistView(id: String($0.id!), name: $0.name, items: nil)) }
                    return found.items.forEach { Console.json($0) }
                }
                let rows = found.playlists.map { ["playlist \($0.id!)", $0.name] }
                    + found.items.map { ["\($0.playlistName) #\($0.position)", "\($0.item.kind.rawValue): \($0.item.title)"] }
                print(rows.isEmpty ? "Nothing found for '\(text)'" : TextTable.render(rows, maxWidths: [30, 80]))
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a playlist (its recordings and files stay).")
        @Argument(help: "The playlist's id.") var playlist: Int64

        func run() throws {
            try reportingFailures {
                let store = try LibraryAccess.store()
                guard let deleted = try LibraryAccess.run({ () throws(LibraryError) in try store.delete(playlist: playlist) }) else {
                    throw LibraryAccess.notFound(String(playlist))
                }
                print("Deleted playlist \(playlist): \(deleted.name)")
            }
        }
    }
}

private struct PlaylistView: Encodable {
    var id: String
    var name: String
    var items: Int?
}
