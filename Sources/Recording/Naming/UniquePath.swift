import Foundation
import RadioModel
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

    /// Where the search for a free variant of a taken name starts: the attempt that last found one. Without
    /// it the k-th of many namesakes recording at once (a thousand streams that call themselves the same)
    /// tried k names, each a failed create and a look at the disk: half a million tries to start a thousand
    /// recordings, and as many to finish them. A variant freed since is not reused, which only skips a number.
    private static let lastFree = Locked<[String: Int]>([:])
    /// Names remembered at most; past it the memory starts afresh (a search then starts at the name itself).
    static let maxRemembered = 1000

    /// Calls `take` with `desired` and its variants in turn (see `candidate`) until it claims one, nil
    /// meaning that variant is taken; returns what it made of the first it claimed, or nil when
    /// `maxAttempts` were taken. `purpose` keeps apart searches for different files of one name.
    static func firstFree<Claimed>(_ desired: URL, purpose: String,
                                   _ take: (URL) throws(RecordingError) -> Claimed?) throws(RecordingError) -> Claimed? {
        let key = purpose + "\u{0}" + desired.path
        let start = lastFree.withLock { $0[key] } ?? 1
        for attempt in start..<start + maxAttempts {
            guard let claimed = try take(candidate(desired, attempt: attempt)) else { continue }
            if attempt > 1 {
                lastFree.withLock { remembered in
                    if remembered.count >= maxRemembered { remembered.removeAll() }
                    remembered[key] = attempt
                }
            }
            return claimed
        }
        return nil
    }

    /// Moves `source` to `desired` or the first free variant of it and returns where it went.
    /// link(2) fails on an existing name instead of replacing it, which makes the check and the move one
    /// step: two recordings finishing at once cannot take the same name.
    static func move(_ source: URL, toFreeNameLike desired: URL) throws(RecordingError) -> URL {
        let placed = try firstFree(desired, purpose: "finished") { target throws(RecordingError) -> URL? in
            if link(source.path, target.path) == 0 {
                unlink(source.path)
                return target
            }
            let code = errno
            guard code == EEXIST else {
                throw RecordingError("cannot put \(target.path) in place: \(String(cString: strerror(code)))")
            }
            return nil
        }
        guard let placed else { throw RecordingError("cannot find a free name like \(desired.path) (\(maxAttempts) taken)") }
        return placed
    }
}
