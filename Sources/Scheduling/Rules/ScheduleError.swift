/// A schedule problem, told in one plain line.
public struct ScheduleError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
