import Foundation
import StreamInput

/// Follows podcasts: a feed is read when added and asked for again conditionally on refresh; an
/// episode's audio is downloaded to play through the same decoder as recordings.
public struct PodcastFetch: Sendable {
    /// Feeds larger than this are refused; episodes larger than `maxEpisodeBytes` too. Most feeds are well
    /// under 1 MB; the largest, daily shows listing thousands of episodes with their show notes in HTML,
    /// are 10–20 MB, so 32 MiB leaves room without letting a feed refreshed unattended grow without end.
    /// `XMLLimits.feed` bounds what is inside.
    public static let maxFeedBytes = 32 << 20
    public static let maxEpisodeBytes = 1 << 30

    public enum Outcome: Sendable, Equatable {
        case updated(Podcast, added: Int)
        /// The server answered 304: the copy read last is current.
        case notModified(Podcast)
    }

    private let store: PodcastStore
    /// Where episodes are downloaded: one directory per podcast.
    private let downloads: URL
    private let engine: TransferEngine

    public init(store: PodcastStore, downloads: URL, engine: TransferEngine = .shared) {
        self.store = store; self.downloads = downloads; self.engine = engine
    }

    /// Downloads go under `podcasts/` in onair's data directory.
    /// Where episodes are downloaded, under onair's data directory.
    public static func downloads(in dataDirectory: URL) -> URL { dataDirectory.appendingPathComponent("podcasts") }

    public init(store: PodcastStore, dataDirectory: URL, engine: TransferEngine = .shared) {
        self.init(store: store, downloads: Self.downloads(in: dataDirectory), engine: engine)
    }

    /// Follows the feed at `url` (or refreshes it if followed already). `warn` hears each thing read
    /// leniently (`PodcastFeed.warnings`), one line each.
    public func add(_ url: String, now: Date = Date(), warn: (String) -> Void = { _ in }) throws(PodcastError) -> Outcome {
        try refresh(try store.podcast(url: url) ?? Podcast(url: url, title: url), now: now, warn: warn)
    }

    /// Asks for the feed again, sending the validators of the copy read last.
    public func refresh(_ podcast: Podcast, now: Date = Date(), warn: (String) -> Void = { _ in }) throws(PodcastError) -> Outcome {
        let outcome: ConditionalFetch.Outcome
        do {
            outcome = try ConditionalFetch.fetch(podcast.url, validators: HTTPValidators(etag: podcast.etag, lastModified: podcast.lastModified),
                                                 maxBytes: Self.maxFeedBytes, engine: engine)
        } catch {
            throw PodcastError("\(error)")
        }
        guard case .modified(let body, let validators) = outcome else {
            try store.checked(podcast, at: now)
            return .notModified(podcast)
        }
        let feed: PodcastFeed
        do {
            feed = try FeedReader.read(body, url: podcast.url)
        } catch {
            throw PodcastError("\(URLRedaction.redact(podcast.url)): \(error)")
        }
        feed.warnings.forEach { warn("\(URLRedaction.redact(podcast.url)): \($0)") }
        var updated = podcast
        updated.title = feed.title
        updated.description = feed.description
        updated.image = feed.image
        updated.etag = validators.etag
        updated.lastModified = validators.lastModified
        updated.checkedAt = now
        updated.changedAt = now
        let saved = try store.save(updated, episodes: feed.episodes)
        return .updated(saved.podcast, added: saved.added)
    }

    /// Stops following a podcast and deletes its downloads; nil if there was no such podcast.
    public func unfollow(_ id: Int64) throws(PodcastError) -> Podcast? {
        guard let podcast = try store.delete(id: id) else { return nil }
        try? FileManager.default.removeItem(at: downloads.appendingPathComponent(String(id)))
        return podcast
    }

    /// Keeps the newest `count` episodes downloaded (nil: every episode): downloads those missing and
    /// deletes the downloads of older ones. Returns the files downloaded and deleted.
    public func keepDownloaded(_ podcast: Podcast, newest count: Int?) throws(PodcastError) -> (downloaded: [String], deleted: [String]) {
        let newestFirst = try store.episodes(of: podcast.id!).reversed()
        var downloaded: [String] = [], deleted: [String] = []
        for (index, episode) in newestFirst.enumerated() {
            if index < count ?? .max {
                if episode.file.map({ FileManager.default.fileExists(atPath: $0) }) != true { downloaded.append(try download(episode)) }
            } else if let file = episode.file {
                try? FileManager.default.removeItem(atPath: file)
                try store.setFile(nil, of: episode.id!)
                deleted.append(file)
            }
        }
        return (downloaded, deleted)
    }

    /// What plays the episode: its download if it has one, else its URL when the server takes range
    /// requests (streamed: a seek fetches only what it lands on), else a download made now.
    public func playable(_ episode: PodcastEpisode) throws(PodcastError) -> String {
        if let file = episode.file, FileManager.default.fileExists(atPath: file) { return file }
        if RemoteFile.takesRanges(episode.url, engine: engine) { return episode.url }
        return try download(episode)
    }

    /// The episode's audio on disk, downloaded first if it is not there yet.
    public func download(_ episode: PodcastEpisode) throws(PodcastError) -> String {
        if let file = episode.file, FileManager.default.fileExists(atPath: file) { return file }
        let response: HTTPResponse
        do {
            response = try engine.fetch(TransferRequest(url: episode.url), maxBytes: Self.maxEpisodeBytes)
        } catch {
            throw PodcastError("\(error)")
        }
        let name = URL(string: episode.url)?.pathExtension.lowercased() ?? ""
        let fileExtension = name.count <= 5 && name.allSatisfy({ $0.isLetter || $0.isNumber }) && !name.isEmpty ? name : "audio"
        let directory = downloads.appendingPathComponent(String(episode.podcast))
        let file = directory.appendingPathComponent("\(episode.id!).\(fileExtension)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try response.body.write(to: file, options: .atomic)
        } catch {
            throw PodcastError("cannot save \(file.path): \((error as NSError).localizedDescription)")
        }
        try store.setFile(file.path, of: episode.id!)
        return file.path
    }

    /// The episode's podcast:chapters, fetched once and kept; nil if it publishes none.
    public func chapters(of episode: PodcastEpisode) throws(PodcastError) -> [FeedChapter]? {
        if let known = episode.chapters { return known }
        guard let url = episode.chaptersURL else { return nil }
        let chapters: [FeedChapter]
        do {
            chapters = try ChapterFile.read(try engine.fetch(TransferRequest(url: url), maxBytes: 1 << 20).body)
        } catch let error as PodcastError {
            throw PodcastError("\(URLRedaction.redact(url)): \(error)")
        } catch {
            throw PodcastError("\(error)")
        }
        try store.setChapters(chapters, of: episode.id!)
        return chapters
    }
}
