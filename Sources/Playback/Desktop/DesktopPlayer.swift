import MPRIS
import RadioModel

/// The players on the desktop's session bus: what MPRIS shows of a live station or of recordings
/// playing, and what its commands do to them. Nil when there is no session bus.
public enum DesktopPlayer {
    /// A live station: pause is time-shift, as on the space key; next/previous switch favourites when
    /// `switchFavourite` is given; stop and quit end the listen.
    public static func live(nowPlaying: NowPlaying, controls: PlayerControls, stage: PlayerStage, elapsed: @escaping @Sendable () -> Double,
                            stop: @escaping @Sendable () -> Void, switchFavourite: (@Sendable (Int) -> Void)?) -> MPRISPlayer? {
        MPRISPlayer.start(identity: "onair", state: {
            let now = nowPlaying.snapshot
            let split = now.title.map(TrackTitle.init)
            return MediaPlayerState(status: controls.isPaused ? .paused : .playing, title: split?.title ?? now.station,
                                    artist: split?.artist, album: [now.station, now.programme].compactMap { $0 }.joined(separator: " · "),
                                    position: elapsed(), volume: controls.audibleVolume,
                                    canGoNext: switchFavourite != nil, canGoPrevious: switchFavourite != nil)
        }, perform: { command in
            switch command {
            case .play: controls.setPaused(false)
            case .pause: controls.setPaused(true)
            case .playPause: controls.setPaused(!controls.isPaused)
            case .stop, .quit: stop()
            case .next: switchFavourite?(1)
            case .previous: switchFavourite?(-1)
            case .setVolume(let level): controls.setVolume(level)
            case .seek, .setPosition: break  // a live station has no place to go to (l goes back to live)
            }
        })
    }

    /// Recordings and episodes from `onair play`: seek, position and length, the queue.
    public static func onDemand(_ player: OnDemandPlayer, controls: PlayerControls) -> MPRISPlayer? {
        MPRISPlayer.start(identity: "onair", state: {
            let now = player.status
            let status: MediaPlayerState.Status = now.item == nil ? .stopped : controls.isPaused ? .paused : .playing
            return MediaPlayerState(status: status, title: now.item?.title, length: now.duration, position: now.position,
                                    volume: controls.audibleVolume, rate: now.speed, canGoNext: now.place < now.count,
                                    canGoPrevious: now.place > 1, canSeek: now.duration != nil)
        }, perform: { command in
            switch command {
            case .play: controls.setPaused(false)
            case .pause: controls.setPaused(true)
            case .playPause: controls.setPaused(!controls.isPaused)
            case .stop, .quit: player.stop()
            case .next: player.perform(.nextInQueue)
            case .previous: player.perform(.previousInQueue)
            case .seek(let seconds): player.perform(.seek(seconds: seconds))
            case .setPosition(let position): player.perform(.seek(seconds: position - player.status.position))
            case .setVolume(let level): controls.setVolume(level)
            }
        })
    }
}
