import Foundation
import RadioModel

/// `onair daemon --min-free SIZE`: while the recordings' file system has less than SIZE free, the
/// oldest finished recordings are deleted, one at a time, until it has SIZE again or none is left to
/// delete. Only what the index lists is considered — finished files; a recording being written is a
/// partial file with its journal, entered in the index only once finalised — and a kept one never goes.
public struct MinimumFreeSpace: Sendable {
    public var minimum: ByteSize
    /// Bytes free where recordings are written (`DiskSpace.free(at:)`); nil when it cannot be told.
    public var freeBytes: @Sendable () -> Int64?

    public init(minimum: ByteSize, freeBytes: @escaping @Sendable () -> Int64?) {
        self.minimum = minimum
        self.freeBytes = freeBytes
    }

    /// Deletes the oldest finished recordings (by when they finished) until enough is free.
    public func reclaim(from index: any RecordingsIndexing, now: Date = Date()) throws(RecordingError) -> [RecordingDeletion] {
        guard var free = freeBytes(), free < minimum.bytes else { return [] }
        var deleted: [RecordingDeletion] = []
        // Only a file on this machine frees space here (daemons sharing an index may each keep their own files).
        let here = try index.all().filter { FileManager.default.fileExists(atPath: $0.file) }
        for entry in here.sorted(by: { $0.endUTC < $1.endUTC }) where free < minimum.bytes {
            guard let deletion = try entry.deleteForRetention(from: index, because: .minFree(minimum), at: now) else { continue }
            deleted.append(deletion)
            // Some file systems report freed blocks a little later: counting the file's size as freed keeps
            // a late report from deleting more than needed.
            free = max(freeBytes() ?? 0, free + entry.size)
        }
        return deleted
    }
}
