import Foundation
import GRDB

/// A recording as a list shows it: the index's columns without its titles and gaps, only how many gaps
/// there are. Reading each row's titles and gaps (JSON) was most of a list's time (`perf`, BENCHMARKS.md).
public struct RecordingListing: Equatable, Sendable, FetchableRecord {
    public var id: Int64
    public var station: String
    public var stationName: String
    public var programme: String?
    public var programmeName: String?
    public var episodeTitle: String?
    public var startUTC: Date
    public var endUTC: Date
    public var duration: Double
    public var size: Int64
    public var codec: String
    public var container: String
    public var gapCount: Int
    /// Marked to keep: retention never deletes it.
    public var kept: Bool

    public init(id: Int64, station: String, stationName: String, programme: String?, programmeName: String?, episodeTitle: String?,
                startUTC: Date, endUTC: Date, duration: Double, size: Int64, codec: String, container: String, gapCount: Int, kept: Bool) {
        (self.id, self.station, self.stationName, self.programme, self.programmeName, self.episodeTitle) =
            (id, station, stationName, programme, programmeName, episodeTitle)
        (self.startUTC, self.endUTC, self.duration, self.size, self.codec, self.container, self.gapCount, self.kept) =
            (startUTC, endUTC, duration, size, codec, container, gapCount, kept)
    }

    /// A row of `selection`, read by position: decoding it by column names (Decodable) looked up every name
    /// of every row in a dictionary and cast every value through an existential (perf, BENCHMARKS.md).
    public init(row: Row) {
        (id, station, stationName, programme, programmeName, episodeTitle) = (row[0], row[1], row[2], row[3], row[4], row[5])
        (startUTC, endUTC, duration, size, codec, container, gapCount, kept) = (row[6], row[7], row[8], row[9], row[10], row[11], row[12], row[13])
    }

    /// The index columns a listing reads, in SQLite, in the order `init(row:)` reads them: the gaps' JSON is
    /// counted by the database.
    static var selection: [any SQLSelectable] { [
        Column("id"), Column("station"), Column("stationName"), Column("programme"), Column("programmeName"),
        Column("episodeTitle"), Column("startUTC"), Column("endUTC"), Column("duration"), Column("size"), Column("codec"),
        Column("container"), SQL("json_array_length(gaps)").forKey("gapCount"), Column("kept"),
    ] }
}

extension IndexedRecording {
    /// What a list shows of this recording.
    public var listing: RecordingListing {
        RecordingListing(id: id ?? 0, station: station, stationName: stationName, programme: programme, programmeName: programmeName,
                         episodeTitle: episodeTitle, startUTC: startUTC, endUTC: endUTC, duration: duration, size: size, codec: codec,
                         container: container, gapCount: gaps.count, kept: kept)
    }
}
