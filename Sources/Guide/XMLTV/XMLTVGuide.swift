import Foundation

/// A text in one language; XMLTV gives titles, sub-titles and descriptions in several.
public struct LocalizedText: Codable, Sendable, Equatable {
    public var text: String
    /// ISO 639 code as the guide wrote it ("en", "de"), if it gave one.
    public var lang: String?

    public init(_ text: String, lang: String? = nil) { self.text = text; self.lang = lang }
}

extension Array where Element == LocalizedText {
    /// The variant in `language` (matched on its primary subtag, so "en" finds "en-GB"), else the first.
    public func preferring(_ language: String?) -> String? {
        (first { $0.isIn(language) } ?? first)?.text
    }

    /// Every text in `language`, else every text (categories come several to a language).
    public func all(preferring language: String?) -> [String] {
        let inLanguage = filter { $0.isIn(language) }
        return (inLanguage.isEmpty ? self : inLanguage).map(\.text)
    }
}

extension LocalizedText {
    func isIn(_ language: String?) -> Bool {
        guard let language = language?.lowercased().split(separator: "-").first else { return false }
        return lang?.lowercased().split(separator: "-").first == language
    }
}

/// A channel as an XMLTV file lists it.
public struct XMLTVChannel: Sendable, Equatable {
    public var id: String
    public var names: [LocalizedText]
}

/// One broadcast as an XMLTV file lists it.
public struct XMLTVProgramme: Sendable, Equatable {
    public var channel: String
    public var start: Date
    /// Absent in some guides: the next programme's start on the channel stands in.
    public var stop: Date
    public var titles: [LocalizedText] = []
    public var subTitles: [LocalizedText] = []
    public var descriptions: [LocalizedText] = []
    public var categories: [LocalizedText] = []
    public var episodeNumbers: [EpisodeNumber] = []
}

/// What one XMLTV document holds.
public struct XMLTVGuide: Sendable, Equatable {
    public var channels: [XMLTVChannel] = []
    public var programmes: [XMLTVProgramme] = []
    /// Programmes left out, and why ("programme 3: no valid start"), so an import can say so.
    public var skipped: [String] = []
}
