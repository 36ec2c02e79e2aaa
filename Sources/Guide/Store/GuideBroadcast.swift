import Foundation
import GRDB

/// A broadcast in the guide's tables: one `<programme>` of an imported XMLTV file.
public struct GuideBroadcast: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "guide_broadcast"

    public var id: Int64?
    public var channel: String
    public var start: Date
    public var stop: Date
    /// Every language variant, as JSON in the database.
    public var titles: [LocalizedText]
    public var subTitles: [LocalizedText]
    public var descriptions: [LocalizedText]
    public var categories: [LocalizedText]
    public var episodeNumbers: [EpisodeNumber]

    init(_ programme: XMLTVProgramme) {
        channel = programme.channel
        start = programme.start
        stop = programme.stop
        titles = programme.titles
        subTitles = programme.subTitles
        descriptions = programme.descriptions
        categories = programme.categories
        episodeNumbers = programme.episodeNumbers
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The episode number to show: the guide's on-screen form, else xmltv_ns read as "S2E5".
    public var episode: String? {
        (episodeNumbers.first { $0.system == "onscreen" } ?? episodeNumbers.first { $0.system == "xmltv_ns" })?.display
    }

    public var seriesIDs: [String] { episodeNumbers.compactMap(\.seriesID) }

    /// What a recording of it is tagged with, in `language` where the guide has it.
    public func details(language: String?) -> BroadcastDetails {
        BroadcastDetails(guideID: id ?? 0, channel: channel, title: titles.preferring(language) ?? "",
                         subTitle: subTitles.preferring(language), description: descriptions.preferring(language), episode: episode)
    }
}

/// What the guide says of one broadcast, carried by a scheduled episode into its file's tags and the
/// recordings index.
public struct BroadcastDetails: Codable, Sendable, Equatable {
    /// The broadcast's row in the guide.
    public var guideID: Int64
    public var channel: String
    public var title: String
    public var subTitle: String?
    public var description: String?
    /// "S2E5", or the guide's on-screen number.
    public var episode: String?

    public init(guideID: Int64, channel: String, title: String, subTitle: String?, description: String?, episode: String?) {
        self.guideID = guideID; self.channel = channel; self.title = title; self.subTitle = subTitle
        self.description = description; self.episode = episode
    }
}
