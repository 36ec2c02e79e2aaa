import Foundation
import Media
import Podcasts
import RadioModel
import Recording

/// Turns what a user types (`12`, `fip`, `~/a.mp3`, `recording:12`, `tone-hour`, `playlist:3`) into
/// library items and into what `onair play` queues, applying the parent → children rule: a programme
/// is its recorded episodes (and the published episodes of a podcast attached to it, in one list by
/// date), a podcast its episodes, oldest first. A podcast episode is streamed with
/// range requests when its server takes them, else downloaded when it is queued. Hidden items leave every queue built from a programme, a
/// playlist or the likes.
public struct ItemResolver {
    private let index: any RecordingsIndexing
    /// Loaded only when a name is not a file, a recording or a recorded programme, so playing those
    /// does not depend on the catalogue being readable.
    private let catalogue: () throws(LibraryError) -> Catalogue
    private let library: LibraryStore
    private let podcasts: PodcastStore
    private let podcastFetch: PodcastFetch

    public init(index: any RecordingsIndexing, catalogue: @escaping () throws(LibraryError) -> Catalogue, library: LibraryStore, podcasts: PodcastStore, podcastFetch: PodcastFetch) {
        self.index = index; self.catalogue = catalogue; self.library = library; self.podcasts = podcasts; self.podcastFetch = podcastFetch
    }

    /// What `onair play` plays, and what it passes over (live stations, recordings gone from the index).
    public struct Queue: Sendable {
        public var items: [PlayableItem]
        public var skipped: [String]
    }

    /// The item `text` names: "KIND:REF" (recording, file, station, programme, podcast, episode), else
    /// an existing file, a recording id, a recorded programme, a URL or catalogue station, a catalogue
    /// programme — in that order. Nil if nothing is called that.
    public func item(named text: String) throws(LibraryError) -> LibraryItem? {
        // "file:///a.mp3" is a URL whose scheme is a kind's name, not KIND:REF; "station:http://…" is a station by its URL.
        if let colon = text.firstIndex(of: ":"), let kind = ItemKind(rawValue: String(text[..<colon])),
           kind == .station || !text[colon...].hasPrefix("://") {
            return try item(kind: kind, ref: String(text[text.index(after: colon)...]))
        }
        if let file = try item(kind: .file, ref: text) { return file }
        if let recording = try item(kind: .recording, ref: text) { return recording }
        if let recorded = try recordings(ofProgramme: text).last {
            return LibraryItem(kind: .programme, ref: text, title: recorded.programmeName ?? text)
        }
        if let station = try item(kind: .station, ref: text) { return station }
        return try item(kind: .programme, ref: text)
    }

    /// Parent → children: a programme is its recorded episodes, a podcast its episodes, oldest first
    /// (hidden ones left out); anything else is itself.
    public func expanded(_ item: LibraryItem) throws(LibraryError) -> [LibraryItem] {
        let children: [LibraryItem]
        switch item.kind {
        case .programme: children = try episodes(ofProgramme: item.ref).map(\.item)
        case .podcast:
            guard let id = Int64(item.ref) else { return [] }
            children = try podcast { () throws(PodcastError) in try podcasts.episodes(of: id) }.map(Self.item)
        default: return [item]
        }
        let hidden = try library.hiddenReferences()
        return children.filter { !hidden.contains($0.reference) }
    }

    /// What to play for `text`: "playlist:ID" or "playlist:liked" in order, a programme's episodes,
    /// or one file or recording. Nil if nothing is called that.
    public func queue(for text: String) throws(LibraryError) -> Queue? {
        let items: [LibraryItem]
        if text.hasPrefix("playlist:") {
            guard let listed = try playlistItems(String(text.dropFirst("playlist:".count))) else { return nil }
            items = listed
        } else {
            guard let named = try item(named: text) else { return nil }
            items = try expanded(named)
            if items.isEmpty { return nil }
        }
        var queue = Queue(items: [], skipped: [])
        for item in items {
            switch item.kind {
            case .file: queue.items.append(PlayableItem(path: item.ref, title: item.title))
            case .recording:
                guard let id = Int64(item.ref), let entry = try? index.recording(id: id) else {
                    queue.skipped.append("\(item.title): recording \(item.ref) is no longer in the index")
                    continue
                }
                queue.items.append(PlayableItem(path: entry.file, title: Self.item(entry).title, artist: entry.stationName))
            case .episode:
                guard let id = Int64(item.ref), let episode = try podcast({ () throws(PodcastError) in try podcasts.episode(id: id) }) else {
                    queue.skipped.append("\(item.title): episode \(item.ref) is no longer followed")
                    continue
                }
                let file = try podcast(fetching: true) { () throws(PodcastError) in try podcastFetch.playable(episode) }
                var chapters: [Chapter]?
                do {
                    chapters = try podcastFetch.chapters(of: episode).map { Self.chapters($0, duration: episode.duration) }
                } catch {
                    queue.skipped.append("the chapters of \(item.title): \(error)")
                }
                let podcastTitle = try? podcast({ () throws(PodcastError) in try podcasts.podcast(id: episode.podcast)?.title })
                queue.items.append(PlayableItem(path: file, title: item.title, chapters: chapters, artist: podcastTitle ?? nil))
            case .podcast: queue.skipped.append("\(item.title): no episodes")
            case .station: queue.skipped.append("\(item.title): a live station (listen with: onair listen \(item.ref))")
            case .programme: queue.skipped.append("\(item.title): no recorded episodes")
            }
        }
        return queue
    }

