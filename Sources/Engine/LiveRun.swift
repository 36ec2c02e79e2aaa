import Foundation
import Library
import Media
import Monitoring
import MPRIS
import Outputs
import Playback
import RadioModel
import StreamInput

/// One station played into sinks on a connection of its own until it ends or is stopped: `onair
/// listen` and `onair relay`, with or without the player's live view. Opening connects nothing yet
/// but opens every sink, so a bad one fails at once.
public final class LiveRun: Sendable {
    /// The player around the station: the listener's controls (volume, pause with time-shift), which the
    /// desktop's media keys reach through MPRIS; on a terminal, the view and keys too.
    public struct Player: Sendable {
        public let controls: PlayerControls
        /// The view and keys; nil when not on a terminal (events are then reported as lines).
        public let terminal: TerminalSession?
        public let store: PlayerStore?
        /// How much a paused live station keeps (time-shift) before playing on from where it paused.
        public var timeShiftSeconds = 120.0
        /// `--normalize`: the loudness the station is levelled to, in LUFS.
        public var normalizeTarget: Double?
        /// Whether the desktop's media keys reach it (MPRIS): not a relay's, whose player only levels the loudness.
        public var onDesktop = true

        public init(controls: PlayerControls, terminal: TerminalSession?, store: PlayerStore?) {
            self.controls = controls; self.terminal = terminal; self.store = store
        }
    }

    public let connection: StationConnection
    private let target: StreamTarget
    private let player: Player?
    private let nowPlaying: NowPlaying?
    private let stage: PlayerStage?
    private let recording: LiveRecordingSwitch?
    private let paced: [PacedPCMSink]

    /// - Parameters:
    ///   - player: the listener's controls and, on a terminal, the view; nil plays straight into the sinks (relay).
    ///   - report: hears the station's events, unless the view shows them.
    ///   - onSinkStatus: a sink's peer reached, lost or waited for, unless the view shows it.
    public init(target: StreamTarget, options: LiveStreamOptions, format: PCMFormat, alerts: AlertRules = .standard, sinks: [SinkSpec],
                pacing: PacedPCMSink.Options, metaFIFO: String?, duration: Double?, player: Player?, paths: AppPaths,
                report: EventConsumer, onSinkStatus: @escaping SinkStatusHandler) throws {
        self.target = target
        self.player = player
        connection = try StationConnection(target: target, options: options, format: format, stopAfter: duration,
                                           endsWhenConsumersFail: true, alerts: alerts)
        let nowPlaying = player.map { _ in NowPlaying(station: target.displayName, programmeOnAir: { target.programmeOnAir() }) }
        self.nowPlaying = nowPlaying
        let view = player?.terminal == nil ? nil : nowPlaying
        var settings = SinkSettings()
        settings.pacing = pacing
        settings.streamName = target.displayName
        settings.onStatus = { label, status in
            guard let view else { return onSinkStatus(label, status) }
            view.setNotice(SinkStatusReport(sink: label, status: status).line)
        }
        settings.deviceVolume = player?.controls.deviceVolume
        var consumers = try connection.openSinks(sinks, metaFIFO: metaFIFO, settings: settings)
        if view == nil { connection.attach(report) }
        if let nowPlaying { connection.attach(EventTap(label: "now playing") { nowPlaying.observe($0) }) }
        paced = consumers.compactMap { $0 as? PacedPCMSink }
        stage = player.map { player in
            PlayerStage(format: format, controls: player.controls, sinks: consumers.compactMap { $0 as? PCMConsumer },
                        timeShiftSeconds: player.timeShiftSeconds,
                        normalizer: player.normalizeTarget.map { LoudnessNormalizer(format: format, target: $0) })
        }
        if let stage { consumers = consumers.filter { !($0 is PCMConsumer) } + [stage] }
        recording = view.map { LiveRecordingSwitch(target: target, nowPlaying: $0, paths: paths) }
        if let recording { consumers += [recording, recording.recent] }
        consumers.forEach { connection.attach($0) }
    }

    /// Plays until the station ends, the duration is reached, `stop()`, the view's `q`/`n`/`p`, or the
    /// desktop's stop/next/previous.
    public func play() throws -> LivePlayer.Ending {
        let pipeline = connection.pipeline
        let started = Date()
        connection.start()
        var ending = LivePlayer.Ending.finished
        let hasFavourites = !((try? player?.store?.favourites()) ?? []).isEmpty
        let switchRequested = Locked<LivePlayer.Ending?>(nil)
        var switchFavourite: (@Sendable (Int) -> Void)?
        if hasFavourites {
            switchFavourite = { step in
                switchRequested.withLock { $0 = LivePlayer.Ending.switchFavourite(step) }
                pipeline.stop()
            }
        }
        var desktop: MPRISPlayer?
        if let player, player.onDesktop, let nowPlaying, let stage {
            desktop = DesktopPlayer.live(nowPlaying: nowPlaying, controls: player.controls, stage: stage, elapsed: { pipeline.mediaTime },
                                         stop: { pipeline.stop() }, switchFavourite: switchFavourite)
        }
        if let player, let terminal = player.terminal, let nowPlaying, let stage, let recording {
            let livePlayer = LivePlayer(nowPlaying: nowPlaying, controls: player.controls, stage: stage, hasFavourites: hasFavourites)
            let paced = self.paced
            ending = livePlayer.run(on: terminal, hooks: LivePlayer.Hooks(
                elapsed: { pipeline.mediaTime }, stop: { pipeline.stop() },
                waitUntilFinished: { pipeline.waitUntilFinished(timeout: $0) },
                toggleRecording: recording.toggle, buffered: { paced.map(\.bufferedSeconds).min() }))
        }
        connection.waitUntilFinished()
        desktop?.stop()
        ending = switchRequested.current ?? ending
        recording?.waitUntilSaved()
        // A database problem costs the history entry, not the listen.
        try? player?.store?.addHistory(kind: "station", item: target.identifier, name: target.displayName, started: started,
                                     seconds: pipeline.mediaTime)
        if let message = connection.streamFailure { throw EngineError(message, kind: .stream) }
        if let (label, reason) = connection.consumerFailure { throw EngineError("\(label) failed: \(reason)", kind: .sink) }
        return ending
    }

    public func stop() { connection.stop() }
}
