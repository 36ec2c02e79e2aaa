/// Why a cast did not happen, as the one line the user reads.
public struct CastingError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No renderer by that name answered.
        case notFound
        /// The renderer could not be reached, or refused what it was asked.
        case renderer
        /// What was asked cannot work (a media URL the renderer cannot reach).
        case unusable
    }

    public let kind: Kind
    public let description: String

    public init(_ description: String, kind: Kind = .renderer) {
        self.description = description
        self.kind = kind
    }
}
