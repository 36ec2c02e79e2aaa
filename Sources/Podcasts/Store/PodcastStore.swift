import Foundation
import GRDB
import Store

/// A podcast followed: its feed and what the server said of the copy read last.
public struct Podcast: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "podcast"
    public var id: Int64?
    public var url: String
    public var title: String
    public var description: String?
    public var etag: String?
    public var lastModified: String?
    public var checkedAt: Date?
    public var changedAt: Date?
    /// The catalogue programme the podcast publishes, when attached: its episodes and the programme's
    /// recordings are then one list.
    public var programme: String?
    /// The show's artwork as its feed names it.
    public var image: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An episode of a podcast, and where its audio was downloaded to.
public struct PodcastEpisode: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "podcast_episode"
    public var id: Int64?
    public var podcast: Int64
    public var guid: String
    public var title: String
    public var description: String?
    public var published: Date?
    public var url: String
    public var mimeType: String?
    public var length: Int64?
    public var duration: Double?
    public var chaptersURL: String?
    /// The downloaded file, once played or downloaded.
    public var file: String?
    /// The chapters of the podcast:chapters file, read when the episode was downloaded.
    public var chapters: [FeedChapter]?
    /// The episode's own artwork as its feed names it.
    public var image: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The podcasts' tables in onair's database. Safe from any thread; GRDB serialises access.
public final class PodcastStore: Sendable {
    public let database: OnairDatabase

    public init(database: OnairDatabase) throws(PodcastError) {
        self.database = database
        do {
            try database.migrate(Self.registerMigrations)
        } catch {
            throw PodcastError("podcasts: \(error)")
        }
    }

    public func podcasts() throws(PodcastError) -> [Podcast] {
        try access(write: false) { db in try Podcast.order(Column("id")).fetchAll(db) }
    }

    public func podcast(id: Int64) throws(PodcastError) -> Podcast? {
        try access(write: false) { db in try Podcast.fetchOne(db, key: id) }
    }

    public func podcast(url: String) throws(PodcastError) -> Podcast? {
        try access(write: false) { db in try Podcast.filter(Column("url") == url).fetchOne(db) }
    }

    /// Saves a podcast and its feed's episodes: new ones are added, known ones (by guid) updated, and
    /// their downloads kept.
    @discardableResult
    public func save(_ podcast: Podcast, episodes: [FeedEpisode]) throws(PodcastError) -> (podcast: Podcast, added: Int) {
        try access { db in
            var saved = podcast
            try saved.save(db)
            var added = 0
            for episode in episodes {
                var row = PodcastEpisode(podcast: saved.id!, guid: episode.guid, title: episode.title, description: episode.description,
                                         published: episode.published, url: episode.url, mimeType: episode.mimeType, length: episode.length,
                                         duration: episode.duration, chaptersURL: episode.chaptersURL, image: episode.image)
                if let known = try PodcastEpisode.filter(Column("podcast") == saved.id! && Column("guid") == episode.guid).fetchOne(db) {
                    row.id = known.id
                    if known.url == episode.url { (row.file, row.chapters) = (known.file, known.chapters) }
                    try row.update(db)
                } else {
                    try row.insert(db)
                    added += 1
                }
            }
            return (saved, added)
        }
    }

    /// Stops following a podcast: it and its episodes leave the database; nil if there was none.
    public func delete(id: Int64) throws(PodcastError) -> Podcast? {
        try access { db in
            guard let podcast = try Podcast.fetchOne(db, key: id) else { return nil }
            try PodcastEpisode.filter(Column("podcast") == id).deleteAll(db)
            try podcast.delete(db)
            return podcast
        }
    }

    /// Notes a refresh the server answered 304.
    public func checked(_ podcast: Podcast, at instant: Date) throws(PodcastError) {
        try access { db in
            try db.execute(sql: "UPDATE podcast SET checkedAt = ? WHERE id = ?", arguments: [instant, podcast.id])
        }
    }

    /// A podcast's episodes, oldest first (as published).
    /// Attaches the podcast to a catalogue programme (nil detaches it); false if there is no such podcast.
    public func attach(_ podcast: Int64, to programme: String?) throws(PodcastError) -> Bool {
        try access { db in
            try Podcast.filter(key: podcast).updateAll(db, Column("programme").set(to: programme)) > 0
        }
    }

    /// The podcasts attached to a programme.
    public func podcasts(ofProgramme programme: String) throws(PodcastError) -> [Podcast] {
        try access(write: false) { db in try Podcast.filter(Column("programme") == programme).order(Column("id")).fetchAll(db) }
    }

    public func episodes(of podcast: Int64) throws(PodcastError) -> [PodcastEpisode] {
        try access(write: false) { db in
            try PodcastEpisode.filter(Column("podcast") == podcast).order(Column("published"), Column("id")).fetchAll(db)
        }
    }

    public func episode(id: Int64) throws(PodcastError) -> PodcastEpisode? {
        try access(write: false) { db in try PodcastEpisode.fetchOne(db, key: id) }
    }

    public func setFile(_ file: String?, of episode: Int64) throws(PodcastError) {
        try access { db in try db.execute(sql: "UPDATE podcast_episode SET file = ? WHERE id = ?", arguments: [file, episode]) }
    }

    public func setChapters(_ chapters: [FeedChapter], of episode: Int64) throws(PodcastError) {
        try access { db in
            guard var row = try PodcastEpisode.fetchOne(db, key: episode) else { return }
            row.chapters = chapters
            try row.update(db)
        }
    }

    private func access<T>(write: Bool = true, _ body: (Database) throws -> T) throws(PodcastError) -> T {
        do {
            return write ? try database.write(body) : try database.read(body)
        } catch {
            throw PodcastError("podcasts: \(error)")
        }
    }

    private static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("podcasts-v1") { db in
            try db.create(table: Podcast.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("url", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("description", .text)
                t.column("etag", .text)
                t.column("lastModified", .text)
                t.column("checkedAt", .datetime)
                t.column("changedAt", .datetime)
            }
            try db.create(table: PodcastEpisode.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("podcast", .integer).notNull().references(Podcast.databaseTableName, onDelete: .cascade)
                t.column("guid", .text).notNull()
                t.column("title", .text).notNull()
                t.column("description", .text)
                t.column("published", .datetime)
                t.column("url", .text).notNull()
                t.column("mimeType", .text)
                t.column("length", .integer)
                t.column("duration", .double)
                t.column("chaptersURL", .text)
                t.column("file", .text)
                t.column("chapters", .jsonText)
                t.uniqueKey(["podcast", "guid"])
            }
        }
        migrator.registerMigration("podcasts-v2-programme") { db in
            try db.alter(table: Podcast.databaseTableName) { t in
                t.add(column: "programme", .text)
            }
        }
        migrator.registerMigration("podcasts-v3-images") { db in
            try db.alter(table: Podcast.databaseTableName) { t in t.add(column: "image", .text) }
            try db.alter(table: PodcastEpisode.databaseTableName) { t in t.add(column: "image", .text) }
        }
    }
}
