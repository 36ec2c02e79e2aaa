import Engine
import Foundation
import Media
import RadioModel
import Recording
import Scheduling
import SharedStore
import Store
import TestSupport
import XCTest

/// The engine in-process: jobs on a real Icecast station, sharing its one connection, served to a
/// real HTTP client, stopped, and riding out the station's death. The jobs and the index are in
/// onair's SQLite file, or in PostgreSQL with ONAIR_TEST_DATABASE=postgresql.
final class RuntimeJobsTests: XCTestCase {
    private var icecast: IcecastHarness!
    private var home: TemporaryDirectory!
    private var stations: Stations!
    private var jobs: RuntimeJobs!
    private var index: (any RecordingsIndexing)!
    private var store: (any JobStorage)!
    private var paths: AppPaths!
    private static let mount = "/station.mp3"

    override func setUpWithError() throws {
        icecast = try IcecastHarness.playing(Self.mount, title: "Engine tone")
        home = try TemporaryDirectory(prefix: "onair-engine")
        paths = AppPaths(environment: ["ONAIR_HOME": home.url.path])
        if let postgres = try TestDatabase.postgresURL() {
            let database = try SharedDatabase(location: try PostgresLocation(url: postgres))
            (index, store) = (try PostgresRecordingsIndex(database: database), try PostgresJobStore(database: database, daemon: "engine-tests"))
        } else {
            let database = try OnairDatabase(directory: paths.data)
            (index, store) = (try RecordingsIndex(database: database), try JobStore(database: database))
        }
        stations = Stations()
        jobs = runtimeJobs(maxStations: nil)
    }

    private func runtimeJobs(maxStations: Int?) -> RuntimeJobs {
        RuntimeJobs(stations: stations, store: store, finaliser: Finaliser(index: index), paths: paths, maxStations: maxStations,
                    lookup: { text in try StreamTarget.parse(text, catalogue: { Catalogue(stations: []) }) })
    }

    override func tearDown() {
        jobs?.stopAll()
        icecast?.stop()
        home?.remove()
    }

    private var station: String { icecast.url(mount: Self.mount).absoluteString }

    private func job(_ id: Int64) -> JobStatus? { jobs.list().first { $0.id == id } }

    func testARelayAndARecordingShareOneConnectionAndTheRelaysMountPlaysTheStation() throws {
        let port = try FreePort.pick()
        let mount = URL(string: "http://127.0.0.1:\(port)/x.mp3")!
        let relay = try jobs.start(JobSpec(kind: .relay, station: station, sinks: [mount.absoluteString]))
        let recording = try jobs.start(JobSpec(kind: .record, station: station))
        XCTAssertNotEqual(relay.id, recording.id)

        // A listener pulls the mount for 3 s while the job list is asked who listens.
        let capture = Locked<RawHTTPResponse?>(nil)
        let listening = Thread { capture.withLock { $0 = try? RawHTTP.get(mount, duration: 3) } }
        listening.start()
        XCTAssertTrue(eventually(timeout: 5) { self.job(relay.id)?.sinks.first?.listeners == 1 }, "\(jobs.list())")
        XCTAssertEqual(try icecast.mounts().first { $0.mount == Self.mount }?.listeners, 1, "one upstream connection for both jobs")
        XCTAssertEqual(stations.count, 1)
        XCTAssertTrue(eventually(timeout: 10) { capture.current != nil })
        let body = try XCTUnwrap(capture.current).body
        XCTAssertGreaterThan(body.count, 16_000, "at least a second of 128 kbit/s audio")
        let file = home.file("capture.mp3")
        try body.write(to: file)
        XCTAssertEqual(try XCTUnwrap(FFprobe.decodePCM(file).dominantFrequency()), 440, accuracy: 5, "the listener hears the station")

        let listed = try XCTUnwrap(job(relay.id))
        XCTAssertEqual(listed.state, "playing")
        XCTAssertEqual(listed.title, "Engine tone")
        XCTAssertGreaterThan(listed.bytes, 0)

        // Stopping the relay ends its mount at once; the recording goes on on the same connection.
        _ = try jobs.stop(id: relay.id)
        XCTAssertTrue(eventually(timeout: 3) { (try? RawHTTP.get(mount, timeout: 1))?.statusCode != 200 }, "the mount is gone")
        XCTAssertEqual(stations.count, 1)
        let stopped = try jobs.stop(id: recording.id)
        XCTAssertGreaterThan(stopped.bytes, 0)
        XCTAssertEqual(stations.count, 0, "the last job's leaving closes the connection")
        XCTAssertEqual(try index.all().count, 1, "the recording is finalised and indexed when its job stops")
        XCTAssertThrowsError(try jobs.stop(id: relay.id)) { XCTAssertEqual(($0 as? EngineError)?.kind, .notFound) }
    }

