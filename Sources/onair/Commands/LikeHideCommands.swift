import ArgumentParser
import Library

struct LikeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "like",
        abstract: "Like an item: liked items form the playlist \"Liked\" (onair play playlist:liked).",
        discussion: "ITEM is a file, a recording id, a station, a programme, or KIND:REF (see onair playlists --help)."
    )
    @Argument(help: "What to like.") var item: String
    @Flag(help: "Unlike it.") var undo = false

    func run() throws {
        try reportingFailures {
            let found = try LibraryAccess.item(item, try LibraryAccess.resolver())
            let store = try LibraryAccess.store()
            let changed = try LibraryAccess.run { () throws(LibraryError) in try store.setLiked(found, !undo) }
            print((undo ? "Unliked " : "Liked ") + found.title + (changed ? "" : " (it was already)"))
        }
    }
}

struct HideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Hide an item: it leaves every playlist, and programmes and playlists play without it.",
        discussion: "ITEM is a file, a recording id, a station, a programme, or KIND:REF (see onair playlists --help)."
    )
    @Argument(help: "What to hide.") var item: String
    @Flag(help: "Show it again.") var undo = false

    func run() throws {
        try reportingFailures {
            let found = try LibraryAccess.item(item, try LibraryAccess.resolver())
            let store = try LibraryAccess.store()
            let changed = try LibraryAccess.run { () throws(LibraryError) in try store.setHidden(found, !undo) }
            print((undo ? "Unhid " : "Hid ") + found.title + (changed ? "" : " (it was already)"))
        }
    }
}
