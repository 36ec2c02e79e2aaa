import Foundation
import Podcasts
import Store

extension PlayerStore {
    /// Where the player left a podcast episode, and whether it was heard: kept under what was played,
    /// the episode's download or, streamed, its URL.
    public func position(of episode: PodcastEpisode) throws(StoreError) -> Position? {
        if let file = episode.file, let kept = try position(of: file) { return kept }
        return try position(of: episode.url)
    }

    /// Notes where an episode was left (played elsewhere, e.g. in a browser), under the name `onair
    /// play` would play it by: its download if it has one, else its URL.
    public func savePosition(of episode: PodcastEpisode, seconds: Double, heard: Bool) throws(StoreError) {
        let played = episode.file.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil } ?? episode.url
        try savePosition(of: played, seconds: seconds, heard: heard)
    }
}
