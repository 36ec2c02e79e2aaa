#if canImport(Glibc)
import Glibc
#endif

/// A recording problem, told in one plain line: what failed and, where it helps, what to do.
public struct RecordingError: Error, CustomStringConvertible, Equatable {
    public let description: String
    /// The recording is still being written by a running onair: not a failure, just not yet to be touched.
    public let isInUse: Bool
    /// The disk (or the owner's quota) has no room: a write may succeed again once some is freed.
    public let isNoRoom: Bool

    public init(_ description: String, isInUse: Bool = false, isNoRoom: Bool = false) {
        self.description = description
        self.isInUse = isInUse
        self.isNoRoom = isNoRoom
    }

    /// "cannot ACTION PATH: REASON" for a failed system call, remembering whether it was for want of room.
    static func cannot(_ action: String, _ path: String, errno code: Int32) -> RecordingError {
        RecordingError("cannot \(action) \(path): \(reason(code))", isNoRoom: code == ENOSPC || code == EDQUOT)
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "the disk is full"
        case EDQUOT: "the disk quota is used up"
        default: String(cString: strerror(code))
        }
    }
}
