import Foundation
import Podcasts
import Recording

/// What the box's lists and the player's entries read from the index and the library, each read at most once for a
/// page: "Listen now" builds several lists and many entries from the same recordings, episodes and positions.
/// Made and used inside one `DaemonFacade.perform`, on its one thread (a class, so `PlayerEntries` and the lists share
/// it; not `Sendable`).
final class LibraryReads {
    let services: PageServices
    private var recordingsRead: [IndexedRecording]?
    private var recordingsByID: [Int64: IndexedRecording] = [:]
    private var episodesRead: [PodcastEpisode]?
    private var heardRead: Set<String>?

    init(services: PageServices) { self.services = services }

    /// The index's recordings, oldest first.
    func recordings() throws -> [IndexedRecording] {
        if let recordingsRead { return recordingsRead }
        let read = try services.recordings.all()
        recordingsRead = read
        recordingsByID = Dictionary(read.compactMap { entry in entry.id.map { ($0, entry) } }, uniquingKeysWith: { first, _ in first })
        return read
    }

    /// One recording: from the recordings read already, else its own row.
    func recording(id: Int64) throws -> IndexedRecording? {
        recordingsRead == nil ? try services.recordings.recording(id: id) : recordingsByID[id]
    }

    /// Every followed podcast's episodes.
    func episodes() throws -> [PodcastEpisode] {
        if let episodesRead { return episodesRead }
        let read = try services.podcasts.podcasts().flatMap { podcast in try services.podcasts.episodes(of: podcast.id ?? 0) }
        episodesRead = read
        return read
    }

    /// What was played to its end, by the name the player keeps it under (a file, an episode's URL).
    func heard() throws -> Set<String> {
        if let heardRead { return heardRead }
        let read = Set(try services.positions.positions(limit: Int.max).filter(\.position.heard).map(\.file))
        heardRead = read
        return read
    }
}
