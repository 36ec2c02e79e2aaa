import Foundation
import GRDB
import RadioModel
import Store

/// A guide channel as imported, and the station it is mapped to by `onair guide map`.
public struct GuideChannel: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "guide_channel"
    public var id: String
    public var names: [LocalizedText]
    /// A catalogue station id or stream URL, when mapped by hand; a station's `guideID` maps it too.
    public var station: String?
}

/// A guide fetched from a URL, and what its server said of the copy imported, for conditional requests.
public struct GuideSource: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "guide_source"
    public var url: String
    public var etag: String?
    public var lastModified: String?
    /// When it was last asked for, and when it last changed (a 200 that was imported).
    public var checkedAt: Date?
    public var changedAt: Date?

    public init(url: String, etag: String? = nil, lastModified: String? = nil, checkedAt: Date? = nil, changedAt: Date? = nil) {
        self.url = url; self.etag = etag; self.lastModified = lastModified; self.checkedAt = checkedAt; self.changedAt = changedAt
    }
}

/// What an import did.
public struct GuideImportSummary: Codable, Sendable, Equatable {
    public var channels: Int
    public var broadcasts: Int
    /// Broadcasts of earlier imports replaced (the new file covers their time on their channel).
    public var replaced: Int
    public var skipped: [String]
}

/// The programme guide's tables in onair's database: channels, broadcasts and the URLs guides come
/// from. Safe from any thread; GRDB serialises access.
public final class GuideStore: Sendable {
    public let database: OnairDatabase
    /// Broadcasts that ended longer ago than this are dropped at each import: the daemon looks back a
    /// week for missed episodes, and a guide refreshed for years must not grow without end.
    public static let keptPast: TimeInterval = 14 * 86_400

    public init(database: OnairDatabase) throws(GuideError) {
        self.database = database
        do {
            try database.migrate(Self.registerMigrations)
        } catch {
            throw GuideError("guide: \(error)")
        }
    }

    /// Stores a guide. On each channel it lists, the broadcasts of earlier imports from the file's first
    /// broadcast to the channel's last are replaced by the new ones, so a programme the guide moved is
    /// found only at its new time.
    @discardableResult
    public func importGuide(_ guide: XMLTVGuide, now: Date = Date()) throws(GuideError) -> GuideImportSummary {
        try access { db in
            try GuideBroadcast.filter(Column("stop") < now.addingTimeInterval(-Self.keptPast)).deleteAll(db)
            for channel in guide.channels {
                let mapped = try GuideChannel.fetchOne(db, key: channel.id)?.station
                try GuideChannel(id: channel.id, names: channel.names, station: mapped).save(db)
            }
            var replaced = 0
            // The file speaks for its channels from its first broadcast on: a channel whose first listed
            // broadcast moved later has nothing left at the old time.
            let from = guide.programmes.map(\.start).min() ?? .distantPast
            for (channel, programmes) in Dictionary(grouping: guide.programmes, by: \.channel) {
                if try GuideChannel.fetchOne(db, key: channel) == nil {
                    try GuideChannel(id: channel, names: [], station: nil).insert(db)
                }
                let to = programmes.map(\.stop).max()!
                replaced += try GuideBroadcast.filter(Column("channel") == channel && Column("start") >= from && Column("start") < to)
                    .deleteAll(db)
                for programme in programmes {
                    var broadcast = GuideBroadcast(programme)
                    try broadcast.insert(db)
                }
            }
            return GuideImportSummary(channels: Set(guide.channels.map(\.id) + guide.programmes.map(\.channel)).count,
                                      broadcasts: guide.programmes.count, replaced: replaced, skipped: guide.skipped)
        }
    }

    // MARK: Channels

    public func channels() throws(GuideError) -> [GuideChannel] {
        try access(write: false) { db in try GuideChannel.order(Column("id")).fetchAll(db) }
    }

