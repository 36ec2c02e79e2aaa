import Artwork
import Daemon
import Foundation
import Library
import Podcasts
import RadioModel
import Recording
import Scrobbling

/// A Subsonic request once its transport is read: the endpoint (`ping`, from `/rest/ping` or `/rest/ping.view`)
/// and its parameters, each possibly repeated (`id=…&id=…`), from the query and a posted form alike.
public struct SubsonicRequest: Sendable {
    public let endpoint: String
    public let parameters: [String: [String]]

    public init(endpoint: String, parameters: [String: [String]]) { (self.endpoint, self.parameters) = (endpoint, parameters) }

    public subscript(name: String) -> String? { parameters[name]?.first }

    func required(_ name: String) throws(SubsonicError) -> String {
        guard let value = self[name], !value.isEmpty else { throw SubsonicError.missing(name) }
        return value
    }

    func id(_ name: String = "id") throws(SubsonicError) -> SubsonicID {
        let text = try required(name)
        guard let id = SubsonicID(text) else { throw SubsonicError.notFound("'\(text.prefix(80))'") }
        return id
    }

    /// The distinct values of a repeated parameter, in order, at most `limit` of them (each one is work in the database).
    func ids(_ names: String..., limit: Int = 500) throws(SubsonicError) -> [String] {
        var seen = Set<String>(), ids: [String] = []
        for value in names.flatMap({ parameters[$0] ?? [] }) where seen.insert(value).inserted { ids.append(value) }
        guard ids.count <= limit else { throw SubsonicError(.generic, "\(ids.count) ids in one request: onair takes \(limit) at most") }
        return ids
    }

    /// A count or offset: absent gives `fallback`; at most `limit`.
    func number(_ name: String, _ fallback: Int, limit: Int = 500) throws(SubsonicError) -> Int {
        guard let text = self[name] else { return fallback }
        guard let value = Int(text), value >= 0 else { throw SubsonicError(.generic, "'\(name)' must be a whole number, not '\(text.prefix(20))'") }
        return min(value, limit)
    }
}

/// What an endpoint answers: an element of the envelope, or audio for the transport to send.
public enum SubsonicOutcome: Sendable {
    case answer((String, SubsonicElement.Child)?)
    /// A file to send with ranges, read only if it lies under `within`.
    case file(String, within: URL)
    /// An episode that is not downloaded: its feed's own address.
    case redirect(String)
    /// Cover art, from the box's artwork cache.
    case image(Artwork)
}

/// The endpoints, over the daemon's stores. Everything here may block (SQLite, PostgreSQL, the catalogue's
/// file): it runs inside `DaemonFacade.perform`.
public struct SubsonicEndpoints {
    let daemon: BlockingDaemon
    /// The live mount of a station on this daemon, as an app outside the browser opens it (with its secret token).
    let streamURL: (Station) -> String

    public init(daemon: BlockingDaemon, streamURL: @escaping (Station) -> String) {
        (self.daemon, self.streamURL) = (daemon, streamURL)
    }

