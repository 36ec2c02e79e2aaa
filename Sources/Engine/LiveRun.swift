import Foundation
import Media
import Monitoring
import Outputs
import Playback
import RadioModel
import StreamInput

/// One station played into sinks on a connection of its own until it ends or is stopped: `onair
/// listen` and `onair relay`, with or without the player's live view. Opening connects nothing yet
/// but opens every sink, so a bad one fails at once.
public final class LiveRun: Sendable {
    /// The player's view and keys on a terminal.
    public struct View: Sendable {
        public let controls: PlayerControls
        public let terminal: TerminalSession
        public let store: PlayerStore?
        /// How much a paused live station keeps (time-shift) before playing on from where it paused.
        public var timeShiftSeconds = 120.0

        public init(controls: PlayerControls, terminal: TerminalSession, store: PlayerStore?) {
            self.controls = controls; self.terminal = terminal; self.store = store
        }
    }

    public let connection: StationConnection
    private let target: StreamTarget
    private let view: View?
    private let nowPlaying: NowPlaying?
    private let stage: PlayerStage?
    private let recording: LiveRecordingSwitch?
    private let paced: [PacedPCMSink]

    /// - Parameters:
    ///   - report: hears the station's events, unless the view shows them.
    ///   - onSinkStatus: a sink's peer reached, lost or waited for, unless the view shows it.
    public init(target: StreamTarget, options: LiveStreamOptions, format: PCMFormat, alerts: AlertRules = .standard, sinks: [SinkSpec],
                pacing: PacedPCMSink.Options, metaFIFO: String?, duration: Double?, view: View?, paths: AppPaths,
                report: EventConsumer, onSinkStatus: @escaping SinkStatusHandler) throws {
        self.target = target
        self.view = view
        connection = try StationConnection(target: target, options: options, format: format, stopAfter: duration,
                                           endsWhenConsumersFail: true, alerts: alerts)
        let nowPlaying = view.map { _ in NowPlaying(station: target.displayName, programmeOnAir: { target.programmeOnAir() }) }
        self.nowPlaying = nowPlaying
        var settings = SinkFactory.Settings()
        settings.pacing = pacing
        settings.streamName = target.displayName
        settings.onStatus = { label, status in
            guard let nowPlaying else { return onSinkStatus(label, status) }
            nowPlaying.setNotice(SinkStatusReport(sink: label, status: status).line)
        }
        settings.deviceVolume = view?.controls.deviceVolume
        var consumers = try connection.openSinks(sinks, metaFIFO: metaFIFO, settings: settings)
        connection.attach(nowPlaying.map { nowPlaying in EventTap(label: "view") { nowPlaying.observe($0) } } ?? report)
        paced = consumers.compactMap { $0 as? PacedPCMSink }
        stage = view.map { view in
            PlayerStage(format: format, controls: view.controls, sinks: consumers.compactMap { $0 as? PCMConsumer },
                        timeShiftSeconds: view.timeShiftSeconds)
        }
        if let stage { consumers = consumers.filter { !($0 is PCMConsumer) } + [stage] }
        recording = nowPlaying.map { LiveRecordingSwitch(target: target, nowPlaying: $0, paths: paths) }
        if let recording { consumers += [recording, recording.recent] }
        consumers.forEach { connection.attach($0) }
    }

    /// Plays until the station ends, the duration is reached, `stop()`, or the view's `q`/`n`/`p`.
    public func play() throws -> LivePlayer.Ending {
        let pipeline = connection.pipeline
        let started = Date()
        connection.start()
        var ending = LivePlayer.Ending.finished
        if let view, let nowPlaying, let stage, let recording {
            let favourites = (try? view.store?.favourites()) ?? []
            let player = LivePlayer(nowPlaying: nowPlaying, controls: view.controls, stage: stage, hasFavourites: !favourites.isEmpty)
            let paced = self.paced
            ending = player.run(on: view.terminal, hooks: LivePlayer.Hooks(
                elapsed: { pipeline.mediaTime }, stop: { pipeline.stop() },
                waitUntilFinished: { pipeline.waitUntilFinished(timeout: $0) },
                toggleRecording: recording.toggle, buffered: { paced.map(\.bufferedSeconds).min() }))
        }
        connection.waitUntilFinished()
        recording?.waitUntilSaved()
        // A database problem costs the history entry, not the listen.
        try? view?.store?.addHistory(kind: "station", item: target.identifier, name: target.displayName, started: started,
                                     seconds: pipeline.mediaTime)
        if let message = connection.streamFailure { throw EngineError(message, kind: .stream) }
        if let (label, reason) = connection.consumerFailure { throw EngineError("\(label) failed: \(reason)", kind: .sink) }
        return ending
    }

    public func stop() { connection.stop() }
}