    /// Every channel with the station it is: mapped by hand (a catalogue id or a URL), else the
    /// catalogue station whose `guideID` names it. `station` is what to call it, `entry` the catalogue's.
    public func channelStations(in catalogue: Catalogue) throws(GuideError) -> [(channel: GuideChannel, station: String?, entry: Station?)] {
        try channels().map { channel in
            let entry = channel.station.flatMap(catalogue.station(id:)) ?? catalogue.stations.first { $0.guideID == channel.id }
            return (channel, channel.station ?? entry?.id, entry)
        }
    }

    /// Maps a channel to a station; nil if the guide has no such channel.
    public func map(channel: String, to station: String) throws(GuideError) -> GuideChannel? {
        try access { db in
            guard var found = try GuideChannel.fetchOne(db, key: channel) else { return nil }
            found.station = station
            try found.update(db)
            return found
        }
    }

    /// The channel a station's broadcasts are listed under: one mapped to it by hand, else the
    /// station's own guide id from the catalogue, if the guide has that channel.
    public func channel(forStation station: String, guideID: String?) throws(GuideError) -> String? {
        try access(write: false) { db in
            if let mapped = try GuideChannel.filter(Column("station") == station).order(Column("id")).fetchOne(db) { return mapped.id }
            guard let guideID, try GuideChannel.fetchOne(db, key: guideID) != nil else { return nil }
            return guideID
        }
    }

    // MARK: Broadcasts

    /// A channel's broadcasts that overlap `interval`, in order.
    public func broadcasts(channel: String, overlapping interval: DateInterval) throws(GuideError) -> [GuideBroadcast] {
        try access(write: false) { db in
            try GuideBroadcast.filter(Column("channel") == channel && Column("stop") > interval.start && Column("start") < interval.end)
                .order(Column("start")).fetchAll(db)
        }
    }

    /// Up to `limit` broadcasts `selection` asks for that end after `instant`, in order of start.
    public func broadcasts(_ selection: GuideSelection, endingAfter instant: Date, limit: Int) throws(GuideError) -> [GuideBroadcast] {
        try access(write: false) { db in
            let cursor = try GuideBroadcast.filter(Column("channel") == selection.channel && Column("stop") > instant)
                .order(Column("start")).fetchCursor(db)
            let matches = selection.matcher()
            var found: [GuideBroadcast] = []
            while found.count < limit, let broadcast = try cursor.next() {
                if matches(broadcast) { found.append(broadcast) }
            }
            return found
        }
    }

    // MARK: Sources

    public func sources() throws(GuideError) -> [GuideSource] {
        try access(write: false) { db in try GuideSource.order(Column("url")).fetchAll(db) }
    }

    public func source(url: String) throws(GuideError) -> GuideSource? {
        try access(write: false) { db in try GuideSource.fetchOne(db, key: url) }
    }

    public func save(_ source: GuideSource) throws(GuideError) {
        try access { db in try source.save(db) }
    }

    private func access<T>(write: Bool = true, _ body: (Database) throws -> T) throws(GuideError) -> T {
        do {
            return write ? try database.write(body) : try database.read(body)
        } catch {
            throw GuideError("guide: \(error)")
        }
    }

    private static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("guide-v1") { db in
            try db.create(table: GuideChannel.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("names", .jsonText).notNull()
                t.column("station", .text).indexed()
            }
            try db.create(table: GuideBroadcast.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("channel", .text).notNull().references(GuideChannel.databaseTableName, onDelete: .cascade)
                t.column("start", .datetime).notNull()
                t.column("stop", .datetime).notNull()
                t.column("titles", .jsonText).notNull()
                t.column("subTitles", .jsonText).notNull()
                t.column("descriptions", .jsonText).notNull()
                t.column("categories", .jsonText).notNull()
                t.column("episodeNumbers", .jsonText).notNull()
            }
            try db.create(index: "guide_broadcast_channel_start", on: GuideBroadcast.databaseTableName, columns: ["channel", "start"])
            try db.create(table: GuideSource.databaseTableName) { t in
                t.primaryKey("url", .text)
                t.column("etag", .text)
                t.column("lastModified", .text)
                t.column("checkedAt", .datetime)
                t.column("changedAt", .datetime)
            }
        }
    }
}
