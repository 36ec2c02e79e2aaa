import Daemon
import Engine
import Foundation
import Monitoring
import RadioModel
import Scheduling
import SharedStore
import Store
import StreamInput
import TestSupport
import XCTest

/// The daemon in-process watching real stations served as ICY streams: a station that goes silent
/// raises `dead-air` at a real webhook and `recovered` when sound returns, one whose server dies
/// raises `down`, a webhook that fails costs one line, and the metrics move as audio flows.
final class AlertsAndMetricsTests: XCTestCase {
    private var home: TemporaryDirectory!
    private var daemon: DaemonService?
    private var running: Thread?
    private let logged = Locked<[DaemonEvent]>([])
    private let finished = Locked(false)
    /// Short enough for a test, long enough that a reconnect's pause is not taken for dead air.
    private static let alertSeconds = 3.0

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "onair-alerts")
    }

    override func tearDown() {
        daemon?.stop()
        XCTAssertTrue(eventually(timeout: 30) { self.finished.current }, "the daemon stops")
        home?.remove()
    }

    /// Starts a daemon whose alerts go to `webhook`, and a recording job on `station` (none if nil).
    private func startDaemon(webhook: String?, recording station: URL?, sharing database: PostgresLocation? = nil) throws {
        var options = DaemonService.Options()
        options.alerts = AlertRules(quietLevel: -50, seconds: Self.alertSeconds)
        options.alertWebhook = webhook
        options.sharedDatabase = database
        let logged = self.logged, finished = self.finished
        let daemon = try DaemonService(paths: AppPaths(environment: ["ONAIR_HOME": home.url.path]), options: options,
                                       lookup: { text in try StreamTarget.parse(text, catalogue: { Catalogue(stations: []) }) },
                                       log: { event in logged.withLock { $0.append(event) } })
        self.daemon = daemon
        let thread = Thread {
            try? daemon.run()
            finished.withLock { $0 = true }
        }
        thread.start()
        running = thread
        guard let station else { return }
        _ = try ControlClient(socket: daemon.socket).send(ControlRequest(.startJob, job: JobSpec(kind: .record, station: station.absoluteString)),
                                                          expecting: JobStatus.self)
    }

    private func jobStatus() throws -> JobStatus? {
        try ControlClient(socket: daemon!.socket).send(ControlRequest(.listJobs), expecting: JobList.self).reply.jobs.first
    }

    private static func notices(_ server: FixtureHTTPServer) -> [AlertSender.Notice] {
        server.requests("/hook").compactMap { try? OnairJSON.decoder.decode(AlertSender.Notice.self, from: $0.body) }
    }

    /// The value of one series in an exposition, e.g. `onair_station_gaps_total{station="…"}`.
    private static func value(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    func testASilentStationRaisesDeadAirAtTheWebhookWithinNPlusFiveSecondsAndRecoveredWhenSoundReturns() throws {
        let audio = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 4), .silence(seconds: 10),
                                                               Tone(frequency: 440, seconds: 30)]))
        let station = try FixtureHTTPServer(routes: [
            "/station.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio), bytesPerSecond: 16000),
            "/hook": FixtureHTTPServer.status(200),
        ])
        defer { station.stop() }
        let started = Date()
        try startDaemon(webhook: station.url("/hook").absoluteString, recording: station.url("/station.mp3"))

        // The silence starts 4 s into the stream: dead air is due at 4 + N, and must arrive within N + 5 s of its start.
        XCTAssertTrue(eventually(timeout: 4 + Self.alertSeconds + 5) { Self.notices(station).contains { $0.event == "dead-air" } },
                      "dead-air at the webhook; log: \(logged.current.map(\.event))")
        let deadAir = try XCTUnwrap(Self.notices(station).first)
        XCTAssertEqual(deadAir.event, "dead-air")
        XCTAssertEqual(deadAir.station, station.url("/station.mp3").absoluteString)
        XCTAssertEqual(deadAir.level, -50)
        XCTAssertGreaterThanOrEqual(deadAir.seconds, Self.alertSeconds)
        XCTAssertEqual(deadAir.since.timeIntervalSince(started), 4, accuracy: 2.5, "the silence began 4 s in")
        let text = try XCTUnwrap(daemon?.metricsText())
        let label = "{station=\"\(station.url("/station.mp3").absoluteString)\"}"
        XCTAssertGreaterThanOrEqual(Self.value("onair_station_silence_seconds\(label)", in: text) ?? 0, Self.alertSeconds, text)

        // Sound returns 14 s in: recovered, with the silence's length.
        XCTAssertTrue(eventually(timeout: 15) { Self.notices(station).contains { $0.event == "recovered" } },
                      "recovered at the webhook; log: \(logged.current.map(\.event))")
        let recovered = try XCTUnwrap(Self.notices(station).last)
        XCTAssertEqual(recovered.event, "recovered")
        XCTAssertEqual(recovered.alert, "dead-air")
        XCTAssertEqual(recovered.seconds, 10, accuracy: 2, "ten seconds of silence")
        XCTAssertEqual(Self.notices(station).map(\.event), ["dead-air", "recovered"], "one alert, one recovery")
        XCTAssertEqual(logged.current.filter { $0.event.rawValue.hasPrefix("stream-") }.map(\.event), [.streamDeadAir, .streamRecovered])
        let after = try XCTUnwrap(daemon?.metricsText())
        XCTAssertEqual(Self.value("onair_station_alerts_total{station=\"\(station.url("/station.mp3").absoluteString)\",alert=\"dead-air\"}",
                                  in: after), 1, after)
        XCTAssertEqual(Self.value("onair_station_silence_seconds\(label)", in: after), 0, after)
    }

    func testAStationWhoseServerDiesRaisesDownAndAFailingWebhookCostsOneLineWhileTheRecordingGoesOn() throws {
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 60))
        let station = try FixtureHTTPServer(routes: [
            "/station.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio), bytesPerSecond: 16000),
        ])
        // Nothing listens there: every POST fails.
        let webhook = "http://onair:secret@127.0.0.1:\(try FreePort.pick())/hook"
        try startDaemon(webhook: webhook, recording: station.url("/station.mp3"))
        XCTAssertTrue(eventually(timeout: 10) { ((try? self.jobStatus())?.bytes ?? 0) > 16000 }, "the recording gets audio")

        station.stop()
        let stopped = Date()
        XCTAssertTrue(eventually(timeout: Self.alertSeconds + 5) { self.logged.current.contains { $0.event == .streamDown } },
                      "down within N + 5 s; log: \(logged.current.map(\.event))")
        XCTAssertTrue(eventually(timeout: 10) { self.logged.current.contains { $0.event == .alertFailed } })
        let failure = try XCTUnwrap(logged.current.first { $0.event == .alertFailed })
        XCTAssertTrue(failure.message?.hasPrefix("alert webhook \(URLRedaction.redact(webhook)): ") == true, failure.message ?? "")
        XCTAssertFalse(failure.message?.contains("secret") ?? true, "the webhook's password never shows")
        XCTAssertFalse(failure.message?.contains("\n") ?? true, "one line")
        let down = try XCTUnwrap(logged.current.first { $0.event == .streamDown })
        XCTAssertTrue(down.message?.hasPrefix("down: no audio for ") == true, down.message ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(stopped), Self.alertSeconds + 10)
        // The job is still there, reconnecting, and was not failed by the webhook.
        XCTAssertEqual(try jobStatus()?.state, "reconnecting")
    }

    func testAStationWhoseIcecastIsKilledIsDownAndRecoveredWhenItComesBack() throws {
        let icecast = try IcecastHarness.playing("/live.mp3")
        defer { icecast.stop() }
        let hook = try FixtureHTTPServer(routes: ["/hook": FixtureHTTPServer.status(200)])
        defer { hook.stop() }
        try startDaemon(webhook: hook.url("/hook").absoluteString, recording: icecast.url(mount: "/live.mp3"))
        XCTAssertTrue(eventually(timeout: 10) { ((try? self.jobStatus())?.bytes ?? 0) > 16000 }, "the recording gets audio")

        // Killed as a crash would: the mount is gone until its source connects again.
        try icecast.restartServer()
        let killed = Date()
        XCTAssertTrue(eventually(timeout: Self.alertSeconds + 5) { Self.notices(hook).contains { $0.event == "down" } },
                      "down within N + 5 s; log: \(logged.current.map(\.event))")
        let down = try XCTUnwrap(Self.notices(hook).first)
        XCTAssertEqual(down.event, "down")
        XCTAssertEqual(down.since.timeIntervalSince(killed), 0, accuracy: 1.5, "the audio stopped when Icecast died")

        try icecast.startSource(mount: "/live.mp3", codec: .mp3)
        let back = Date()
        // The next reconnection (backoff at most 8 s by now) finds the mount again.
        XCTAssertTrue(eventually(timeout: 15) { Self.notices(hook).contains { $0.event == "recovered" } },
                      "recovered; log: \(logged.current.map(\.event))")
        let recovered = try XCTUnwrap(Self.notices(hook).last)
        XCTAssertEqual(recovered.alert, "down")
        XCTAssertEqual(recovered.since, down.since)
        XCTAssertGreaterThanOrEqual(recovered.seconds, back.timeIntervalSince(killed) - 1, "down from the kill until the source was back, at least")
        XCTAssertLessThan(recovered.seconds, Date().timeIntervalSince(killed) + 1)
        XCTAssertEqual(Self.notices(hook).map(\.event), ["down", "recovered"])
    }

    func testTheMetricsMoveAsAudioFlowsAndAGapAndAnEpisodeCount() throws {
        // Six seconds, then the server ends the stream: the station reconnects and the pause is a gap.
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 6))
        let station = try FixtureHTTPServer(routes: [
            "/station.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio, schedule: [.title("Tone FM")]), bytesPerSecond: 16000),
        ])
        defer { station.stop() }
        // Its URL has a password, which no label may show.
        let source = URL(string: "http://onair:secret@127.0.0.1:\(station.port)/station.mp3")!
        // A three-second episode of the station, due four seconds from now.
        let start = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date().addingTimeInterval(4))
        // In the data directory's schedule, or the shared one with ONAIR_TEST_DATABASE=postgresql.
        let shared = try TestDatabase.postgresURL().map { try PostgresLocation(url: $0) }
        let schedule: any ScheduleStorage = try shared.map { try PostgresScheduleStore(database: try SharedDatabase(location: $0)) }
            ?? ScheduleStore(database: try OnairDatabase(directory: AppPaths(environment: ["ONAIR_HOME": home.url.path]).data))
        _ = try schedule.add(ScheduleRule(
            station: source.absoluteString,
            timing: .once(LocalDateTime(year: start.year!, month: start.month!, day: start.day!, hour: start.hour!, minute: start.minute!,
                                        second: start.second!), duration: TimeSpan(seconds: 3)),
            timeZone: "UTC"))
        let started = Date()
        try startDaemon(webhook: nil, recording: source, sharing: shared)
        let label = "{station=\"\(URLRedaction.redact(source.absoluteString))\"}"
        func value(_ name: String) -> Double? { Self.value(name + label, in: daemon?.metricsText() ?? "") }

        // A relay of the station, and a listener on its mount for three seconds.
        let mount = URL(string: "http://127.0.0.1:\(try FreePort.pick())/tone.mp3")!
        _ = try ControlClient(socket: daemon!.socket).send(ControlRequest(.startJob, job: JobSpec(kind: .relay, station: source.absoluteString,
                                                                                            sinks: [mount.absoluteString])),
                                                           expecting: JobStatus.self)
        let listener = Thread { _ = try? RawHTTP.get(mount, duration: 3) }
        listener.start()
        XCTAssertTrue(eventually(timeout: 5) { value("onair_station_listeners") == 1 }, daemon?.metricsText() ?? "")
        XCTAssertTrue(eventually(timeout: 10) { (value("onair_station_received_bytes_total") ?? 0) > 0 })
        let firstBytes = try XCTUnwrap(value("onair_station_received_bytes_total"))
        Thread.sleep(forTimeInterval: 2)
        let text = try XCTUnwrap(daemon?.metricsText())
        let laterBytes = try XCTUnwrap(Self.value("onair_station_received_bytes_total\(label)", in: text))
        XCTAssertGreaterThan(laterBytes - firstBytes, 16000, "about 16 kB a second arrive at 128 kbit/s")
        XCTAssertEqual(Self.value("onair_station_connected\(label)", in: text), 1, text)
        // The copies' frames are checked without decoding; dead-air watching decodes a window of each second.
        let received = try XCTUnwrap(Self.value("onair_station_received_seconds_total\(label)", in: text))
        let decoded = try XCTUnwrap(Self.value("onair_station_decoded_seconds_total\(label)", in: text))
        XCTAssertGreaterThan(received, 1)
        XCTAssertGreaterThan(decoded, 0.1, "dead-air watching decodes")
        XCTAssertLessThan(decoded, received / 3, "a stream copy is not decoded whole")
        XCTAssertEqual(Self.value("onair_jobs{kind=\"record\"}", in: text), 1, text)
        XCTAssertEqual(Self.value("onair_jobs{kind=\"relay\"}", in: text), 1, text)
        XCTAssertLessThan(Self.value("onair_station_since_title_seconds\(label)", in: text) ?? 99, 10, "the title came at the start")
        XCTAssertEqual(Self.value("onair_stations_open", in: text), 1)
        if shared == nil { XCTAssertEqual(Self.value("onair_leases_held", in: text), 0, "one daemon alone holds no leases") }
        XCTAssertGreaterThan(Self.value("onair_disk_free_bytes", in: text) ?? 0, 0)
        XCTAssertTrue(text.contains("# TYPE onair_station_received_bytes_total counter"), text)
        XCTAssertFalse(text.contains("secret"), "the station's password never shows")

        // The stream ends after 6 s; the reconnection's pause is a gap, counted.
        XCTAssertTrue(eventually(timeout: 20) { (value("onair_station_gaps_total") ?? 0) >= 1 },
                      "a gap; log: \(logged.current.map(\.event))")
        XCTAssertGreaterThanOrEqual(value("onair_station_reconnects_total") ?? 0, 1)
        XCTAssertGreaterThan(value("onair_station_gap_seconds_total") ?? 0, 0)
        // The log tells where the gap began: when the last audio before it arrived, after the stream's first bytes.
        XCTAssertTrue(eventually(timeout: 5) { self.logged.current.contains { $0.event == .streamGap } })
        let gap = try XCTUnwrap(logged.current.first { $0.event == .streamGap })
        let gapStart = try XCTUnwrap(gap.at, "a gap's event says when it began")
        XCTAssertGreaterThan(gapStart, started.addingTimeInterval(3), "after the stream's six seconds had begun")
        XCTAssertLessThan(gapStart, Date().addingTimeInterval(-Double(gap.message?.split(separator: " ").first ?? "0")! + 0.5),
                          "before its length was over: \(gap)")
        XCTAssertTrue(eventually(timeout: 20) { Self.value("onair_episodes_total{outcome=\"done\"}", in: self.daemon?.metricsText() ?? "") == 1 },
                      "the episode counts as done; log: \(logged.current.map(\.event))")
    }

    func testLeasesHeldIsTheStationRecordedOnASharedPostgreSQLDatabase() throws {
        let server: PostgresHarness
        do {
            server = try PostgresHarness.shared.get()
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
        try server.reset()
        let location = try PostgresLocation(url: server.url)
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 30))
        let station = try FixtureHTTPServer(routes: [
            "/station.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio, schedule: [.title("Tone FM")]), bytesPerSecond: 16000),
        ])
        defer { station.stop() }
        // A six-second episode of the station, due three seconds from now, in the shared schedule.
        let start = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date().addingTimeInterval(3))
        _ = try PostgresScheduleStore(database: try SharedDatabase(location: location)).add(ScheduleRule(
            station: "http://127.0.0.1:\(station.port)/station.mp3",
            timing: .once(LocalDateTime(year: start.year!, month: start.month!, day: start.day!, hour: start.hour!, minute: start.minute!,
                                        second: start.second!), duration: TimeSpan(seconds: 6)),
            timeZone: "UTC"))
        try startDaemon(webhook: nil, recording: nil, sharing: location)
        let held = { Self.value("onair_leases_held", in: self.daemon?.metricsText() ?? "") }
        XCTAssertTrue(eventually(timeout: 10) { (held() ?? 0) >= 1 }, "the station's lease, while it records; log: \(logged.current.map(\.event))")
        XCTAssertTrue(eventually(timeout: 20) { self.logged.current.contains { $0.event == .episodeDone } },
                      "log: \(logged.current.map(\.event))")
        XCTAssertEqual(held(), 0, "given up with the episode")
    }
}

/// The metrics' labels, on the metrics alone (no daemon).
final class MetricsLabelTests: XCTestCase {
    /// Issue 28: every stream URL a job named kept a series of its own, so a client naming URLs grew the
    /// metrics without end; and a label carried the name's control characters.
    func testMetricsKeepABoundedSetOfStationsAndTheRestShareOther() {
        let metrics = OnairMetrics(rules: .standard)
        for number in 0..<1000 { _ = metrics.meter(for: "http://203.0.113.1/\(number).mp3") }
        _ = metrics.meter(for: "demo\u{1B}[31m")
        let text = metrics.exposition(OnairMetrics.DaemonFigures())
        let stations = Set(text.split(separator: "\n").filter { $0.hasPrefix("onair_station_connected{") }.map { $0.split(separator: "\"")[1] })
        XCTAssertEqual(stations.count, 256, "a bounded set of series, whatever the network names")
        XCTAssertTrue(stations.contains("other"))
        XCTAssertFalse(text.contains("\u{1B}"), "no control character reaches a label")
    }
}
