import Foundation

/// Free space on a directory's file system.
public enum DiskSpace {
    /// Bytes an unprivileged writer may still use on the file system of `directory` (or of its nearest
    /// existing parent): Foundation's statvfs(3), nil if it cannot be read.
    public static func free(at directory: URL) -> Int64? {
        var directory = directory
        while !FileManager.default.fileExists(atPath: directory.path), directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
        }
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
