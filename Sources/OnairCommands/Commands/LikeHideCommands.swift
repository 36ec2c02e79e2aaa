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
        try LibraryAccess.mark(item, !undo, done: undo ? "Unliked" : "Liked") { store, item, liked throws(LibraryError) in
            try store.setLiked(item, liked)
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
        try LibraryAccess.mark(item, !undo, done: undo ? "Unhid" : "Hid") { store, item, hidden throws(LibraryError) in
            try store.setHidden(item, hidden)
        }
    }
}