    public func answer(_ request: SubsonicRequest) throws(SubsonicError) -> SubsonicOutcome {
        switch request.endpoint {
        case "ping": return .answer(nil)
        case "getLicense":
            return .answer(("license", .one(SubsonicElement(["valid": true]))))
        case "getOpenSubsonicExtensions":
            return .answer(("openSubsonicExtensions", .list([
                SubsonicElement(["name": "apiKeyAuthentication"]).adding("versions", .values([1])),
                SubsonicElement(["name": "formPost"]).adding("versions", .values([1])),
            ])))
        case "getMusicFolders":
            return .answer(("musicFolders", .one(SubsonicElement().adding("musicFolder", .list([Self.folder])))))
        case "getUser":
            return .answer(("user", .one(SubsonicElement([
                "username": .text(SubsonicCredential.userName), "email": "", "scrobblingEnabled": true, "adminRole": false, "settingsRole": false,
                "downloadRole": true, "uploadRole": false, "playlistRole": false, "coverArtRole": true, "commentRole": false,
                "podcastRole": false, "streamRole": true, "jukeboxRole": false, "shareRole": false,
            ]).adding("folder", .values([1])))))
        case "getIndexes", "getArtists": return .answer(try indexes(request))
        case "getArtist": return .answer(try artist(request))
        case "getMusicDirectory": return .answer(try directory(request))
        case "getAlbumList", "getAlbumList2": return .answer(try albumList(request))
        case "getAlbum": return .answer(try album(request))
        case "getSong": return .answer(try song(request))
        case "search2", "search3": return .answer(try search(request))
        case "getStarred", "getStarred2": return .answer(try starred(request))
        case "star", "unstar": return .answer(try star(request, request.endpoint == "star"))
        case "stream", "download": return try audio(request)
        case "getCoverArt": return try coverArt(request)
        case "getInternetRadioStations":
            let stations = try library().radioStations(streamURL: streamURL)
            return .answer(("internetRadioStations", .one(SubsonicElement().adding("internetRadioStation", .list(stations)))))
        case "getPodcasts": return .answer(try podcasts(request))
        case "getNewestPodcasts": return .answer(try newestPodcasts(request))
        case "scrobble": return .answer(try scrobble(request))
        case "getPlayQueue": return .answer(try playQueue())
        case "savePlayQueue": return .answer(try savePlayQueue(request))
        default:
            throw SubsonicError(.notFound, "the endpoint '\(request.endpoint.prefix(60))' is not offered by onair")
        }
    }

    static let folder = SubsonicElement(["id": 1, "name": "Recordings"])

    // MARK: Browsing

    private func indexes(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let library = try library()
        let artists = library.artists
        let groups = Dictionary(grouping: artists) { artist in
            artist.name.first.map { $0.isLetter ? String($0).uppercased() : "#" } ?? "#"
        }
        let index = groups.keys.sorted().map { letter in
            SubsonicElement(["name": .text(letter)])
                .adding("artist", .list(groups[letter]!.map { library.artistElement(station: $0.station, name: $0.name, albums: $0.albums) }))
        }
        let newest = library.albums.first?.recordings.first?.startUTC ?? Date(timeIntervalSince1970: 0)
        var element = SubsonicElement(["ignoredArticles": ""])
        if request.endpoint == "getIndexes" { element["lastModified"] = .integer(Int64(newest.timeIntervalSince1970 * 1000)) }
        return (request.endpoint == "getIndexes" ? "indexes" : "artists", .one(element.adding("index", .list(index))))
    }

    private func artist(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        guard case .artist(let station) = try request.id() else { throw SubsonicError.notFound("that artist") }
        let library = try library()
        let albums = library.albums(ofStation: station)
        guard let name = library.stationName(station), !albums.isEmpty else { throw SubsonicError.notFound("that artist") }
        return ("artist", .one(library.artistElement(station: station, name: name, albums: albums.count)
            .adding("album", .list(albums.map(library.albumElement)))))
    }

    /// The folder view older clients browse: a station's albums, an album's tracks.
    private func directory(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let library = try library()
        switch try request.id() {
        case .artist(let station):
            let albums = library.albums(ofStation: station)
            guard let name = library.stationName(station), !albums.isEmpty else { throw SubsonicError.notFound("that directory") }
            return ("directory", .one(SubsonicElement(["id": .text(SubsonicID.artist(station: station).text), "name": .text(name)])
                .adding("child", .list(albums.map(library.albumElement)))))
        case .album(let key):
            guard let album = library.album(key) else { throw SubsonicError.notFound("that directory") }
            return ("directory", .one(SubsonicElement(["id": .text(SubsonicID.album(key).text), "name": .text(album.name),
                                                       "parent": .text(SubsonicID.artist(station: album.station).text)])
                .adding("child", .list(album.recordings.map { library.songElement($0, in: album) }))))
        default:
            throw SubsonicError.notFound("that directory")
        }
    }

