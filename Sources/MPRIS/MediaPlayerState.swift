import Foundation

/// What the player shows the desktop: MPRIS's Player properties, taken from the player whenever the
/// bus thread looks.
public struct MediaPlayerState: Equatable, Sendable {
    public enum Status: String, Sendable {
        case playing = "Playing", paused = "Paused", stopped = "Stopped"
    }

    public var status: Status
    public var title: String?
    public var artist: String?
    /// The station and programme, or the podcast: what MPRIS clients show as the album.
    public var album: String?
    public var artworkURL: String?
    /// Seconds; nil for a live station.
    public var length: Double?
    /// Seconds into what plays; on a live station, seconds played.
    public var position: Double
    /// 0 is silent, 1 full scale (onair's volume goes to 1.5).
    public var volume: Double
    public var rate: Double
    public var canGoNext: Bool
    public var canGoPrevious: Bool
    public var canSeek: Bool

    public init(status: Status, title: String? = nil, artist: String? = nil, album: String? = nil, artworkURL: String? = nil,
                length: Double? = nil, position: Double = 0, volume: Double = 1, rate: Double = 1,
                canGoNext: Bool = false, canGoPrevious: Bool = false, canSeek: Bool = false) {
        self.status = status
        self.title = title
        self.artist = artist
        self.album = album
        self.artworkURL = artworkURL
        self.length = length
        self.position = position
        self.volume = volume
        self.rate = rate
        self.canGoNext = canGoNext
        self.canGoPrevious = canGoPrevious
        self.canSeek = canSeek
    }

    /// What makes the Metadata property.
    var metadata: MetadataKey { MetadataKey(title: title, artist: artist, album: album, artworkURL: artworkURL, length: length) }

    /// Which Player properties differ from `earlier` (the position is read, never signalled).
    func changedProperties(since earlier: MediaPlayerState) -> [String] {
        var names: [String] = []
        if status != earlier.status { names.append("PlaybackStatus") }
        if metadata != earlier.metadata { names.append("Metadata") }
        if volume != earlier.volume { names.append("Volume") }
        if rate != earlier.rate { names += ["Rate", "MinimumRate", "MaximumRate"] }
        if canGoNext != earlier.canGoNext { names.append("CanGoNext") }
        if canGoPrevious != earlier.canGoPrevious { names.append("CanGoPrevious") }
        if canSeek != earlier.canSeek { names.append("CanSeek") }
        return names
    }
}

/// The parts of the state that make one track: a change is a new track id.
struct MetadataKey: Equatable {
    var title: String?
    var artist: String?
    var album: String?
    var artworkURL: String?
    var length: Double?
}

/// What the desktop asks of the player.
public enum MediaPlayerCommand: Equatable, Sendable {
    case play, pause, playPause, stop, next, previous
    /// Relative, in seconds.
    case seek(by: Double)
    /// Absolute, in seconds.
    case setPosition(Double)
    case setVolume(Double)
    /// org.mpris.MediaPlayer2.Quit: onair ends as on `q`.
    case quit
}
