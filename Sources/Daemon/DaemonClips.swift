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
/// every few seconds), and every station gets a watch with the new clips. Each airing joins the station's events
/// (the log, the event stream, metrics, the alert webhook, the recordings' chapters) and the airing log (`onair aired`).
final class DaemonClips: Sendable {
    /// How often the library's revision is looked at: a clip added with `onair clips add` is watched for within this.
    static let checkInterval: TimeInterval = 2

    private let stores: Result<ClipStores, ClipError>
    private let stations: Stations
    private let log: @Sendable (DaemonEvent) -> Void
    private let stopped = DispatchSemaphore(value: 0)
    /// The revision the stations' watches were made from; nil until the library was first read.
    private let revision = Locked<Int64?>(nil)
    /// Airings are written one after another, off the decode threads that tell them.
    private let writes = DispatchQueue(label: "onair.airings")

    init(stores: Result<ClipStores, ClipError>, stations: Stations, log: @escaping @Sendable (DaemonEvent) -> Void) {
        self.stores = stores
        self.stations = stations
        self.log = log
    }

    /// Reads the library, then looks for changes on a thread of its own until `stop()`.
    func start() {
        refresh()
        let thread = Thread { [self] in
            while stopped.wait(timeout: .now() + Self.checkInterval) == .timedOut { refresh() }
        }
        thread.name = "onair-clips"
        thread.start()
    }

    func stop() { stopped.signal() }

    /// Gives every station a watch for the library as it is now, if it changed since the last look.
    func refresh() {
        let outcome = Result { () throws(ClipError) -> (ClipStores, Int64) in
            let stores = try stores.get()
            return (stores, try stores.library.revision())
        }
        guard case .success(let (stores, now)) = outcome else {
            // Said once: the library is looked at every few seconds.
            if case .failure(let error) = outcome, revision.current == nil {
                revision.withLock { $0 = -1 }
                log(DaemonEvent(.clipsFailed, message: "\(error)"))
            }
            return
        }
        guard revision.current != now else { return }
        let clips: [ReferenceClip]
        do throws(ClipError) {
            clips = try stores.library.all()
        } catch {
            log(DaemonEvent(.clipsFailed, message: "\(error)"))
            return
        }
        let airings = stores.airings
        revision.withLock { $0 = now }
        let index = ClipIndex(clips)
        let log = self.log, writes = self.writes
        stations.setCompanions { key, connection in
            guard !clips.isEmpty else { return [] }
            let station = URLRedaction.redact(key)
            let pipeline = connection.pipeline, clock = connection.clock
            do throws(ClipError) {
                return [try ClipWatch(index: index, station: station, format: pipeline.format, startMediaTime: pipeline.mediaTime,
                                      clock: { clock.now }) { [weak pipeline] sighting in
                    // Weak: the pipeline holds the watch.
                    pipeline?.publish(.clipMatched(sighting))
                    writes.async {
                        do throws(ClipError) {
                            try airings.add(sighting)
                        } catch {
                            log(DaemonEvent(.clipsFailed, station: station, message: "the airing of \"\(sighting.clip)\" is not kept: \(error)"))
                        }
                    }
                }]
            } catch {
                log(DaemonEvent(.clipsFailed, station: station, message: "\(error)"))
                return []
            }
        }
    }
}
