import Engine
import Foundation
import Media
import Outputs
import Playback
import Scrobbling

/// Plays one station into a command's sinks until it ends or is stopped (Ctrl-C, SIGTERM): what
/// `listen` and `relay` share. The engine's `LiveRun` does the work; this reports it.
struct StationRun {
    var station: StationOptions
    var sinks: [SinkSpec]
    var pacing = PacedPCMSink.Options()
    var metaFIFO: String?
    /// Stop after this many seconds of audio; nil plays until stopped.
    var duration: Double?
    /// The listener's controls and, on a terminal, the view and keys; without a view, events are reported as lines.
    var player: LiveRun.Player?
    /// Sends the songs heard as listens (`onair scrobble`); nil sends nothing.
    var scrobbler: Scrobbler?

    @discardableResult
    func run() throws -> LivePlayer.Ending {
        FFmpegLogging.configure(verbose: station.verbose)
        let target = try StreamTarget.named(station.station)
        let reporter = EventReporter(json: station.json, audioOnStandardOutput: sinks.contains(.stdout))
        let run = try LiveRun(target: target, options: station.liveStreamOptions(for: target), format: station.format, alerts: station.alerts.rules,
                              sinks: sinks, pacing: pacing, metaFIFO: metaFIFO, duration: duration, player: player, paths: CatalogueAccess.paths,
                              report: reporter, onSinkStatus: reporter.report(sink:_:))
        let terminal = player?.terminal
        let trap = SignalTrap(beforeExit: { terminal?.restore() }) { run.stop() }
        defer { withExtendedLifetime(trap) {} }
        if let scrobbler { run.connection.attach(TitleScrobbler(service: target.label.name, scrobbler: scrobbler)) }
        defer { scrobbler?.waitUntilTried() }
        return try run.play()
    }
}
