import Foundation
import RadioModel

/// One airing as `onair aired` and the API report it: its times in UTC and on the station's own clock.
public struct AiredRow: Encodable, Sendable, Equatable {
    public let clip: String
    public let kind: String
    public let station: String
    public let start: String
    public let end: String
    /// "2026-11-29 12:00:05" in `timeZone`.
    public let stationTime: String
    public let timeZone: String
    public let seconds: Double
    public let offset: Double
    public let partial: Bool
    public let score: Double
    /// `start` and `end` as instants.
    public let startInstant: Date
    public let endInstant: Date

    private enum CodingKeys: String, CodingKey {
        case clip, kind, station, start, end, stationTime, timeZone, seconds, offset, partial, score
    }

    /// `zone` is the station's (the catalogue's); a stream URL has no clock of its own, so UTC.
    public init(_ airing: ClipSighting, zone: TimeZone?) {
        let zone = zone ?? TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        clip = airing.clip
        kind = airing.kind
        station = airing.station
        start = Timestamp.format(airing.start)
        end = Timestamp.format(airing.end)
        stationTime = formatter.string(from: airing.start)
        // Foundation would call UTC "GMT".
        timeZone = zone.identifier == "GMT" ? "UTC" : zone.identifier
        seconds = (airing.end.timeIntervalSince(airing.start) * 10).rounded() / 10
        offset = (airing.offset * 10).rounded() / 10
        partial = airing.partial
        score = (airing.score * 1000).rounded() / 1000
        (startInstant, endInstant) = (airing.start, airing.end)
    }

    /// The airings with the catalogue's clocks, by station and then time.
    public static func rows(_ airings: [ClipSighting], catalogue: Catalogue?) -> [AiredRow] {
        airings.sorted { ($0.station, $0.start) < ($1.station, $1.start) }.map { airing in
            AiredRow(airing, zone: catalogue?.station(id: airing.station).flatMap { TimeZone(identifier: $0.timeZone) })
        }
    }
}
