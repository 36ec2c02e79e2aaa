import Foundation
import RadioModel

/// The live player's key loop and view on a terminal: one station playing through a `PlayerStage`,
/// the listener's keys acted on, the view redrawn four times a second, the sleep timer watched.
public final class LivePlayer {
    /// Why the player ended.
    public enum Ending: Equatable, Sendable {
        /// The stream ended (or the sleep timer stopped it).
        case finished
        case quit
        /// `n`/`p`: play the favourite this many places on (+1) or back (-1).
        case switchFavourite(Int)
    }

    /// What the player drives from the outside: the running pipeline and the recorder.
    public struct Hooks {
        /// Seconds of audio played since the start.
        public var elapsed: () -> Double
        /// Stops the station (the stream ends, sinks finish).
        public var stop: () -> Void
        /// Waits up to the given seconds for the station to have ended; true once it has.
        public var waitUntilFinished: (Double) -> Bool
        /// Starts recording (returning a label for the view) or stops it (returning nil).
        public var toggleRecording: () -> String?
        /// Seconds of audio buffered ahead of the speaker (nil when no sink buffers).
        public var buffered: () -> Double?

        public init(elapsed: @escaping () -> Double, stop: @escaping () -> Void, waitUntilFinished: @escaping (Double) -> Bool,
                    toggleRecording: @escaping () -> String?, buffered: @escaping () -> Double?) {
            self.elapsed = elapsed
            self.stop = stop
            self.waitUntilFinished = waitUntilFinished
            self.toggleRecording = toggleRecording
            self.buffered = buffered
        }
    }

    private let nowPlaying: NowPlaying
    private let controls: PlayerControls
    private let stage: PlayerStage
    /// Whether `n`/`p` have favourites to go to.
    private let hasFavourites: Bool

    public init(nowPlaying: NowPlaying, controls: PlayerControls, stage: PlayerStage, hasFavourites: Bool) {
        self.nowPlaying = nowPlaying
        self.controls = controls
        self.stage = stage
        self.hasFavourites = hasFavourites
    }

    /// Runs until the station ends or the listener quits or switches station.
    public func run(on terminal: TerminalSession, hooks: Hooks) -> Ending {
        var ending = Ending.finished
        KeyLoop.run(on: terminal, controls: controls, lines: { lines(elapsed: hooks.elapsed(), buffered: hooks.buffered()) },
                    hasFinished: { hooks.waitUntilFinished(0) },
                    handle: { action in
                        switch action {
                        case .quit: ending = .quit
                        case .nextFavourite where hasFavourites: ending = .switchFavourite(1)
                        case .previousFavourite where hasFavourites: ending = .switchFavourite(-1)
                        case .nextFavourite, .previousFavourite:
                            nowPlaying.setNotice("no favourites yet: onair favourites add STATION")
                            return false
                        default:
                            handle(action, hooks: hooks)
                            return false
                        }
                        hooks.stop()
                        return true
                    },
                    sleepExpired: {
                        nowPlaying.setNotice("sleep timer: stopped")
                        hooks.stop()
                    })
        return ending
    }

    private func handle(_ action: PlayerAction, hooks: Hooks) {
        switch action {
        case .togglePause: controls.setPaused(!controls.isPaused)
        case .goLive: stage.goLive()
        case .volumeUp: controls.adjustVolume(by: PlayerControls.volumeStep)
        case .volumeDown: controls.adjustVolume(by: -PlayerControls.volumeStep)
        case .toggleMute: controls.toggleMute()
        case .cycleSleepTimer: controls.cycleSleepTimer()
        case .toggleRecording: nowPlaying.setRecording(hooks.toggleRecording())
        default: nowPlaying.setNotice("that key works when playing a recording (onair play)")
        }
    }

    func lines(elapsed: Double, buffered: Double?) -> [String] {
        let now = nowPlaying.snapshot
        let behind = stage.behindLive
        let state = controls.isPaused ? "⏸ paused" : (behind >= 0.5 ? "▶ \(ClockText.of(behind)) behind live" : "▶ live")
        var status = [state, ClockText.of(elapsed)]
        if let codec = now.codec { status.append(codec) }
        if let buffered { status.append(String(format: "buffer %.1f s", buffered)) }
        status.append("reconnects \(now.reconnects)")
        status.append(now.gaps == 0 ? "gaps 0" : String(format: "gaps %d (%.1f s)", now.gaps, now.gapSeconds))
        var settings = [controls.isMuted ? "muted" : "volume \(Int((controls.volume * 100).rounded()))%"]
        if let sleep = controls.sleepTimer.label() { settings.append(sleep) }
        if let recording = now.recording { settings.append("● \(recording)") }
        var lines = [
            "\(now.station)" + (now.programme.map { " · \($0)" } ?? ""),
            "♪ " + (now.title ?? "(no title yet)"),
            status.joined(separator: " · "),
            settings.joined(separator: " · "),
        ]
        if let notice = now.notice { lines.append(notice) }
        lines.append("space pause  l live  +/- volume  m mute  r record  s sleep  n/p favourites  q quit")
        return lines
    }
}
