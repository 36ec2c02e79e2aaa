import ArgumentParser
import Engine
import Foundation
import Media
import Recording
import Scheduling
import Store
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Record the scheduled episodes, as they come due, until stopped.",
        discussion: """
        Runs every due episode of `onair schedule`'s rules, concurrently, and the jobs `onair jobs start` \
        hands it (relays and recordings, kept across restarts with --persist); all the episodes and jobs of \
        one station share its one connection. Each episode is cut at its window's wall-clock boundaries — \
        with HLS, by the stream's own program-date-time, to the audio frame; a late start of an HLS \
        programme is back-filled from the playlist's window. Rules changed with `onair schedule` (or a \
        SIGHUP) are picked up at once; a wall-clock jump (NTP, suspend) starts a due episode at once.

        On start it finishes partial files left by a crash, records the rest of any episode whose window \
        is still open (marked late) and notes the episodes missed while it was not running. `onair status` \
        asks it what it is doing, over a Unix socket in the data directory. Ctrl-C or SIGTERM finishes \
        every file properly. scripts/onair-daemon.service runs it as a systemd user service.

        Examples:
          onair daemon
          onair daemon --json

        Exit codes: 0 stopped; 3 another daemon is running, or the database cannot be opened.
        """
    )

    @Flag(help: "Log events as JSON lines: episode-started, episode-done, episode-failed, episode-missed, recovered, clock-jumped, …")
    var json = false

    @Option(help: "Seconds before a window opens that its station is connected.")
    var preroll: Double = 3

    @Flag(help: "Show FFmpeg's own warnings.")
    var verbose = false

    func run() throws {
        try reportingFailures(runDaemon)
    }

    private func runDaemon() throws {
        FFmpegLogging.configure(verbose: verbose)
        let paths = CatalogueAccess.paths
        func configuration(_ error: Error) -> CommandFailure { CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration) }
        let lock = try DaemonLock(directory: paths.data)
        let store: ScheduleStore, index: RecordingsIndex, jobStore: JobStore
        do {
            let database = try OnairDatabase(directory: paths.data)
            store = try ScheduleStore(database: database)
            index = try RecordingsIndex(database: database)
            jobStore = try JobStore(database: database)
        } catch {
            throw configuration(error)
        }
        let finaliser = Finaliser(index: index)
        let json = self.json
        let log: @Sendable (DaemonEvent) -> Void = { event in
            if json { return Console.json(event) }
            var line = "\(event.event)"
            if let episode = event.episode { line += " episode \(episode)" }
            if let station = event.station { line += " (\(station))" }
            if let message = event.message { line += ": \(message)" }
            if let files = event.files, !files.isEmpty { line += " → " + files.joined(separator: ", ") }
            Console.message(line)
        }
        let stations = Stations { station, event in
            switch event {
            case .failed(let message): log(DaemonEvent(event: "stream-failed", station: station, message: message))
            case .reconnecting(let attempt, let delay):
                log(DaemonEvent(event: "stream-reconnecting", station: station, message: "attempt \(attempt) in \(delay) s"))
            case .gap(let gap): log(DaemonEvent(event: "stream-gap", station: station, message: String(format: "%.1f s", gap.seconds)))
            default: break
            }
        }
        let lookup: @Sendable (String) throws -> StreamTarget = { try StreamTarget.named($0) }
        let recordings = EpisodeRecordings(stations: stations, finaliser: finaliser, paths: paths, lookup: lookup)
        let jobs = RuntimeJobs(stations: stations, store: jobStore, finaliser: finaliser, paths: paths, lookup: lookup)
        var options = ScheduleDaemon.Options()
        options.preroll = preroll
        let daemon = ScheduleDaemon(store: store, index: index, finaliser: finaliser, recordings: paths.recordings, recorder: recordings,
                                    options: options, log: log)
        let control = DaemonControl(daemon: daemon, jobs: jobs)
        let server: ControlServer
        do {
            server = try ControlServer(path: ControlClient(dataDirectory: paths.data).socket, handle: control.answer)
        } catch {
            throw configuration(error)
        }
        for (id, failure) in (try? jobs.restorePersisted()) ?? [] {
            log(DaemonEvent(event: "job-failed", message: "job \(id): \(failure)"))
        }
        let trap = SignalTrap { daemon.stop() }
        signal(SIGHUP, SIG_IGN)
        let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "onair.sighup"))
        hangUp.setEventHandler { daemon.wake() }
        hangUp.resume()
        log(DaemonEvent(event: "daemon-started", message: "pid \(getpid()), socket \(server.path)"))
        defer {
            server.stop()
            hangUp.cancel()
            withExtendedLifetime((trap, lock)) {}
        }
        do {
            try daemon.run()
        } catch {
            jobs.stopAll()
            throw configuration(error)
        }
        jobs.stopAll()
        finaliser.waitUntilIdle()
        log(DaemonEvent(event: "daemon-stopped"))
    }
}

/// One daemon per data directory: an exclusive lock on `daemon.lock`, released when the process ends
/// (however it ends), so a restarted daemon knows the previous one is gone.
private final class DaemonLock {
    private let descriptor: Int32

    init(directory: URL) throws {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("daemon.lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot open \(path): \(String(cString: strerror(errno)))", exitCode: ExitStatus.configuration)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CommandFailure(message: "another onair daemon is running (it holds \(path))", exitCode: ExitStatus.configuration)
        }
    }

    deinit { close(descriptor) }
}
