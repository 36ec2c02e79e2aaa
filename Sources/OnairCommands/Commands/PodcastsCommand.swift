import ArgumentParser
import Foundation
import Library
import Playback
import Podcasts
import RadioModel
import Scheduling
import Store

struct PodcastsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcasts",
        abstract: "Follow podcasts (RSS 2.0 with iTunes and Podcasting 2.0 tags, or Atom) and play their episodes.",
        discussion: """
        A feed is asked for again with If-None-Match and If-Modified-Since, so an unchanged one costs \
        neither a download nor a parse. `onair play episode:ID` streams the episode with range requests \
        (a seek fetches only what it lands on), or downloads it (into the data directory) when its \
        server does not take them, and plays it through the same decoder as recordings: --start lands on the sample, and \
        it resumes where it stopped. `onair playlists add ID podcast:ID` adds a podcast's episodes.

        Examples:
          onair podcasts add https://example.org/feed.xml
          onair podcasts episodes 1
          onair podcasts refresh
          onair podcasts refresh 1 --keep 3
          onair play episode:12 --start 10m
          onair podcasts attach 1 bbc-radio-4-today    # play bbc-radio-4-today: recorded and published episodes
          onair podcasts remove 1

        Exit codes: 0 success; 1 the feed could not be fetched or read; 3 the database cannot be opened; \
        4 no such podcast.
        """,
        subcommands: [List.self, Add.self, Episodes.self, Refresh.self, Attach.self, Detach.self, Remove.self],
        defaultSubcommand: List.self
    )

    static func openStore() throws -> PodcastStore {
        do {
            return try PodcastStore(database: try OnairDatabase(directory: CatalogueAccess.paths.data))
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    static func fetcher(_ store: PodcastStore) -> PodcastFetch {
        PodcastFetch(store: store, dataDirectory: CatalogueAccess.paths.data)
    }

    static func run<T>(exitCode: Int32 = ExitStatus.configuration, _ body: () throws(PodcastError) -> T) throws -> T {
        do { return try body() } catch { throw CommandFailure(message: "\(error)", exitCode: exitCode) }
    }

    /// The podcast with this id, or every podcast; exit status 4 if there is no such podcast.
    static func selected(_ id: Int64?, in store: PodcastStore) throws -> [Podcast] {
        let podcasts = try run { () throws(PodcastError) in try store.podcasts() }.filter { id == nil || $0.id == id }
        if let id, podcasts.isEmpty { throw CommandFailure(message: "no podcast \(id) (see: onair podcasts)", exitCode: ExitStatus.notFound) }
        return podcasts
    }

    /// What a feed gets wrong but is read anyway (an undeclared namespace, no title): one line each on stderr.
    static func warn(_ message: String) { Console.message("onair: warning: \(message)") }

    static func report(_ outcome: PodcastFetch.Outcome) {
        switch outcome {
        case .updated(let podcast, let added): print("\(podcast.id!)  \(podcast.title): \(added) new episode\(added == 1 ? "" : "s")")
        case .notModified(let podcast): print("\(podcast.id!)  \(podcast.title): not changed")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The podcasts followed.")
        @Flag(help: "One JSON object per podcast.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                let podcasts = try PodcastsCommand.run { () throws(PodcastError) in try store.podcasts() }
                if json { return podcasts.forEach { Console.json($0) } }
                print(podcasts.isEmpty ? "No podcasts yet (onair podcasts add URL)"
                      : TextTable.render(podcasts.map { [String($0.id!), $0.title, $0.programme.map { "→ \($0)" } ?? "", $0.url] },
                                         maxWidths: [nil, 40, nil, nil]))
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Follow a podcast by its feed's URL.")
        @Argument(help: "The feed's http(s) URL.") var url: String

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                report(try PodcastsCommand.run(exitCode: ExitStatus.streamFailed) { () throws(PodcastError) in try fetcher(store).add(url, warn: PodcastsCommand.warn) })
            }
        }
    }

    struct Episodes: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "episodes", abstract: "A podcast's episodes (or every podcast's), oldest first.")
        @Argument(help: "The podcast's id.") var podcast: Int64?
        @Flag(help: "One JSON object per episode.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                let podcasts = try selected(podcast, in: store)
                var rows: [[String]] = []
                for followed in podcasts {
                    for episode in try PodcastsCommand.run({ () throws(PodcastError) in try store.episodes(of: followed.id!) }) {
                        if json { Console.json(episode); continue }
                        rows.append(["episode:\(episode.id!)", followed.title, episode.published.map { ScheduleTimes.utc($0) } ?? "",
                                     episode.duration.map { ClockText.of($0) } ?? "", episode.title])
                    }
                }
                if !json { print(rows.isEmpty ? "No episodes" : TextTable.render(rows, maxWidths: [nil, 24, nil, nil, 60])) }
            }
        }
    }

    struct Attach: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attach a podcast to the catalogue programme it publishes.",
            discussion: "`onair play PROGRAMME` (and a playlist's programme) then queues the programme's recordings and the "
                + "podcast's episodes as one list, by date.")
        @Argument(help: "The podcast's id.") var podcast: Int64
        @Argument(help: "A programme id from the catalogue (see: onair stations show STATION) or one recorded.") var programme: String

        func run() throws {
            try reportingFailures {
                let resolver = try LibraryAccess.resolver()
                guard let item = try LibraryAccess.run({ () throws(LibraryError) in try resolver.item(named: "programme:\(programme)") }) else {
                    throw CommandFailure(message: "no programme '\(programme)' in the catalogue or the recordings", exitCode: ExitStatus.notFound)
                }
                try PodcastsCommand.attach(podcast, to: item.ref)
                print("podcast \(podcast) → \(item.title) (\(item.ref))")
            }
        }
    }

    struct Detach: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Detach a podcast from its programme.")
        @Argument(help: "The podcast's id.") var podcast: Int64

        func run() throws {
            try reportingFailures { try PodcastsCommand.attach(podcast, to: nil) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop following a podcast: it, its episodes and their downloads go.")
        @Argument(help: "The podcast's id.") var podcast: Int64

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                guard let removed = try PodcastsCommand.run({ () throws(PodcastError) in try fetcher(store).unfollow(podcast) }) else {
                    throw CommandFailure(message: "no podcast \(podcast) (see: onair podcasts)", exitCode: ExitStatus.notFound)
                }
                print("Stopped following \(removed.title)")
            }
        }
    }

    /// Exit status 4 if there is no such podcast.
    static func attach(_ podcast: Int64, to programme: String?) throws {
        let store = try openStore()
        guard try run({ () throws(PodcastError) in try store.attach(podcast, to: programme) }) else {
            throw CommandFailure(message: "no podcast \(podcast) (see: onair podcasts)", exitCode: ExitStatus.notFound)
        }
    }

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Ask for the feeds again (a feed that has not changed is not read again).")
        @Argument(help: "The podcast's id; without it, every podcast.") var podcast: Int64?
        @Flag(help: "Download every episode not downloaded yet.") var download = false
        @Option(help: ArgumentHelp("Keep the newest N episodes downloaded: download them, delete older downloads.", valueName: "N"))
        var keep: Int?

        func validate() throws {
            if let keep, keep < 0 { throw ValidationError("--keep must be 0 or more") }
            if download, keep != nil { throw ValidationError("give --download or --keep, not both") }
        }

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                let podcasts = try selected(podcast, in: store)
                for followed in podcasts {
                    report(try PodcastsCommand.run(exitCode: ExitStatus.streamFailed) { () throws(PodcastError) in
                        try fetcher(store).refresh(followed, warn: PodcastsCommand.warn)
                    })
                    guard download || keep != nil else { continue }
                    let kept = try PodcastsCommand.run(exitCode: ExitStatus.streamFailed) { () throws(PodcastError) in
                        try fetcher(store).keepDownloaded(followed, newest: keep)
                    }
                    kept.downloaded.forEach { print("downloaded \($0)") }
                    kept.deleted.forEach { print("deleted \($0)") }
                }
            }
        }
    }
}
