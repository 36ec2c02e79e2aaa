import ClipDetection
import Engine
import Foundation
import Guide
import Library
import NIOPosix
import Outputs
import RadioModel
import Recording
import Scheduling
import Scrobbling
import StreamInput

/// The one door of the daemon for its transports: the HTTP API, the web pages, the podcast feeds and
/// the live mounts. What may block — the stores (SQLite, or PostgreSQL across the network), the
/// catalogue's file, the directory, starting and stopping jobs, joining a station — is reachable only
/// inside `perform`, which runs it on the facade's own threads: never on Swift's cooperative pool, whose
/// few threads serve every connection of the server. What does not block is here directly.
public final class DaemonFacade: Sendable {
    /// Blocking work waits (on a disk, on PostgreSQL, on a playlist fetch) far more than it computes, so
    /// the pool has more threads than the machine has cores. One pool for the process, never shut down.
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 16)
        pool.start()
        return pool
    }()

    private let blocking: BlockingDaemon
    private let service: DaemonService

    /// `catalogue` reads the stations as they are now (the user's file changes when one is added);
    /// `directory` makes the radio-browser.info client for a search, nil when none is configured.
    public init(service: DaemonService, catalogue: @escaping @Sendable () throws -> Catalogue,
                directory: @escaping @Sendable () -> RadioBrowserClient? = { try? RadioBrowserClient() }) {
        self.service = service
        blocking = BlockingDaemon(service: service, catalogueReader: catalogue, makeDirectory: directory,
                                  libraryOpening: Result { () throws(LibraryError) in try LibraryStores(dataDirectory: service.paths.data) })
    }

    /// Runs `work` on the facade's threads and returns what it returns.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (BlockingDaemon) throws -> T) async throws -> T {
        let blocking = blocking
        return try await Self.threads.runIfActive { try work(blocking) }
    }

    /// Titles, gaps, reconnects, episodes and jobs as they happen.
    public var events: DaemonEvents { service.events }
    public var paths: AppPaths { service.paths }
    /// The runtime jobs running now, with their live state (held in memory).
    public func runningJobs() -> [JobStatus] { service.jobs.list() }
    /// Tells the scheduler the rules changed.
    public func wake() { service.wake() }
    public func metricsText() -> String { service.metricsText() }

    /// Leaves a station's connection now, on the caller's thread, which may wait while the station's last
    /// consumers finish: for a server that is stopping, from a thread of its own (never the cooperative pool).
    public func leaveNow(_ membership: Stations.Membership) { service.stations.leave(membership) }
}

/// The daemon's side that may block, as `DaemonFacade.perform` hands it to its work.
public struct BlockingDaemon: Sendable {
    let service: DaemonService
    let catalogueReader: @Sendable () throws -> Catalogue
    let makeDirectory: @Sendable () -> RadioBrowserClient?
    let libraryOpening: Result<LibraryStores, LibraryError>

    public var schedule: any ScheduleStorage { service.schedule }
    public var recordings: any RecordingsIndexing { service.recordings }
    public var guide: GuideStore { service.guide }
    public var paths: AppPaths { service.paths }
    /// The connected stations, shared by every job, episode and live listener; joining one connects.
    public var stations: Stations { service.stations }
    /// Turns a station id or URL into what to connect to.
    public var lookup: @Sendable (String) throws -> StreamTarget { service.lookup }
    /// The live events, and the titles each station sent lately.
    public var events: DaemonEvents { service.events }

    /// The catalogue as it is now.
    public func catalogue() throws -> Catalogue { try catalogueReader() }
    /// The radio-browser.info client; nil when no server is configured.
    public func directory() -> RadioBrowserClient? { makeDirectory() }
    /// Playlists, likes, hidden items, podcasts and play positions, or why they cannot be opened.
    public func library() throws(LibraryError) -> LibraryStores { try libraryOpening.get() }
    /// The clip library and the log of airings, or why they cannot be opened.
    public func clips() throws(ClipError) -> ClipStores { try service.clipStores.get() }
    /// Gives every station a watch for the clips as they are now, at once (else within `DaemonClips.checkInterval`).
    public func clipsChanged() { service.clipsChanged() }
    /// The sinks declared on the box (`onair sinks add`), which a request may name.
    public func declaredSinks() throws -> DeclaredSinks { try DeclaredSinks.load(paths) }
    /// The episodes being recorded, the next ones, the recent failures.
    public func status() -> DaemonStatus { service.status() }
    public func startJob(_ spec: JobSpec) throws -> JobStatus { try service.startJob(spec) }
    public func stopJob(id: Int64) throws -> JobStatus { try service.stopJob(id: id) }
    public func runningJobs() -> [JobStatus] { service.jobs.list() }
    public func wake() { service.wake() }
    /// A listen a client heard, sent to ListenBrainz when `onair scrobble login` set an account.
    public func heard(_ listen: Listen) { service.heard(listen) }
    /// What a client plays now, sent to ListenBrainz when an account is set.
    public func playingNow(_ listen: Listen) { service.playingNow(listen) }
}