    func testARecordingStartedWhileItsStationPlaysIsListedPlayingAndBeginsWithTheTitleOnAir() throws {
        let relay = try jobs.start(JobSpec(kind: .relay, station: station, sinks: ["http://127.0.0.1:\(try FreePort.pick())/z.mp3"]))
        XCTAssertTrue(eventually(timeout: 10) { self.job(relay.id)?.title == "Engine tone" }, "\(jobs.list())")
        // The station has sent its one title: the recording joins the running connection after it.
        let recording = try jobs.start(JobSpec(kind: .record, station: station))
        XCTAssertTrue(eventually(timeout: 10) { (self.job(recording.id)?.bytes ?? 0) > 16_000 }, "\(jobs.list())")
        let listed = try XCTUnwrap(job(recording.id))
        XCTAssertEqual(listed.state, "playing", "a job joining a playing station plays")
        XCTAssertEqual(listed.title, "Engine tone")
        XCTAssertEqual(try icecast.mounts().first { $0.mount == Self.mount }?.listeners, 1, "it joined the one connection")

        _ = try jobs.stop(id: recording.id)
        let file = try XCTUnwrap(try index.all().first?.file, "the recording is indexed when its job stops")
        let chapters = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_entries", "chapter_tags=title", "-of", "csv=p=0", file]).check()
        XCTAssertEqual(chapters.stdoutText.split(separator: "\n").first.map(String.init), "Engine tone",
                       "the recording's first chapter is the title on air when it began")
    }

    func testAJobWhoseStationDiesReconnectsAndCountsTheGap() throws {
        let port = try FreePort.pick()
        let relay = try jobs.start(JobSpec(kind: .relay, station: station, sinks: ["http://127.0.0.1:\(port)/y.mp3"]))
        XCTAssertTrue(eventually(timeout: 10) { self.job(relay.id)?.state == "playing" && (self.job(relay.id)?.bytes ?? 0) > 0 })
        try icecast.stopSource(mount: Self.mount)
        Thread.sleep(forTimeInterval: 1)
        try icecast.startSource(mount: Self.mount, codec: .mp3, frequency: 440)
        XCTAssertTrue(eventually(timeout: 30) { (self.job(relay.id)?.gaps ?? 0) >= 1 && self.job(relay.id)?.state == "playing" },
                      "\(jobs.list())")
        let listed = try XCTUnwrap(job(relay.id))
        XCTAssertGreaterThanOrEqual(listed.reconnects, 1)
        XCTAssertGreaterThan(listed.gapSeconds, 0.5, "the downtime is counted")
    }

