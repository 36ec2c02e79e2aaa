/// One file to play on demand: a recording, a podcast episode, a file named on the command line.
public struct PlayableItem: Sendable, Equatable {
    public var path: String
    public var title: String
    /// Chapters published beside the file (a podcast's podcast:chapters); nil uses the file's own.
    public var chapters: [Chapter]?
    /// Whose it is, as a listen names it: a recording's station, an episode's podcast; nil for a file.
    public var artist: String?

    public init(path: String, title: String, chapters: [Chapter]? = nil, artist: String? = nil) {
        self.path = path
        self.title = title
        self.chapters = chapters
        self.artist = artist
    }
}

/// Where items were left, as the listener's library keeps them (Library's `PlayerStore`, in the database);
/// the on-demand player resumes from it and writes to it.
public protocol PositionMemory: Sendable {
    /// Where to resume, or nil to start from the top (never played, or finished).
    func resumePoint(for file: String, duration: Double?) -> Double?
    func save(_ file: String, seconds: Double, heard: Bool)
}
