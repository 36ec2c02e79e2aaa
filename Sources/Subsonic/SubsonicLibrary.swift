import Foundation
import Library
import Podcasts
import RadioModel
import Recording

/// What onair holds, as the Subsonic API's browsing endpoints show it: stations as artists, a programme's
/// recordings as an album (recordings of no programme: one album per station), each recording a track,
/// newest first within its album. Built for one request from the recordings index and the catalogue as
/// they are then; hidden recordings, programmes and stations are left out everywhere, as in the web app.
public struct SubsonicLibrary {
    public struct Album {
        public let id: SubsonicID.Album
        public let name: String
        public let station: String
        public let stationName: String
        /// Newest first.
        public let recordings: [IndexedRecording]
        /// Each recording's place in the programme, oldest first (1…), by id.
        let trackNumbers: [Int64: Int]

        init(id: SubsonicID.Album, name: String, station: String, stationName: String, recordings: [IndexedRecording]) {
            (self.id, self.name, self.station, self.stationName, self.recordings) = (id, name, station, stationName, recordings)
            trackNumbers = Dictionary(recordings.enumerated().map { ($1.id ?? 0, recordings.count - $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public let albums: [Album]
    private let catalogue: Catalogue?
    private let liked: Set<String>
    private let hidden: Set<String>

    /// `hidden` and `liked`: the library's references (`recording:12`, `programme:news`, `station:fip`).
    public init(recordings: [IndexedRecording], catalogue: Catalogue?, hidden: Set<String>, liked: Set<String>) {
        self.catalogue = catalogue
        self.liked = liked
        self.hidden = hidden
        let shown = recordings.filter { recording in
            recording.id != nil && recording.partial == nil
                && !hidden.contains("recording:\(recording.id ?? 0)") && !hidden.contains("station:\(recording.station)")
                && !(recording.programme.map { hidden.contains("programme:\($0)") } ?? false)
        }
        let grouped = Dictionary(grouping: shown) { recording -> SubsonicID.Album in
            recording.programme.map(SubsonicID.Album.programme) ?? .station(recording.station)
        }
        albums = grouped.map { key, recordings in
            let newest = recordings.sorted { $0.startUTC > $1.startUTC }
            let first = newest[0]
            let stationName = catalogue?.station(id: first.station)?.name ?? first.stationName
            let name: String = switch key {
            case .programme(let id): first.programmeName ?? id
            case .station: "\(stationName) recordings"
            }
            return Album(id: key, name: name, station: first.station, stationName: stationName, recordings: newest)
        }.sorted { ($0.recordings[0].startUTC, $0.name) > ($1.recordings[0].startUTC, $1.name) }
    }

    // MARK: Lookups

    public func album(_ id: SubsonicID.Album) -> Album? { albums.first { $0.id == id } }

    public func albums(ofStation station: String) -> [Album] { albums.filter { $0.station == station } }

    public func recording(_ id: Int64) -> (IndexedRecording, Album)? {
        for album in albums {
            if let recording = album.recordings.first(where: { $0.id == id }) { return (recording, album) }
        }
        return nil
    }

    /// The stations that have recordings, by name.
    public var artists: [(station: String, name: String, albums: Int)] {
        Dictionary(grouping: albums, by: \.station).map { station, albums in (station, albums[0].stationName, albums.count) }
            .sorted { ($0.name.lowercased(), $0.station) < ($1.name.lowercased(), $1.station) }
    }

    // MARK: Elements

    public func artistElement(station: String, name: String, albums: Int) -> SubsonicElement {
        SubsonicElement(["id": .text(SubsonicID.artist(station: station).text), "name": .text(name),
                         "coverArt": .text(SubsonicID.artist(station: station).text), "albumCount": .integer(Int64(albums))])
    }

    public func albumElement(_ album: Album) -> SubsonicElement {
        let newest = album.recordings[0]
        let liked = if case .programme(let programme) = album.id { self.liked.contains("programme:\(programme)") } else { false }
        return SubsonicElement([
            "id": .text(SubsonicID.album(album.id).text), "name": .text(album.name), "title": .text(album.name), "album": .text(album.name),
            "artist": .text(album.stationName), "artistId": .text(SubsonicID.artist(station: album.station).text),
            "coverArt": .text(SubsonicID.artist(station: album.station).text),
            "songCount": .integer(Int64(album.recordings.count)),
            "duration": .integer(Int64(album.recordings.reduce(0) { $0 + $1.duration }.rounded())),
            "created": .text(SubsonicDate.text(newest.startUTC)), "year": .integer(Int64(SubsonicDate.year(newest.startUTC))),
            "isDir": true, "parent": .text(SubsonicID.artist(station: album.station).text),
            "starred": liked ? .text(SubsonicDate.text(newest.startUTC)) : nil,
        ])
    }

    /// A recording as a track (the API's `Child`). Its file's name and size, its container's type; its
    /// track number the order within its album, oldest first, as a podcast app numbers episodes.
    public func songElement(_ recording: IndexedRecording, in album: Album) -> SubsonicElement {
        let id = recording.id ?? 0
        let suffix = (recording.file as NSString).pathExtension.lowercased()
        let bitRate = recording.duration > 0 ? Int64((Double(recording.size) * 8 / recording.duration / 1000).rounded()) : 0
        let track = album.trackNumbers[id] ?? 0
        return SubsonicElement([
            "id": .text(SubsonicID.recording(id).text), "parent": .text(SubsonicID.album(album.id).text), "isDir": false,
            "title": .text(Self.title(of: recording)), "album": .text(album.name), "artist": .text(album.stationName),
            "track": .integer(Int64(track)), "discNumber": 1, "year": .integer(Int64(SubsonicDate.year(recording.startUTC))),
            "coverArt": .text(SubsonicID.artist(station: album.station).text), "size": .integer(recording.size),
            "contentType": .text(AudioFileType.mimeType(of: recording.file)), "suffix": .text(suffix),
            "duration": .integer(Int64(recording.duration.rounded())), "bitRate": .integer(bitRate),
            "path": .text("\(album.stationName)/\(album.name)/\(Self.title(of: recording)).\(suffix)"),
            "created": .text(SubsonicDate.text(recording.startUTC)),
            "albumId": .text(SubsonicID.album(album.id).text), "artistId": .text(SubsonicID.artist(station: album.station).text),
            "type": "music", "mediaType": "song", "isVideo": false,
            "starred": liked.contains("recording:\(id)") ? .text(SubsonicDate.text(recording.startUTC)) : nil,
        ])
    }

    /// A recording's title: its episode's, else its programme's or station's with the time it began, as the
    /// recordings page names it.
    public static func title(of recording: IndexedRecording) -> String {
        if let title = recording.episodeTitle, !title.isEmpty { return title }
        return "\(recording.programmeName ?? recording.stationName) \(recording.startLocal.prefix(16).replacingOccurrences(of: "T", with: " "))"
    }

    // MARK: Radio

    /// The catalogue's stations as internet radio; `streamURL` gives each its live mount on this daemon.
    public func radioStations(streamURL: (Station) -> String) -> [SubsonicElement] {
        (catalogue?.stations ?? []).filter { !hidden.contains("station:\($0.id)") }.map { station in
            SubsonicElement(["id": .text(SubsonicID.radio(station: station.id).text), "name": .text(station.name),
                             "streamUrl": .text(streamURL(station)), "homePageUrl": station.homepage.map(SubsonicValue.text),
                             "coverArt": .text(SubsonicID.artist(station: station.id).text)])
        }
    }

    public func stationName(_ station: String) -> String? {
        catalogue?.station(id: station)?.name ?? albums.first { $0.station == station }?.stationName
    }
}

/// Podcasts as the API shows them: a followed feed is a channel, its episodes play through `stream`.
public enum SubsonicPodcasts {
    public static func channel(_ podcast: Podcast, episodes: [PodcastEpisode]?) -> SubsonicElement {
        let id = SubsonicID.podcast(podcast.id ?? 0).text
        var element = SubsonicElement(["id": .text(id), "url": .text(podcast.url), "title": .text(podcast.title),
                                       "description": podcast.description.map(SubsonicValue.text), "status": "completed",
                                       "coverArt": .text(id)])
        if let episodes {
            element.add("episode", .list(episodes.sorted { ($0.published ?? .distantPast) > ($1.published ?? .distantPast) }
                .map { episode(podcast: podcast, $0) }))
        }
        return element
    }

    /// An episode; downloaded or not, it plays through `stream` (a download from the box, else the feed's URL).
    public static func episode(podcast: Podcast, _ episode: PodcastEpisode) -> SubsonicElement {
        let id = SubsonicID.episode(episode.id ?? 0).text
        let channel = SubsonicID.podcast(podcast.id ?? 0).text
        let path = episode.file ?? URL(string: episode.url)?.path ?? ""
        return SubsonicElement([
            "id": .text(id), "streamId": .text(id), "channelId": .text(channel), "parent": .text(channel), "isDir": false,
            "title": .text(episode.title), "album": .text(podcast.title), "artist": .text(podcast.title),
            "description": episode.description.map(SubsonicValue.text), "status": "completed",
            "publishDate": episode.published.map { .text(SubsonicDate.text($0)) },
            "year": episode.published.map { .integer(Int64(SubsonicDate.year($0))) },
            "coverArt": .text(channel), "size": episode.length.map(SubsonicValue.integer),
            "contentType": .text(episode.mimeType ?? AudioFileType.mimeType(of: path)),
            "suffix": .text((path as NSString).pathExtension.lowercased()),
            "duration": episode.duration.map { .integer(Int64($0.rounded())) },
            "type": "podcast", "mediaType": "song", "isVideo": false,
        ])
    }
}

/// Dates as the API writes them: ISO 8601 in UTC with milliseconds.
public enum SubsonicDate {
    public static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }

    public static func year(_ date: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: date)
    }
}