    /// A playlist's items in order, by its id or "liked" (the likes, a liked programme or podcast as its episodes);
    /// nil when there is no such playlist.
    public func playlistItems(_ id: String) throws(LibraryError) -> [LibraryItem]? {
        if id.lowercased() == LibraryStore.likedName.lowercased() {
            var liked: [LibraryItem] = []
            for item in try library.liked() { liked += try expanded(item) }
            return liked
        }
        guard let number = Int64(id), let entries = try library.entries(of: number) else { return nil }
        return entries.map(\.item)
    }

    /// The item of that kind and reference, if there is one (a file only if it exists).
    public func item(kind: ItemKind, ref: String) throws(LibraryError) -> LibraryItem? {
        switch kind {
        case .file:
            guard FileManager.default.fileExists(atPath: ref) else { return nil }
            // Kept by absolute path, as play positions are, so it names the same file from any directory.
            let file = URL(fileURLWithPath: ref).standardizedFileURL
            return LibraryItem(kind: .file, ref: file.path, title: file.deletingPathExtension().lastPathComponent)
        case .recording:
            guard let id = Int64(ref) else { return nil }
            return try indexed { () throws(RecordingError) in try index.recording(id: id) }.map(Self.item)
        case .station:
            if ref.contains("://") { return LibraryItem(kind: .station, ref: ref, title: ref) }
            return try catalogue().station(id: ref).map { LibraryItem(kind: .station, ref: $0.id, title: $0.name) }
        case .podcast:
            guard let id = Int64(ref) else { return nil }
            return try podcast { () throws(PodcastError) in try podcasts.podcast(id: id) }
                .map { LibraryItem(kind: .podcast, ref: ref, title: $0.title) }
        case .episode:
            guard let id = Int64(ref) else { return nil }
            return try podcast { () throws(PodcastError) in try podcasts.episode(id: id) }.map(Self.item)
        case .programme:
            if let recorded = try recordings(ofProgramme: ref).last {
                return LibraryItem(kind: .programme, ref: ref, title: recorded.programmeName ?? ref)
            }
            let listed = try catalogue().stations.lazy.flatMap(\.programmes).first { $0.id == ref }
            return listed.map { LibraryItem(kind: .programme, ref: $0.id, title: $0.name) }
        }
    }

    /// A programme's recordings and its attached podcasts' episodes, by date (a recording's start, an
    /// episode's publication; an episode without a date last).
    public func episodes(ofProgramme id: String) throws(LibraryError) -> [ProgrammeEpisode] {
        var episodes = try recordings(ofProgramme: id).map { ProgrammeEpisode(item: Self.item($0), date: $0.startUTC, duration: $0.duration) }
        for attached in try podcast({ () throws(PodcastError) in try podcasts.podcasts(ofProgramme: id) }) {
            episodes += try podcast { () throws(PodcastError) in try podcasts.episodes(of: attached.id!) }
                .map { ProgrammeEpisode(item: Self.item($0), date: $0.published, duration: $0.duration) }
        }
        // By date, undated last; equal dates keep recordings before episodes.
        let order = { (episode: ProgrammeEpisode) -> Date in episode.date ?? .distantFuture }
        return episodes.enumerated().sorted { first, second in
            order(first.element) != order(second.element) ? order(first.element) < order(second.element) : first.offset < second.offset
        }.map(\.element)
    }

    private func recordings(ofProgramme id: String) throws(LibraryError) -> [IndexedRecording] {
        try indexed { () throws(RecordingError) in try index.all() }.filter { $0.programme == id }.sorted { $0.startUTC < $1.startUTC }
    }

    /// `fetching`: the body goes to the network, so its failure is a stream's, not the library's.
    private func podcast<T>(fetching: Bool = false, _ body: () throws(PodcastError) -> T) throws(LibraryError) -> T {
        do { return try body() } catch { throw LibraryError("\(error)", isNetwork: fetching) }
    }

    private func indexed<T>(_ body: () throws(RecordingError) -> T) throws(LibraryError) -> T {
        do { return try body() } catch { throw LibraryError("\(error)") }
    }

    /// A podcast's chapters as the player's: each ends where the next begins, the last at the episode's end.
    static func chapters(_ published: [FeedChapter], duration: Double?) -> [Chapter] {
        published.enumerated().map { index, chapter in
            let end = index + 1 < published.count ? published[index + 1].start : max(duration ?? chapter.start, chapter.start)
            return Chapter(start: chapter.start, end: end, title: chapter.title)
        }
    }

    public static func item(_ episode: PodcastEpisode) -> LibraryItem {
        LibraryItem(kind: .episode, ref: String(episode.id ?? 0), title: episode.title)
    }

    /// A recording as lists and the player show it: "Tone Hour · 2026-11-24T20:00:00+01:00".
    public static func item(_ entry: IndexedRecording) -> LibraryItem {
        LibraryItem(kind: .recording, ref: String(entry.id ?? 0), title: "\(entry.programmeName ?? entry.stationName) · \(entry.startLocal)")
    }
}
