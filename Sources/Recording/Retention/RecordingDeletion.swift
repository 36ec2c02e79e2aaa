import Foundation
import RadioModel

/// Why retention deleted a recording: its rule's `--keep N` or `--keep-days D`, or the daemon's `--min-free`.
public enum RetentionReason: Sendable, Equatable, CustomStringConvertible {
    case keepNewest(Int)
    case keepDays(Int)
    case minFree(ByteSize)

    public var description: String {
        switch self {
        case .keepNewest(let count): return "keep \(count): older than its rule's newest \(count) episodes"
        case .keepDays(let days): return "keep-days \(days): finished more than \(days) days ago"
        case .minFree(let size): return "min-free \(size): less than that was free on the recordings' file system"
        }
    }
}

/// A recording retention deleted, and why: what the log line, the status and the event stream tell.
public struct RecordingDeletion: Codable, Sendable, Equatable {
    public var recording: Int64
    public var station: String
    public var file: String
    public var size: Int64
    public var reason: String
    public var at: Date

    /// "recording 12 (/…/file.mp3) deleted: keep-days 7: finished more than 7 days ago"
    public var logLine: String { "recording \(recording) (\(file)) deleted: \(reason)" }
}

extension IndexedRecording {
    /// Retention's one way to delete a recording: its file and cue sheet, then its index entry. A kept
    /// recording is never deleted (nil).
    public func deleteForRetention(from index: any RecordingsIndexing, because reason: RetentionReason, at now: Date) throws(RecordingError)
        -> RecordingDeletion? {
        guard !kept, let id else { return nil }
        try deleteFiles()
        _ = try index.remove(id: id)
        return RecordingDeletion(recording: id, station: station, file: file, size: size, reason: reason.description, at: now)
    }
}
