import ClipDetection
import Engine
import Foundation
import Media
import RadioModel
import Scheduling
import StreamInput

/// The daemon's ear for known clips: every station it has connected — for a recording, a relay, an episode, a
/// listener or a watch — is matched against the clip library as it plays (a `ClipWatch` beside the station's jobs,
/// which never keeps it connected). The library is read again when `onair clips` changes it (its revision, looked at
/// every few seconds): the watches go on with the new clips, keeping the airings under way. Each airing joins the
/// station's events (the log, the event stream, metrics, the alert webhook, the recordings' chapters) and the airing
/// log (`onair aired`). With `learnsTracks`, every station also has a `TrackLearner`: a song a station names while it
/// airs whole joins the library under its title, so it is known by name where it airs again, titled or not.
final class DaemonClips: Sendable {
    /// How often the library's revision is looked at: a clip added with `onair clips add` is watched for within this.
    static let checkInterval: TimeInterval = 2
    /// Learned songs kept at most, the oldest going first: the index of every station's watch holds them all (about
    /// 40 kB each for a 4-minute song).
    static let learnedAtMost = 1000
    /// The index of an empty library, for the watches of a learning daemon before it knows a song.
    private static let noClips = ClipIndex([])

    private let stores: Result<ClipStores, ClipError>
    private let stations: Stations
    private let learnsTracks: Bool
    private let log: @Sendable (DaemonEvent) -> Void
    private let stopped = DispatchSemaphore(value: 0)
    /// The library as last read: its revision (nil until it was read once) and its clips' index (nil while it has none,
    /// and no station is watched).
    private let library = Locked<(revision: Int64?, index: ClipIndex?)>((nil, nil))
    /// The stations' watches, to hand a new index to.
    private let watches = Locked<[WeakWatch]>([])
    private let refreshing = Serialized()
    /// Airings are written one after another, off the decode threads that tell them.
    private let writes = DispatchQueue(label: "onair.airings")

    init(stores: Result<ClipStores, ClipError>, stations: Stations, learnsTracks: Bool, log: @escaping @Sendable (DaemonEvent) -> Void) {
        self.stores = stores
        self.stations = stations
        self.learnsTracks = learnsTracks
        self.log = log
    }

    /// Reads the library, then looks for changes on a thread of its own until `stop()`.
    func start() {
        if learnsTracks, case .success(let stores) = stores { attach(stores) }
        refresh()
        let thread = Thread { [self] in
            while stopped.wait(timeout: .now() + Self.checkInterval) == .timedOut { refresh() }
        }
        thread.name = "onair-clips"
        thread.start()
    }

    func stop() { stopped.signal() }

    /// Reads the library if it changed since the last look: the watches go on with its clips; the stations get watches
    /// when it gains its first clip, and lose them when it has none left.
    func refresh() {
        // One look at a time: the clips' thread and a request that changed the library may both ask.
        refreshing.run { lookAgain() }
    }

    private func lookAgain() {
        let outcome = Result { () throws(ClipError) -> (ClipStores, Int64) in
            let stores = try stores.get()
            return (stores, try stores.library.revision())
        }
        guard case .success(let (stores, now)) = outcome else {
            // Said once: the library is looked at every few seconds.
            if case .failure(let error) = outcome, library.current.revision == nil {
                library.withLock { $0.revision = -1 }
                log(DaemonEvent(.clipsFailed, message: "\(error)"))
            }
            return
        }
        guard library.current.revision != now else { return }
        let clips: [ReferenceClip]
        do throws(ClipError) {
            clips = try stores.library.all()
        } catch {
            log(DaemonEvent(.clipsFailed, message: "\(error)"))
            return
        }
        let index = clips.isEmpty ? nil : ClipIndex(clips)
        let watched = library.withLock { library -> Bool in
            defer { library = (now, index) }
            return library.index != nil
        }
        if learnsTracks || (watched && index != nil) {
            // Learning, every station is watched from the start, with no clips at first: nothing is attached again,
            // so no learner loses the song it is hearing.
            let live = watches.withLock { watches -> [ClipWatch] in
                watches.removeAll { $0.watch == nil }
                return watches.compactMap(\.watch)
            }
            live.forEach { $0.use(index ?? Self.noClips) }
        } else if watched != (index != nil) {
            // The first clips, or none left: every station gains a watch, or loses it.
            if index == nil { watches.withLock { $0 = [] } }
            attach(stores)
        }
    }

    /// Gives every station, now and from now on, what listens to it: a watch while there are clips, a learner when learning.
    private func attach(_ stores: ClipStores) {
        // Weak: the stations keep the rule, and this keeps the stations.
        stations.setCompanions { [weak self] key, connection in
            guard let self else { return [] }
            return watch(key, connection, airings: stores.airings) + (learnsTracks ? learner(key, connection, library: stores.library) : [])
        }
    }

    /// A learner for the station: each song it learns joins the library, unless a clip has its name.
    private func learner(_ key: String, _ connection: StationConnection, library: any ClipLibraryStorage) -> [StreamConsumer] {
        let station = URLRedaction.redact(key)
        let log = self.log, writes = self.writes
        do throws(ClipError) {
            return [try TrackLearner(station: station, format: connection.pipeline.format) { track in
                writes.async {
                    do throws(ClipError) {
                        guard let clip = try library.learn(track, keepingAtMost: Self.learnedAtMost) else { return }
                        log(DaemonEvent(.trackLearned, station: station, message: String(format: "\"%@\" (%.0f s) is known by its sound now",
                                                                                         clip.name, clip.seconds)))
                    } catch {
                        log(DaemonEvent(.clipsFailed, station: station, message: "\"\(track.title)\" is not learned: \(error)"))
                    }
                }
            }]
        } catch {
            log(DaemonEvent(.clipsFailed, station: station, message: "\(error)"))
            return []
        }
    }

    /// A watch for the station, with the clips as they are now; none while there are none.
    private func watch(_ key: String, _ connection: StationConnection, airings: any AiringStorage) -> [StreamConsumer] {
        guard let index = library.current.index ?? (learnsTracks ? Self.noClips : nil) else { return [] }
        let station = URLRedaction.redact(key)
        let pipeline = connection.pipeline, clock = connection.clock
        let log = self.log, writes = self.writes
        do throws(ClipError) {
            let watch = try ClipWatch.publishing(into: pipeline, index: index, station: station, clock: { clock.now }) { sighting in
                writes.async {
                    do throws(ClipError) {
                        try airings.add(sighting)
                    } catch {
                        log(DaemonEvent(.clipsFailed, station: station, message: "the airing of \"\(sighting.clip)\" is not kept: \(error)"))
                    }
                }
            }
            watches.withLock { $0.append(WeakWatch(watch: watch)) }
            return [watch]
        } catch {
            log(DaemonEvent(.clipsFailed, station: station, message: "\(error)"))
            return []
        }
    }
}

private struct WeakWatch {
    weak var watch: ClipWatch?
}
