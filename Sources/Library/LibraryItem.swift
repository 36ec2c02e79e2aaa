import Foundation

/// A problem with playlists, likes or hidden items, told in one plain line.
public struct LibraryError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    /// Whether what failed was fetching something from the network (a podcast's feed or episode),
    /// rather than the library's own files and database.
    public let isNetwork: Bool
    public init(_ description: String, isNetwork: Bool = false) { self.description = description; self.isNetwork = isNetwork }
}

/// What a playlist holds, a like marks or a hide removes: anything onair can play or name.
public enum ItemKind: String, Codable, Sendable, CaseIterable {
    /// A recording in the index, by its id.
    case recording
    /// A file, by its absolute path.
    case file
    /// A live station: a catalogue id or a stream URL.
    case station
    /// A catalogue or recorded programme: a parent, added as its recorded episodes.
    case programme
    /// A followed podcast, by its id: a parent, added as its episodes.
    case podcast
    /// A podcast's episode, by its id.
    case episode
}

/// An episode of a programme: one of its recordings, or one its attached podcast published.
public struct ProgrammeEpisode: Encodable, Sendable, Equatable {
    public var item: LibraryItem
    /// When it was recorded or published (nil: a podcast episode without a date).
    public var date: Date?
    /// Seconds, where known.
    public var duration: Double?
}

/// One item, with the title it is shown by.
public struct LibraryItem: Codable, Sendable, Equatable {
    public var kind: ItemKind
    /// The recording's id, the file's path, the station's id or URL, the programme's, podcast's or episode's id.
    public var ref: String
    public var title: String

    public init(kind: ItemKind, ref: String, title: String) { self.kind = kind; self.ref = ref; self.title = title }

    /// "recording:12", "file:/music/a.mp3", "station:fip": how the item is named on the command line.
    public var reference: String { "\(kind.rawValue):\(ref)" }
}
