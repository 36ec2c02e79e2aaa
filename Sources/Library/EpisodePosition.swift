import Playback
import Podcasts
import Store

extension PlayerStore {
    /// Where the player left a podcast episode, and whether it was heard: kept under what was played,
    /// the episode's download or, streamed, its URL.
    public func position(of episode: PodcastEpisode) throws(StoreError) -> Position? {
        if let file = episode.file, let kept = try position(of: file) { return kept }
        return try position(of: episode.url)
    }
}
