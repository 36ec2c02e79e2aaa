import Foundation

/// The catalogue for a long-running process (the daemon), which needs it for nearly every request: read
/// again only when one of its two files has changed (another inode, size or modification time), so a
/// station added to the user's file is there at the next request, and an unchanged catalogue costs two
/// `stat` calls instead of reading and decoding both files. A file changed within two seconds before it
/// was read is not trusted to stay told apart: the kernel stamps modification times from a coarse clock
/// (milliseconds apart), so a rewrite of the same size within the same tick would look unchanged. Such a
/// read is not kept, and the next one reads again (as git does with a racily clean index).
public final class CatalogueReader: Sendable {
    private struct Read {
        var stamps: [FileStamp?]
        var catalogue: Catalogue
    }

    /// What tells a changed file apart, without reading it.
    private struct FileStamp: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: timespec

        init?(_ url: URL) {
            var status = stat()
            guard stat(url.path, &status) == 0 else { return nil }
            (inode, size, modified) = (UInt64(status.st_ino), Int64(status.st_size), status.st_mtim)
        }

        /// Changed so recently that another change within the same clock tick could not be told apart.
        func isFresh(now: timespec) -> Bool { now.tv_sec - modified.tv_sec < 2 }

        static func == (a: FileStamp, b: FileStamp) -> Bool {
            a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    private let shippedURL: URL?
    private let userURL: URL
    private let last = Locked<Read?>(nil)

    public init(shippedURL: URL?, userURL: URL) {
        (self.shippedURL, self.userURL) = (shippedURL, userURL)
    }

    public func read() throws(CatalogueError) -> Catalogue {
        let stamps = [shippedURL.flatMap(FileStamp.init), FileStamp(userURL)]
        if let read = last.current, read.stamps == stamps { return read.catalogue }
        let catalogue = try Catalogue.load(shippedURL: shippedURL, userURL: userURL)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let settled = !stamps.contains { $0?.isFresh(now: now) ?? false }
        last.withLock { $0 = settled ? Read(stamps: stamps, catalogue: catalogue) : nil }
        return catalogue
    }
}