    private func albumList(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let type = try request.required("type")
        let library = try library()
        var albums = library.albums  // newest first
        switch type {
        case "newest", "recent", "frequent", "highest": break
        case "alphabeticalByName": albums.sort { $0.name.lowercased() < $1.name.lowercased() }
        case "alphabeticalByArtist": albums.sort { ($0.stationName.lowercased(), $0.name.lowercased()) < ($1.stationName.lowercased(), $1.name.lowercased()) }
        case "random": albums.shuffle()
        case "starred": albums = albums.filter { library.albumElement($0)["starred"] != nil }
        case "byYear":
            guard let from = Int(try request.required("fromYear")), let to = Int(try request.required("toYear")) else {
                throw SubsonicError(.generic, "fromYear and toYear must be years")
            }
            albums = albums.filter { (min(from, to)...max(from, to)).contains(SubsonicDate.year($0.recordings[0].startUTC)) }
            if from > to { albums.reverse() }
        case "byGenre": _ = try request.required("genre"); albums = []
        default: throw SubsonicError(.generic, "the list type '\(type.prefix(40))' is not one the API defines")
        }
        let page = albums.dropFirst(try request.number("offset", 0, limit: Int.max)).prefix(try request.number("size", 10))
        return (request.endpoint == "getAlbumList" ? "albumList" : "albumList2",
                .one(SubsonicElement().adding("album", .list(page.map(library.albumElement)))))
    }

    private func album(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let library = try library()
        guard case .album(let key) = try request.id(), let album = library.album(key) else { throw SubsonicError.notFound("that album") }
        return ("album", .one(library.albumElement(album).adding("song", .list(album.recordings.map { library.songElement($0, in: album) }))))
    }

    private func song(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let library = try library()
        guard case .recording(let id) = try request.id(), let (recording, album) = library.recording(id) else {
            throw SubsonicError.notFound("that song")
        }
        return ("song", .one(library.songElement(recording, in: album)))
    }

    /// Names containing the query, case and accents ignored. An empty query (`""`, as some apps send to
    /// fetch everything for their own offline index) matches all.
    private func search(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        var query = (request["query"] ?? "").trimmingCharacters(in: .whitespaces)
        if query.hasPrefix("\""), query.hasSuffix("\""), query.count >= 2 { query = String(query.dropFirst().dropLast()) }
        let wanted = Catalogue.fold(query)
        let matches: (String) -> Bool = { wanted.isEmpty || Catalogue.fold($0).contains(wanted) }
        let library = try library()
        let artists = library.artists.filter { matches($0.name) }
        let albums = library.albums.filter { matches($0.name) || matches($0.stationName) }
        let songs = library.albums.flatMap { album in album.recordings.map { (album, $0) } }
            .filter { album, recording in matches(SubsonicLibrary.title(of: recording)) || matches(album.name) || matches(album.stationName) }
        func page<T>(_ items: [T], _ name: String) throws(SubsonicError) -> ArraySlice<T> {
            items.dropFirst(try request.number("\(name)Offset", 0, limit: Int.max)).prefix(try request.number("\(name)Count", 20))
        }
        let result = SubsonicElement()
            .adding("artist", .list(try page(artists, "artist").map { library.artistElement(station: $0.station, name: $0.name, albums: $0.albums) }))
            .adding("album", .list(try page(albums, "album").map(library.albumElement)))
            .adding("song", .list(try page(songs, "song").map { library.songElement($0.1, in: $0.0) }))
        return (request.endpoint == "search2" ? "searchResult2" : "searchResult3", .one(result))
    }

    // MARK: Likes

    private func starred(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let library = try library()
        let albums = library.albums.filter { library.albumElement($0)["starred"] != nil }
        let songs = library.albums.flatMap { album in album.recordings.map { (album, $0) } }
            .map { library.songElement($0.1, in: $0.0) }.filter { $0["starred"] != nil }
        return (request.endpoint == "getStarred" ? "starred" : "starred2",
                .one(SubsonicElement().adding("artist", .list([])).adding("album", .list(albums.map(library.albumElement))).adding("song", .list(songs))))
    }

