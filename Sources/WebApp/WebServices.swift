import Engine
import Foundation
import Guide
import Hummingbird
import Outputs
import Library
import Podcasts
import RadioModel
import Recording
import Scheduling
import Store
import StreamInput

/// What the pages read and change: the daemon's stores and jobs, the catalogue and the directory. The
/// pages hand the same requests in as the CLI and the API (`JobSpec`, `RuleRequest`).
public struct WebServices: Sendable {
    public var paths: AppPaths
    /// The catalogue as it is now (the user's file changes when a station is added).
    public var catalogue: @Sendable () throws -> Catalogue
    /// Searches the radio-browser directory.
    public var directory: @Sendable (_ query: String) throws -> [DirectoryStation]
    public var schedule: any ScheduleStorage
    public var recordings: any RecordingsIndexing
    public var guide: GuideStore
    /// Playlists, likes and hidden items, the podcasts followed, and where the player left each recording and episode.
    public var libraryStores: LibraryStores
    public var podcasts: PodcastStore { libraryStores.podcasts }
    /// Adds and refreshes the podcasts' feeds.
    public var podcastFetch: PodcastFetch { libraryStores.podcastFetch }
    public var library: LibraryStore { libraryStores.library }
    public var positions: PlayerStore { libraryStores.positions }
    /// The runtime jobs: started and stopped as `onair jobs` does, listed with their live state.
    public var startJob: @Sendable (JobSpec) throws -> JobStatus
    public var stopJob: @Sendable (_ id: Int64) throws -> JobStatus
    public var jobs: @Sendable () -> [JobStatus]
    /// The scheduler's view: episodes being recorded, the next ones, recent failures.
    public var status: @Sendable () -> DaemonStatus
    /// Tells the scheduler the rules changed.
    public var wakeScheduler: @Sendable () -> Void
    /// The sinks declared on the box, which a station page offers to relay to (`onair sinks add`). Blocking (a file).
    public var declaredSinks: @Sendable () throws -> DeclaredSinks
    /// The CSRF token the forms of a page carry, and whether the request comes with a login (the pages
    /// then offer to log out): the daemon's `WebAccess.forms(for:)`.
    public var forms: @Sendable (Request) async -> (csrf: String?, loggedIn: Bool) = { _ in (nil, false) }
    /// A feed's path as a podcast app is given it: with its secret token once the box has credentials. Blocking (SQLite).
    public var feedAddress: @Sendable (String) -> String = { $0 }

    public init(paths: AppPaths, catalogue: @escaping @Sendable () throws -> Catalogue,
                directory: @escaping @Sendable (String) throws -> [DirectoryStation],
                schedule: any ScheduleStorage, recordings: any RecordingsIndexing, guide: GuideStore,
                libraryStores: LibraryStores,
                startJob: @escaping @Sendable (JobSpec) throws -> JobStatus, stopJob: @escaping @Sendable (Int64) throws -> JobStatus,
                jobs: @escaping @Sendable () -> [JobStatus], status: @escaping @Sendable () -> DaemonStatus, wakeScheduler: @escaping @Sendable () -> Void) {
        self.paths = paths; self.catalogue = catalogue; self.directory = directory; self.schedule = schedule
        self.recordings = recordings; self.guide = guide
        self.libraryStores = libraryStores
        self.startJob = startJob; self.stopJob = stopJob; self.jobs = jobs
        self.status = status
        self.wakeScheduler = wakeScheduler
        declaredSinks = { try DeclaredSinks.load(paths) }
    }

    /// The services of a running daemon; the podcasts, the library and the player's positions are
    /// tables of the daemon's own database.
    public init(daemon: DaemonService, paths: AppPaths, catalogue: @escaping @Sendable () throws -> Catalogue,
                directory: @escaping @Sendable (String) throws -> [DirectoryStation]) throws {
        self.init(paths: paths, catalogue: catalogue, directory: directory, schedule: daemon.schedule,
                  recordings: daemon.recordings, guide: daemon.guide, libraryStores: try LibraryStores(dataDirectory: paths.data),
                  startJob: daemon.startJob, stopJob: daemon.stopJob(id:),
                  jobs: daemon.jobs.list, status: { daemon.status() },
                  wakeScheduler: { daemon.wake() })
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
