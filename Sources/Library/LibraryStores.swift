import Foundation
import Podcasts
import RadioModel
import Recording
import Store

/// The listener's side of onair's database opened together — playlists, likes and hidden items, the
/// podcasts followed, where each file or episode was left — for a long-lived process (the daemon's
/// HTTP side) that serves them all. Safe from any thread: each store is.
public struct LibraryStores: Sendable {
    public let library: LibraryStore
    public let podcasts: PodcastStore
    public let podcastFetch: PodcastFetch
    public let positions: PlayerStore

    /// Opens (and migrates) the stores in the database of `dataDirectory`.
    public init(dataDirectory: URL) throws(LibraryError) {
        do {
            let database = try OnairDatabase(directory: dataDirectory)
            library = try LibraryStore(database: database)
            podcasts = try PodcastStore(database: database)
            positions = try PlayerStore(database: database)
        } catch {
            throw LibraryError("\(error)")
        }
        podcastFetch = PodcastFetch(store: podcasts, dataDirectory: dataDirectory)
    }

    /// What names items and expands programmes and podcasts, over these stores and `index`.
    public func resolver(index: any RecordingsIndexing, catalogue: @escaping () throws(LibraryError) -> Catalogue) -> ItemResolver {
        ItemResolver(index: index, catalogue: catalogue, library: library, podcasts: podcasts, podcastFetch: podcastFetch)
    }

    /// Where an episode was left and whether it was heard: the player keeps that under what it played,
    /// the download when there is one, else the URL it streamed.
    public func position(of episode: PodcastEpisode) throws(LibraryError) -> PlayerStore.Position? {
        do {
            return try positions.position(of: episode)
        } catch {
            throw LibraryError("\(error)")
        }
    }
}