    /// Stars are the library's likes: a recording, an episode, or a programme's album. Every id is checked before any is
    /// changed, so a request is done whole or not at all.
    private func star(_ request: SubsonicRequest, _ liked: Bool) throws(SubsonicError) -> (String, SubsonicElement.Child)? {
        let ids = try request.ids("id", "albumId", "artistId")
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        let library = try library(), stores = try stores()
        var items: [LibraryItem] = []
        for text in ids {
            switch SubsonicID(text) {
            case .recording(let id)? where library.recording(id) != nil:
                items.append(LibraryItem(kind: .recording, ref: String(id), title: ""))
            case .album(.programme(let programme))? where library.album(.programme(programme)) != nil:
                items.append(LibraryItem(kind: .programme, ref: programme, title: ""))
            case .episode(let id)? where (try? stores.podcasts.episode(id: id)) != nil:
                items.append(LibraryItem(kind: .episode, ref: String(id), title: ""))
            default:
                throw SubsonicError.notFound("'\(text.prefix(80))' (tracks, episodes and programmes' albums take a star)")
            }
        }
        for item in items {
            do { _ = try stores.library.setLiked(item, liked) } catch { throw SubsonicError(.generic, "\(error)") }
        }
        return nil
    }

    // MARK: Audio

    private func audio(_ request: SubsonicRequest) throws(SubsonicError) -> SubsonicOutcome {
        switch try request.id() {
        case .recording(let id):
            guard let (recording, _) = try library().recording(id) else { throw SubsonicError.notFound("that recording") }
            return .file(recording.file, within: daemon.paths.recordings)
        case .episode(let id):
            let stores = try stores()
            guard let episode = try podcast({ () throws(PodcastError) in try stores.podcasts.episode(id: id) }) else {
                throw SubsonicError.notFound("that episode")
            }
            if let file = episode.file, FileManager.default.fileExists(atPath: file) {
                return .file(file, within: PodcastFetch.downloads(in: daemon.paths.data))
            }
            guard let url = URL(string: episode.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                throw SubsonicError.notFound("a playable address for that episode")
            }
            return .redirect(episode.url)
        default:
            throw SubsonicError.notFound("audio for that id (a station plays from its streamUrl)")
        }
    }

    /// A station's logo for anything of the station (itself, its albums, its recordings); podcasts have none yet.
    private func coverArt(_ request: SubsonicRequest) throws(SubsonicError) -> SubsonicOutcome {
        let station: String
        switch try request.id() {
        case .artist(let id), .radio(let id), .album(.station(let id)): station = id
        case .album(.programme(let programme)):
            guard let recording = try index({ () throws(RecordingError) in try daemon.recordings.all() }).first(where: { $0.programme == programme })
            else { throw SubsonicError.notFound("cover art for that album") }
            station = recording.station
        case .recording(let id):
            guard let recording = try index({ () throws(RecordingError) in try daemon.recordings.recording(id: id) }) else {
                throw SubsonicError.notFound("cover art for that recording")
            }
            station = recording.station
        case .podcast, .episode:
            throw SubsonicError.notFound("cover art for podcasts (onair keeps none yet)")
        }
        guard let found = try? daemon.catalogue().station(id: station),
              let artwork = ArtworkCache(directory: daemon.paths.cache.appendingPathComponent("artwork")).logo(of: found) else {
            throw SubsonicError.notFound("a logo for that station")
        }
        return .image(artwork)
    }

    // MARK: Podcasts

    private func podcasts(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let stores = try stores()
        let includeEpisodes = request["includeEpisodes"] != "false"
        var followed = try podcast { () throws(PodcastError) in try stores.podcasts.podcasts() }
        if let text = request["id"] {
            guard case .podcast(let id)? = SubsonicID(text) else { throw SubsonicError.notFound("that podcast") }
            followed = followed.filter { $0.id == id }
            guard !followed.isEmpty else { throw SubsonicError.notFound("that podcast") }
        }
        let channels = try followed.map { (podcast) throws(SubsonicError) -> SubsonicElement in
            let episodes = includeEpisodes ? try self.podcast { () throws(PodcastError) in try stores.podcasts.episodes(of: podcast.id ?? 0) } : nil
            return SubsonicPodcasts.channel(podcast, episodes: episodes)
        }
        return ("podcasts", .one(SubsonicElement().adding("channel", .list(channels))))
    }

