import Engine
import Foundation
import Media
import Outputs
import Playback
import RadioModel
import StreamInput

/// Plays one station into a command's sinks until it ends or is stopped (Ctrl-C, SIGTERM): what
/// `listen` and `relay` share. The engine's `StationConnection` feeds every sink; the report (lines,
/// JSON or the player's view) is one more consumer of the station's events.
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
        let target = try StreamTarget.named(station.station)
        let reporter = EventReporter(json: station.json, audioOnStandardOutput: sinks.contains(.stdout))
        let nowPlaying = view.map { _ in NowPlaying(station: target.displayName, programmeOnAir: { target.programmeOnAir() }) }
        let connection = try StationConnection(target: target, options: station.liveStreamOptions(for: target), format: station.format,
                                               stopAfter: duration, endsWhenConsumersFail: true)
        var settings = SinkFactory.Settings()
        settings.pacing = pacing
        settings.streamName = target.displayName
        settings.onStatus = { label, status in
            if let nowPlaying { nowPlaying.setNotice(EventReporter.line(sink: label, status)) } else { reporter.report(sink: label, status) }
        }
        settings.deviceVolume = view?.controls.deviceVolume
        var consumers = try connection.openSinks(sinks, metaFIFO: metaFIFO, settings: settings)
        connection.attach(EventTap(label: "report") { event in
            if let nowPlaying { nowPlaying.observe(event) } else { reporter.report(event) }
        })
        let paced = consumers.compactMap { $0 as? PacedPCMSink }
        let stage = view.map { view in
            PlayerStage(format: station.format, controls: view.controls, sinks: consumers.compactMap { $0 as? PCMConsumer },
                        timeShiftSeconds: view.timeShiftSeconds)
        }
        if let stage { consumers = consumers.filter { !($0 is PCMConsumer) } + [stage] }
        let recording = nowPlaying.map { LiveRecordingSwitch(target: target, nowPlaying: $0, paths: CatalogueAccess.paths) }
        if let recording { consumers += [recording, recording.recent] }
        consumers.forEach { connection.attach($0) }
        let pipeline = connection.pipeline
        let terminal = view?.terminal
        let trap = SignalTrap(beforeExit: { terminal?.restore() }) { pipeline.stop() }
        let started = Date()
        connection.start()
        var ending = LivePlayer.Ending.finished
        if let view, let nowPlaying, let stage, let recording {
            let favourites = (try? view.store?.favourites()) ?? []
            let player = LivePlayer(nowPlaying: nowPlaying, controls: view.controls, stage: stage, hasFavourites: !favourites.isEmpty)
            ending = player.run(on: view.terminal, hooks: LivePlayer.Hooks(
                elapsed: { pipeline.mediaTime }, stop: { pipeline.stop() },
                waitUntilFinished: { pipeline.waitUntilFinished(timeout: $0) },
                toggleRecording: recording.toggle, buffered: { paced.map(\.bufferedSeconds).min() }))
        }
        connection.waitUntilFinished()
        recording?.waitUntilSaved()
        withExtendedLifetime(trap) {}
        view?.noteListened(target: target, started: started, seconds: pipeline.mediaTime)
        if let message = connection.streamFailure { throw CommandFailure(message: message, exitCode: ExitStatus.streamFailed) }
        if let (label, reason) = connection.consumerFailure {
            throw CommandFailure(message: "\(label) failed: \(reason)", exitCode: ExitStatus.sinkFailed)
        }
        return ending
    }
}
