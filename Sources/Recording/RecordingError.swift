/// A recording problem, told in one plain line: what failed and, where it helps, what to do.
public struct RecordingError: Error, CustomStringConvertible, Equatable {
    public let description: String
    /// The recording is still being written by a running onair: not a failure, just not yet to be touched.
    public let isInUse: Bool

    public init(_ description: String, isInUse: Bool = false) {
        self.description = description
        self.isInUse = isInUse
    }
}
