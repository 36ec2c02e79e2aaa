import Foundation
import Media
import RadioModel

/// A station's songs as listens: a song title (one that names a song: "Artist - Title", not a station message) that
/// stays on air for at least 30 s of the station's audio is a listen, from when it began, sent when the next title
/// comes; each song title is sent as playing now when it begins. The title on air when the stream ends is not a listen
/// (how long it was heard is not known).
public final class TitleScrobbler: TitleConsumer, @unchecked Sendable {  // `onAir` inside its lock
    /// Seconds of audio a song must be heard to be a listen.
    public static let shortestListen = 30.0

    public let label: String
    private let service: String?
    private let scrobbler: Scrobbler
    private let onAir = Locked<(title: String, listen: Listen?, at: Double)?>(nil)

    /// - Parameter service: the station, as the listens name it (`music_service_name`).
    public init(service: String?, scrobbler: Scrobbler) {
        label = "scrobble:\(service ?? "")"
        self.service = service
        self.scrobbler = scrobbler
    }

    public func titleChanged(_ change: TitleChange) throws {
        let at = change.mediaTime ?? change.receivedAt.timeIntervalSince1970
        let listen = Listen(title: change.title, details: change.details, at: change.programDateTime ?? change.receivedAt, service: service)
        let ended = onAir.withLock { onAir -> (title: String, listen: Listen?, at: Double)?? in
            // The same title sent again (stations repeat theirs) goes on.
            guard onAir?.title != change.title else { return nil }
            defer { onAir = (change.title, listen, at) }
            return .some(onAir)
        }
        guard let ended else { return }
        if let ended, let heard = ended.listen, at - ended.at >= Self.shortestListen { scrobbler.heard(heard) }
        if let listen { scrobbler.playingNow(listen) }
    }

    public func finish() {}
}