    private func newestPodcasts(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child) {
        let stores = try stores()
        let followed = try podcast { () throws(PodcastError) in try stores.podcasts.podcasts() }
        var episodes: [(Podcast, PodcastEpisode)] = []
        for podcast in followed {
            episodes += try self.podcast { () throws(PodcastError) in try stores.podcasts.episodes(of: podcast.id ?? 0) }.map { (podcast, $0) }
        }
        episodes.sort { ($0.1.published ?? .distantPast) > ($1.1.published ?? .distantPast) }
        let newest = episodes.prefix(try request.number("count", 20)).map { SubsonicPodcasts.episode(podcast: $0.0, $0.1) }
        return ("newestPodcasts", .one(SubsonicElement().adding("episode", .list(newest))))
    }

    // MARK: What was heard, and the queue

    /// A submission marks the item heard (the web app and `onair play` then count it as heard), puts it in the
    /// history and, when `onair scrobble login` set an account, sends it to ListenBrainz; `submission=false` says
    /// what plays now, which only ListenBrainz is told.
    private func scrobble(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child)? {
        let submission = request["submission"] != "false"
        // What plays now is one thing: the last id named.
        let ids = submission ? try request.ids("id") : Array((request.parameters["id"] ?? []).suffix(1))
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        let stores = try stores()
        let catalogue = try? daemon.catalogue()  // read once for all the ids (a file)
        let times = request.parameters["time"] ?? []
        for (index, text) in ids.enumerated() {
            let started = index < times.count ? Self.instant(milliseconds: times[index]) : Date()
            let played = try played(text, stores, catalogue)
            // ListenBrainz takes no listen without an artist (a podcast without a title).
            let listen = played.artist.isEmpty ? nil : Listen(artist: played.artist, track: played.track, listenedAt: started, service: nil)
            guard submission else { listen.map(daemon.playingNow); continue }
            do {
                try stores.positions.savePosition(of: played.file, seconds: 0, heard: true)
                try stores.positions.addHistory(kind: played.item.kind.rawValue, item: played.item.ref, name: played.item.title, started: started, seconds: 0)
            } catch {
                throw SubsonicError(.generic, "\(error)")
            }
            listen.map(daemon.heard)
        }
        return nil
    }

