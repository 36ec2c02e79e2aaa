import Foundation

/// Partial recordings left behind by a crash, a kill or a power cut: their journals, found under a directory.
public enum LeftoverRecordings {
    /// Every `.NAME.partial.journal` under `directory`, in name order.
    public static func journals(under directory: URL) -> [URL] {
        // The enumerator does not descend into a root that is a symbolic link (a recordings directory
        // linked to a shared mount).
        guard let walker = FileManager.default.enumerator(at: directory.resolvingSymlinksInPath(),
                                                          includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker where Journal.isJournal(url.lastPathComponent) {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The schedule's episode a journal's recording is a part of, if it names one.
    public static func episode(ofJournal url: URL) -> Int64? {
        Journal.start(of: url)?.episode
    }
}
