/// A programme guide problem, told in one plain line.
public struct GuideError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
