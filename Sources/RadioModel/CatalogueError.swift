import Foundation

/// A catalogue file onair cannot use, described as one line that says where to look:
/// `/home/u/.config/onair/stations.json:14: stations[2].streams[0].kind: expected one of "icy", "hls", "dash", got "rtsp"`.
public struct CatalogueError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file the problem is in.
    public var path: String
    /// The 1-based line, when the problem can be pinned to one.
    public var line: Int?
    /// Where in the document, e.g. `stations[2].streams[0].kind`; empty for the file as a whole.
    public var field: String
    public var message: String

    public init(path: String, line: Int? = nil, field: String = "", message: String) {
        self.path = path; self.line = line; self.field = field; self.message = message
    }

    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        if !field.isEmpty { text += ": " + field }
        return text + ": " + message
    }

    public var errorDescription: String? { description }
}
