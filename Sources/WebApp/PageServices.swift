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
import Store
import StreamInput

/// What the pages read and change: the daemon's stores and jobs, the catalogue and the directory. The
/// pages hand the same requests in as the CLI and the API (`JobSpec`, `RuleRequest`). Made for each page
/// inside `DaemonFacade.perform` (see `WebApp`), from the `BlockingDaemon` it hands over: every member
/// may block, and is only ever called on the facade's threads.
struct PageServices: Sendable {
    var paths: AppPaths
    /// The catalogue as it is now (the user's file changes when a station is added).
    var catalogue: @Sendable () throws -> Catalogue
    /// Searches the radio-browser directory.
    var directory: @Sendable (_ query: String) throws -> [DirectoryStation]
    var schedule: any ScheduleStorage
    var recordings: any RecordingsIndexing
    var guide: GuideStore
    /// Playlists, likes and hidden items, the podcasts followed, and where the player left each recording and episode.
    var libraryStores: LibraryStores
    var podcasts: PodcastStore { libraryStores.podcasts }
    /// Adds and refreshes the podcasts' feeds.
    var podcastFetch: PodcastFetch { libraryStores.podcastFetch }
    var library: LibraryStore { libraryStores.library }
    var positions: PlayerStore { libraryStores.positions }
    /// The runtime jobs: started and stopped as `onair jobs` does, listed with their live state.
    var startJob: @Sendable (JobSpec) throws -> JobStatus
    var stopJob: @Sendable (_ id: Int64) throws -> JobStatus
    var jobs: @Sendable () -> [JobStatus]
    /// The scheduler's view: episodes being recorded, the next ones, recent failures.
    var status: @Sendable () -> DaemonStatus
    /// Tells the scheduler the rules changed.
    var wakeScheduler: @Sendable () -> Void
    /// The sinks declared on the box, which a station page offers to relay to (`onair sinks add`). Blocking (a file).
    var declaredSinks: @Sendable () throws -> DeclaredSinks
    /// A feed's path as a podcast app is given it: with its secret token once the box has credentials
    /// (`WebServices.feedAddress`). Blocking (SQLite).
    var feedAddress: @Sendable (String) -> String

    /// The services of the daemon `perform` handed over; the podcasts, the library and the player's
    /// positions are tables of the daemon's own database, and fail here when it cannot be opened.
    init(_ daemon: BlockingDaemon, feedAddress: @escaping @Sendable (String) -> String) throws(LibraryError) {
        paths = daemon.paths
        catalogue = { try daemon.catalogue() }
        // A client for each search, as `onair search` makes one; none when no server is configured.
        directory = { query in
            guard let client = daemon.directory() else { throw DirectoryUnconfigured() }
            return try client.search(query)
        }
        schedule = daemon.schedule
        recordings = daemon.recordings
        guide = daemon.guide
        libraryStores = try daemon.library()
        startJob = { try daemon.startJob($0) }
        stopJob = { try daemon.stopJob(id: $0) }
        jobs = { daemon.runningJobs() }
        status = { daemon.status() }
        wakeScheduler = { daemon.wake() }
        declaredSinks = { try daemon.declaredSinks() }
        self.feedAddress = feedAddress
    }

    var userCatalogue: UserCatalogue { UserCatalogue(paths: paths) }

    /// Names items and adds a programme or podcast as its episodes, as `onair playlists add` does.
    var resolver: ItemResolver {
        let catalogue = self.catalogue
        return libraryStores.resolver(index: recordings, catalogue: { () throws(LibraryError) -> Catalogue in
            do { return try catalogue() } catch { throw LibraryError("\(error)") }
        })
    }
}

/// Why the directory cannot be searched: no radio-browser.info client could be made (the servers
/// configured are unusable). The stations page shows it as it shows a failed search.
struct DirectoryUnconfigured: Error, CustomStringConvertible {
    var description: String { "no radio-browser.info server is configured (\(RadioBrowserClient.baseURLsVariable))" }
}