    func testPastMaxStreamsAJobOnAnotherStationIsRefusedAndAPersistedOneWaitsForRoom() throws {
        try icecast.startSource(mount: "/other.mp3", codec: .mp3, frequency: 880, title: "Other tone")
        let other = icecast.url(mount: "/other.mp3").absoluteString
        let bounded = runtimeJobs(maxStations: 1)
        defer { bounded.stopAll() }
        _ = try bounded.start(JobSpec(kind: .record, station: station))
        XCTAssertNoThrow(try bounded.start(JobSpec(kind: .record, station: station)), "a station already open takes no more room")
        XCTAssertThrowsError(try bounded.start(JobSpec(kind: .record, station: other))) { error in
            XCTAssertEqual((error as? EngineError)?.kind, .configuration)
            XCTAssertEqual("\(error)", "no room for \(other): the stations this daemon may have open (--max-streams 1) are all in use")
        }
        XCTAssertEqual(stations.count, 1, "the refused job opened nothing")

        // A persisted job on the other station, unheld (as a daemon that died leaves it): a full daemon leaves it be.
        let waiting = try store.add(JobSpec(kind: .record, station: other, persist: true))
        XCTAssertTrue(try bounded.restorePersisted().isEmpty)
        XCTAssertFalse(bounded.list().contains { $0.id == waiting }, "\(bounded.list())")
        // With room again it is claimed and records its station.
        for job in bounded.list() { _ = try bounded.stop(id: job.id) }
        XCTAssertTrue(try bounded.restorePersisted().isEmpty)
        XCTAssertEqual(bounded.list().map(\.id), [waiting])
        XCTAssertTrue(eventually(timeout: 10) { (bounded.list().first?.bytes ?? 0) > 0 && bounded.list().first?.title == "Other tone" },
                      "it records the other station: \(bounded.list())")
    }

    /// Sharing a database, a persisted job of a station another daemon has open is left to that daemon: let go of
    /// once, with one line naming it, and not claimed, refused and logged again at every renewal.
    func testAPersistedJobOfAStationOpenOnAnotherDaemonIsLeftToIt() throws {
        guard let postgres = try TestDatabase.postgresURL() else { throw XCTSkip("a shared database: ONAIR_TEST_DATABASE=postgresql") }
        let database = try SharedDatabase(location: try PostgresLocation(url: postgres))
        let holder = try PostgresEpisodeLeases(database: database, identity: DaemonIdentity(name: "holder", host: "elsewhere"), maxStreams: 10)
        guard case .claimed = try holder.claimStation(station) else { return XCTFail("the holder takes the station") }
        let here = try PostgresEpisodeLeases(database: database, identity: DaemonIdentity(name: "here"), maxStreams: 10)
        let shared = try PostgresJobStore(database: database, daemon: here.daemon)
        let cluster = RuntimeJobs(stations: stations, store: shared, finaliser: Finaliser(index: index), paths: paths, maxStations: 10,
                                  stationLeases: JobStationLeases(leases: here),
                                  lookup: { text in try StreamTarget.parse(text, catalogue: { Catalogue(stations: []) }) })
        defer { cluster.stopAll() }
        // Unheld, as a daemon that died leaves it.
        let id = try shared.add(JobSpec(kind: .record, station: station, persist: true))
        try shared.release(id: id)

        let failures = try cluster.restorePersisted()
        XCTAssertEqual(failures.map(\.id), [id])
        XCTAssertEqual(failures.first?.failure, "\(station) is open on daemon holder on elsewhere: start the job there, "
                       + "so that the station keeps one connection; left to it")
        XCTAssertEqual(stations.count, 0, "nothing was opened")
        XCTAssertTrue(try cluster.restorePersisted().isEmpty, "not claimed and refused again at the next renewal")
        XCTAssertThrowsError(try cluster.start(JobSpec(kind: .relay, station: station, sinks: ["null"]))) { error in
            XCTAssertEqual((error as? EngineError)?.kind, .configuration, "asked of the wrong daemon: \(error)")
        }
        let holderJobs = try PostgresJobStore(database: database, daemon: holder.daemon)
        XCTAssertEqual(try holderJobs.claimPersisted(running: [], leaving: [], limit: nil).map(\.id), [id], "the holder claims it")
    }
}
