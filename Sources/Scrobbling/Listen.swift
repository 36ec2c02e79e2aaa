import Foundation
import Media
import RadioModel

/// A song heard, as ListenBrainz takes it: who, what, when it began, and where it was heard (the station).
public struct Listen: Codable, Sendable, Equatable {
    public var artist: String
    public var track: String
    public var listenedAt: Date
    /// The station it aired on, ListenBrainz's `music_service_name`; nil for a recording or an episode played.
    public var service: String?

    public init(artist: String, track: String, listenedAt: Date, service: String?) {
        (self.artist, self.track, self.listenedAt, self.service) = (artist, track, listenedAt, service)
    }

    /// A listen of a title that names a song ("Artist - Title", not a station message): nil for anything else.
    public init?(title: String, details: TitleDetails?, at start: Date, service: String?) {
        if let kind = details?.kind, kind != .song { return nil }
        let parsed = TrackTitle(title)
        guard let artist = parsed.artist, !artist.isEmpty, !parsed.title.isEmpty else { return nil }
        self.init(artist: Self.bounded(artist), track: Self.bounded(parsed.title), listenedAt: start, service: service.map(Self.bounded))
    }

    /// Heard long enough to be a listen, played on demand: to its end, 4 minutes, or half of it (ListenBrainz's rule).
    public static let longEnough = 240.0

    /// A listen of a recording, an episode or a file played on demand (`onair play`), if it was heard long enough and
    /// says whose it is (its station or podcast, else a title "Artist - Title"); from when it began playing.
    public init?(played item: PlayableItem, to position: Double, of duration: Double?, toItsEnd: Bool, startedAt: Date) {
        guard toItsEnd || position >= Self.longEnough || duration.map({ $0 > 0 && position >= $0 / 2 }) == true else { return nil }
        let parsed = TrackTitle(item.title)
        guard let artist = item.artist ?? parsed.artist, !artist.isEmpty else { return nil }
        self.init(artist: Self.bounded(artist), track: Self.bounded(item.artist == nil ? parsed.title : item.title), listenedAt: startedAt, service: nil)
    }

    /// ListenBrainz refuses fields over its limits; a station's title is what the station sent.
    static func bounded(_ text: String) -> String { String(text.prefix(500)) }
}

/// The body of ListenBrainz's `POST /1/submit-listens`.
struct ListenSubmission: Encodable {
    enum Kind: String, Encodable {
        case single, playingNow = "playing_now"
    }

    struct Item: Encodable {
        struct Metadata: Encodable {
            struct Info: Encodable {
                let music_service_name: String?
                let submission_client = "onair"
            }
            let artist_name: String
            let track_name: String
            let additional_info: Info
        }
        let listened_at: Int?
        let track_metadata: Metadata
    }

    let listen_type: Kind
    let payload: [Item]

    init(_ kind: Kind, _ listen: Listen) {
        listen_type = kind
        // A time from a client may be anything: ListenBrainz takes seconds since 1970, and Int() of a time past
        // Int's range would stop the process.
        let given = listen.listenedAt.timeIntervalSince1970
        let seconds = given.isFinite ? min(max(given, 0), 1e12) : 0
        payload = [Item(listened_at: kind == .single ? Int(seconds) : nil,
                        track_metadata: .init(artist_name: listen.artist, track_name: listen.track,
                                              additional_info: .init(music_service_name: listen.service)))]
    }

    var json: Data { (try? JSONEncoder().encode(self)) ?? Data() }
}
