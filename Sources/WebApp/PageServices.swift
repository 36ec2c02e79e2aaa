import ClipDetection
import Daemon
import Engine
import Foundation
import Guide
import Library
import Outputs
import Podcasts
import RadioModel
import Recording
import Scheduling
import Scrobbling
import Store
import StreamInput

/// What the pages read and change: the daemon's stores and jobs, the catalogue and the directory. The
/// pages hand the same requests in as the CLI and the API (`JobSpec`, `RuleRequest`). Made for each page
/// inside `DaemonFacade.perform` (see `WebApp`), from the `BlockingDaemon` it hands over: every member
/// may block, and is only ever called on the facade's threads.
struct PageServices: Sendable {
    private let daemon: BlockingDaemon
    /// Playlists, likes and hidden items, the podcasts followed, and where the player left each recording and episode.
    let libraryStores: LibraryStores
    /// A feed's path as a podcast app is given it: with its secret token once the box has credentials
    /// (`WebServices.feedAddress`). Blocking (SQLite).
    let feedAddress: @Sendable (String) -> String

    /// The services of the daemon `perform` handed over; the podcasts, the library and the player's
    /// positions are tables of the daemon's own database, and fail here when it cannot be opened.
    init(_ daemon: BlockingDaemon, feedAddress: @escaping @Sendable (String) -> String) throws(LibraryError) {
        self.daemon = daemon
        libraryStores = try daemon.library()
        self.feedAddress = feedAddress
    }

    var paths: AppPaths { daemon.paths }
    var schedule: any ScheduleStorage { daemon.schedule }
    var recordings: any RecordingsIndexing { daemon.recordings }
    var guide: GuideStore { daemon.guide }
    var podcasts: PodcastStore { libraryStores.podcasts }
    /// Adds and refreshes the podcasts' feeds.
    var podcastFetch: PodcastFetch { libraryStores.podcastFetch }
    var library: LibraryStore { libraryStores.library }
    var positions: PlayerStore { libraryStores.positions }
    /// A recording or episode the web player played to its end: a listen, sent to ListenBrainz when an account is set.
    func heard(_ listen: Listen) { daemon.heard(listen) }
    /// The titles each station sent lately, as the daemon heard them.
    var titles: StationTitles { daemon.events.titles }

    /// The catalogue as it is now (the user's file changes when a station is added).
    func catalogue() throws -> Catalogue { try daemon.catalogue() }

    /// Searches the radio-browser directory, with a client for each search, as `onair search` makes one.
    func directory(_ query: String) throws -> [DirectoryStation] {
        guard let client = daemon.directory() else { throw DirectoryUnconfigured() }
        return try client.search(query)
    }

    /// The runtime jobs: started and stopped as `onair jobs` does, listed with their live state.
    func startJob(_ spec: JobSpec) throws -> JobStatus { try daemon.startJob(spec) }
    func stopJob(_ id: Int64) throws -> JobStatus { try daemon.stopJob(id: id) }
    func jobs() -> [JobStatus] { daemon.runningJobs() }
    /// The scheduler's view: episodes being recorded, the next ones, recent failures.
    func status() -> DaemonStatus { daemon.status() }
    /// Tells the scheduler the rules changed.
    func wakeScheduler() { daemon.wake() }
    /// The sinks declared on the box, which a station page offers to relay to (`onair sinks add`). Blocking (a file).
    func declaredSinks() throws -> DeclaredSinks { try daemon.declaredSinks() }

    /// The known clips and the airings heard (`onair clips`, `onair aired`).
    func clips() throws(ClipError) -> ClipStores { try daemon.clips() }

    var userCatalogue: UserCatalogue { UserCatalogue(paths: paths) }

    /// Names items and adds a programme or podcast as its episodes, as `onair playlists add` does.
    var resolver: ItemResolver {
        let daemon = daemon
        return libraryStores.resolver(index: recordings, catalogue: { () throws(LibraryError) -> Catalogue in
            do { return try daemon.catalogue() } catch { throw LibraryError("\(error)") }
        })
    }
}

/// Why the directory cannot be searched: no radio-browser.info client could be made (the servers
/// configured are unusable). The stations page shows it as it shows a failed search.
struct DirectoryUnconfigured: Error, CustomStringConvertible {
    var description: String { "no radio-browser.info server is configured (\(RadioBrowserClient.baseURLsVariable))" }
}
