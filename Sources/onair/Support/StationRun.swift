import Foundation
import Media
import Outputs
import Playback
import RadioModel
import StreamInput

/// Plays one station into a command's sinks until it ends or is stopped (Ctrl-C, SIGTERM): the wiring
/// `listen` and `relay` share. One upstream connection, decoded once, fanned out to every sink.
struct StationRun {
    var station: StationOptions
    var sinks: [SinkSpec]
    var pacing = PacedPCMSink.Options()
    var metaFIFO: String?
    /// Stop after this many seconds of audio; nil plays until stopped.
    var duration: Double?
    /// The player's view and keys on a terminal; without, events are reported as lines.
    var view: LiveViewSettings?

    @discardableResult
    func run() throws -> LivePlayer.Ending {
        FFmpegLogging.configure(verbose: station.verbose)
        let target = try StreamTarget.parse(station.station)
        let reporter = EventReporter(json: station.json, audioOnStandardOutput: sinks.contains(.stdout))
        let outcome = StreamOutcome()
        let nowPlaying = view.map { _ in NowPlaying(station: target.displayName, programmeOnAir: { target.programmeOnAir() }) }
        let recording = nowPlaying.map { LiveRecordingSwitch(target: target, nowPlaying: $0) }
        let onEvent: @Sendable (StreamEvent) -> Void = { event in
            if let nowPlaying { nowPlaying.observe(event) } else { reporter.report(event) }
            recording?.handle(event)
            outcome.record(event)
        }
        var consumers = try makeConsumers(streamName: target.displayName, reporter: reporter, onEvent: onEvent,
                                          nowPlaying: nowPlaying)
        let paced = consumers.compactMap { $0 as? PacedPCMSink }
        let stage = view.map { view in
            PlayerStage(format: station.format, controls: view.controls, sinks: consumers.compactMap { $0 as? PCMConsumer },
                        timeShiftSeconds: view.timeShiftSeconds)
        }
        if let stage { consumers = consumers.filter { !($0 is PCMConsumer) } + [stage] }
        if let recording { consumers.append(recording.recent) }
        let source: IngestSource
        do {
            source = try target.liveSource(options: station.liveStreamOptions(for: target), onEvent: onEvent)
        } catch {
            consumers.forEach { $0.finish() }
            throw error
        }
        let pipeline = LivePipeline(source: source, format: station.format, stopAfter: duration,
                                    endsWhenConsumersFail: true, onEvent: onEvent)
        consumers.forEach { pipeline.fanOut.attach($0) }
        let terminal = view?.terminal
        let trap = SignalTrap(beforeExit: { terminal?.restore() }) { pipeline.stop() }
        let started = Date()
        pipeline.start()
        var ending = LivePlayer.Ending.finished
        if let view, let nowPlaying, let stage, let recording {
            let favourites = (try? view.store?.favourites()) ?? []
            let player = LivePlayer(nowPlaying: nowPlaying, controls: view.controls, stage: stage, hasFavourites: !favourites.isEmpty)
            ending = player.run(on: view.terminal, hooks: LivePlayer.Hooks(
                elapsed: { pipeline.mediaTime }, stop: { pipeline.stop() },
                waitUntilFinished: { pipeline.waitUntilFinished(timeout: $0) },
                toggleRecording: recording.toggle, buffered: { paced.map(\.bufferedSeconds).min() }))
        }
        pipeline.waitUntilFinished()
        recording?.waitUntilSaved()
        withExtendedLifetime(trap) {}
        view?.noteListened(target: target, started: started, seconds: pipeline.mediaTime)
        if let failure = outcome.failure { throw failure }
        return ending
    }

    /// Opens every sink before the stream starts, so a bad one fails the command at once; those
    /// already opened are closed again.
    private func makeConsumers(streamName: String, reporter: EventReporter, onEvent: @escaping @Sendable (StreamEvent) -> Void,
                               nowPlaying: NowPlaying?) throws -> [StreamConsumer] {
        var settings = SinkFactory.Settings()
        settings.pacing = pacing
        settings.streamName = streamName
        settings.onStatus = { label, status in
            if let nowPlaying { nowPlaying.setNotice(EventReporter.line(sink: label, status)) } else { reporter.report(sink: label, status) }
        }
        settings.onEvent = onEvent
        settings.deviceVolume = view?.controls.deviceVolume
        var consumers: [StreamConsumer] = []
        do {
            for spec in sinks {
                consumers.append(try SinkFactory.make(spec, format: station.format, settings: settings))
            }
            if let metaFIFO { consumers.append(try TitleFIFO(path: metaFIFO)) }
        } catch {
            consumers.forEach { $0.finish() }
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.sinkFailed)
        }
        return consumers
    }
}

extension StreamTarget {
    /// How the station shows in a sound server's mixer.
    var displayName: String {
        switch self {
        case .station(let station): return station.name
        case .url(let url): return url
        }
    }

    /// The catalogue programme on air now, by the station's schedule.
    func programmeOnAir(at date: Date = Date()) -> String? {
        guard case .station(let station) = self else { return nil }
        let zone = TimeZone(identifier: station.timeZone) ?? .current
        return station.programmes.first { $0.broadcast(containing: date, timeZone: zone) != nil }?.name
    }

    /// The catalogue id, or the URL.
    var identifier: String {
        switch self {
        case .station(let station): return station.id
        case .url(let url): return url
        }
    }
}

/// What ended a run, decided from its events.
private final class StreamOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: CommandFailure?

    func record(_ event: StreamEvent) {
        lock.withLock {
            switch event {
            case .failed(let message): stored = stored ?? CommandFailure(message: message, exitCode: ExitStatus.streamFailed)
            case .consumerFailed(let label, let reason):
                stored = stored ?? CommandFailure(message: "\(label) failed: \(reason)", exitCode: ExitStatus.sinkFailed)
            default: break
            }
        }
    }

    var failure: CommandFailure? { lock.withLock { stored } }
}
