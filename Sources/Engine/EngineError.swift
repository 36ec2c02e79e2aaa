/// Why the engine could not start or keep a job, in one plain line, and whose fault it was — which
/// is what a command's exit status tells.
public struct EngineError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// The stream could not be played: unreachable, not audio, or reconnecting gave up.
        case stream
        /// A sink or recorder could not be opened or failed while writing.
        case sink
        /// The request itself is wrong: an unknown station, a bad option.
        case configuration
        /// Nothing by that name: a job asked for does not exist.
        case notFound
    }

    public let description: String
    public let kind: Kind

    public init(_ description: String, kind: Kind) {
        self.description = description
        self.kind = kind
    }
}