    /// A time an app gives (milliseconds since 1970) when it is one: from 1970 to a day from now, else now.
    static func instant(milliseconds text: String) -> Date {
        guard let milliseconds = Double(text), milliseconds.isFinite, milliseconds >= 0,
              milliseconds <= (Date().timeIntervalSince1970 + 24 * 3600) * 1000 else { return Date() }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// A recording or an episode played: what the player's memory keeps its place under, the item, and whose it is
    /// (the station, the podcast) and what (its title) for a listen.
    private func played(_ text: String, _ stores: LibraryStores, _ catalogue: Catalogue?) throws(SubsonicError)
        -> (file: String, item: LibraryItem, artist: String, track: String) {
        switch SubsonicID(text) {
        case .recording(let id)?:
            guard let recording = try index({ () throws(RecordingError) in try daemon.recordings.recording(id: id) }) else {
                throw SubsonicError.notFound("that recording")
            }
            let station = catalogue?.station(id: recording.station)?.name ?? recording.stationName
            return (recording.file, ItemResolver.item(recording), station, SubsonicLibrary.title(of: recording))
        case .episode(let id)?:
            guard let episode = try podcast({ () throws(PodcastError) in try stores.podcasts.episode(id: id) }) else {
                throw SubsonicError.notFound("that episode")
            }
            let podcast = try self.podcast { () throws(PodcastError) in try stores.podcasts.podcast(id: episode.podcast) }
            return (episode.file ?? episode.url, ItemResolver.item(episode), podcast?.title ?? "", episode.title)
        default:
            throw SubsonicError.notFound("'\(text.prefix(80))'")
        }
    }

    private func playQueue() throws(SubsonicError) -> (String, SubsonicElement.Child)? {
        let stores = try stores()
        let queue: PlayerStore.PlayQueue?
        do { queue = try stores.positions.playQueue() } catch { throw SubsonicError(.generic, "\(error)") }
        guard let queue else { return nil }
        let library = try library()
        var entries: [SubsonicElement] = []
        for reference in queue.items {
            guard let id = Self.subsonicID(ofReference: reference) else { continue }
            switch id {
            case .recording(let recordingID):
                if let (recording, album) = library.recording(recordingID) { entries.append(library.songElement(recording, in: album)) }
            case .episode(let episodeID):
                if let episode = try? stores.podcasts.episode(id: episodeID), let podcast = try? stores.podcasts.podcast(id: episode.podcast) {
                    entries.append(SubsonicPodcasts.episode(podcast: podcast, episode))
                }
            default: continue
            }
        }
        var element = SubsonicElement(["position": .integer(Int64(exactly: (min(max(queue.seconds, 0), 365 * 24 * 3600) * 1000).rounded()) ?? 0), "username": .text(SubsonicCredential.userName),
                                       "changed": .text(SubsonicDate.text(queue.changed)), "changedBy": .text(queue.changedBy)])
        if let current = queue.current.flatMap(Self.subsonicID(ofReference:)) { element["current"] = .text(current.text) }
        return ("playQueue", .one(element.adding("entry", .list(entries))))
    }

    private func savePlayQueue(_ request: SubsonicRequest) throws(SubsonicError) -> (String, SubsonicElement.Child)? {
        let ids = request.parameters["id"] ?? []
        guard ids.count <= 2_000 else { throw SubsonicError(.generic, "a queue of \(ids.count) items is more than onair keeps (2,000)") }
        var references: [String] = []
        for text in ids {
            guard let reference = SubsonicID(text).flatMap(Self.reference(of:)) else {
                throw SubsonicError.notFound("'\(text.prefix(80))' (a queue holds tracks and episodes)")
            }
            references.append(reference)
        }
        let current = try request["current"].map { (text) throws(SubsonicError) -> String in
            guard let reference = SubsonicID(text).flatMap(Self.reference(of:)), references.contains(reference) else {
                throw SubsonicError(.generic, "'current' is not one of the queue's ids")
            }
            return reference
        }
        // Milliseconds, at most a year's worth.
        let position = Double(try request.number("position", 0, limit: 365 * 24 * 3600 * 1000)) / 1000
        let client = String(decoding: Array((request["c"] ?? "a Subsonic app").utf8.prefix(100)), as: UTF8.self)
        let stores = try stores()
        do {
            try stores.positions.savePlayQueue(PlayerStore.PlayQueue(items: references, current: current, seconds: position,
                                                                     changed: Date(), changedBy: client))
        } catch {
            throw SubsonicError(.generic, "\(error)")
        }
        return nil
    }

    static func reference(of id: SubsonicID) -> String? {
        switch id {
        case .recording(let id): "recording:\(id)"
        case .episode(let id): "episode:\(id)"
        default: nil
        }
    }

    static func subsonicID(ofReference reference: String) -> SubsonicID? {
        let parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = Int64(parts[1]) else { return nil }
        switch parts[0] {
        case "recording": return .recording(id)
        case "episode": return .episode(id)
        default: return nil
        }
    }

    // MARK: The stores

    private func library() throws(SubsonicError) -> SubsonicLibrary {
        let stores = try stores()
        let recordings = try index { () throws(RecordingError) in try daemon.recordings.all() }
        do {
            return SubsonicLibrary(recordings: recordings, catalogue: try? daemon.catalogue(),
                                   hidden: try stores.library.hiddenReferences(), liked: Set(try stores.library.liked().map(\.reference)))
        } catch {
            throw SubsonicError(.generic, "\(error)")
        }
    }

    private func stores() throws(SubsonicError) -> LibraryStores {
        do { return try daemon.library() } catch { throw SubsonicError(.generic, "\(error)") }
    }

    private func index<T>(_ body: () throws(RecordingError) -> T) throws(SubsonicError) -> T {
        do { return try body() } catch { throw SubsonicError(.generic, "\(error)") }
    }

    private func podcast<T>(_ body: () throws(PodcastError) -> T) throws(SubsonicError) -> T {
        do { return try body() } catch { throw SubsonicError(.generic, "\(error)") }
    }
}
