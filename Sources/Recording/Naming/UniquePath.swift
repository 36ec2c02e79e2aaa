import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Puts a finished file in place under its name without ever replacing another file: a name that is
/// taken gets " (2)", " (3)", … before its extension.
enum UniquePath {
    /// Candidates tried before giving up: a directory with this many namesakes is not a naming problem.
    static let maxAttempts = 1000

    /// `desired`, or "NAME (2).EXT", … for the first that does not exist yet.
    static func candidate(_ desired: URL, attempt: Int) -> URL {
        guard attempt > 1 else { return desired }
        let stem = desired.deletingPathExtension().lastPathComponent
        let fileExtension = desired.pathExtension
        let name = "\(stem) (\(attempt))" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
        return desired.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Moves `source` to `desired` or the first free variant of it and returns where it went.
    /// link(2) fails on an existing name instead of replacing it, which makes the check and the move one
    /// step: two recordings finishing at once cannot take the same name.
    static func move(_ source: URL, toFreeNameLike desired: URL) throws(RecordingError) -> URL {
        for attempt in 1...maxAttempts {
            let target = candidate(desired, attempt: attempt)
            if link(source.path, target.path) == 0 {
                unlink(source.path)
                return target
            }
            let code = errno
            guard code == EEXIST else {
                throw RecordingError("cannot put \(target.path) in place: \(String(cString: strerror(code)))")
            }
        }
        throw RecordingError("cannot find a free name like \(desired.path) (\(maxAttempts) taken)")
    }
}
