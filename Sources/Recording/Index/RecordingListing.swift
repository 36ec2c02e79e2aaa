import Foundation
import GRDB

/// A recording as a list shows it: the index's columns without its titles and gaps, only how many gaps
/// there are. Reading each row's titles and gaps (JSON) was most of a list's time (`perf`, BENCHMARKS.md).
public struct RecordingListing: Decodable, Equatable, Sendable, FetchableRecord {
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

    /// The index columns a listing reads, in SQLite: the gaps' JSON is counted by the database.
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
