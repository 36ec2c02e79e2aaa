import Foundation
import Hummingbird
import Library
import Podcasts

/// `/api/v1/podcasts`: the podcasts followed — listed, followed by their feed's URL, refreshed (with
/// the validators of the copy read last, so an unchanged feed is a 304 and no parse), attached to the
/// programme they publish (its recordings and their episodes are then one list), unfollowed — and
/// their episodes with where each was left and whether it was heard. Fetching a feed blocks on the
/// network, so it runs inside `perform`, off Swift's cooperative pool, as every store call here does.
extension API {
    var podcastRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/podcasts") { _, _ in
                try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let podcasts = try stored { () throws(PodcastError) in try stores.podcasts.podcasts() }
                    return JSONResponse.make(PodcastList(podcasts: try podcasts.map { try view($0, stores) }))
                }
            },
            APIRoute(.post, "/api/v1/podcasts") { request, _ in
                let url = try webAddress(try await request.decodeJSON(PodcastRequest.self).url, of: "url")
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let known = try stored { () throws(PodcastError) in try stores.podcasts.podcast(url: url) } != nil
                    let outcome: PodcastFetch.Outcome
                    var warnings: [String] = []
                    do {
                        outcome = try stores.podcastFetch.add(url, warn: { warnings.append($0) })
                    } catch {
                        // The URL did not give a feed: no answer, an error status, or not RSS or Atom.
                        throw APIError.invalid("\(error)")
                    }
                    return JSONResponse.make(try refreshed(outcome, warnings: warnings, stores), status: known ? .ok : .created)
                }
            },
            APIRoute(.post, "/api/v1/podcasts/refresh") { _, _ in
                try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    var results: [PodcastRefresh] = []
                    for podcast in try stored({ () throws(PodcastError) in try stores.podcasts.podcasts() }) {
                        var warnings: [String] = []
                        do {
                            let outcome = try stores.podcastFetch.refresh(podcast, warn: { warnings.append($0) })
                            results.append(try refreshed(outcome, warnings: warnings, stores))
                        } catch {
                            results.append(PodcastRefresh(podcast: try view(podcast, stores), notModified: false, added: 0,
                                                          warnings: warnings, error: "\(error)"))
                        }
                    }
                    return JSONResponse.make(PodcastRefreshList(podcasts: results))
                }
            },
            APIRoute(.get, "/api/v1/podcasts/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    return JSONResponse.make(try view(try podcast(id, stores), stores))
                }
            },
            APIRoute(.delete, "/api/v1/podcasts/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let summary = try view(try podcast(id, stores), stores)
                    _ = try stored { () throws(PodcastError) in try stores.podcastFetch.unfollow(id) }
                    return JSONResponse.make(summary)
                }
            },
            APIRoute(.post, "/api/v1/podcasts/{id}/refresh") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    let followed = try podcast(id, stores)
                    var warnings: [String] = []
                    do {
                        let outcome = try stores.podcastFetch.refresh(followed, warn: { warnings.append($0) })
                        return JSONResponse.make(try refreshed(outcome, warnings: warnings, stores))
                    } catch {
                        throw APIError(.badGateway, "\(error)")
                    }
                }
            },
            APIRoute(.put, "/api/v1/podcasts/{id}/programme") { request, context in
                let id = try context.id()
                let programme = try await request.decodeJSON(ProgrammeAttachment.self).programme
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    guard let item = try stored({ () throws(LibraryError) in try resolver(stores, daemon).item(kind: .programme, ref: programme) }) else {
                        throw APIError.invalid("no programme \"\(programme)\" in the catalogue or the recordings")
                    }
                    return try attach(id, to: item.ref, stores)
                }
            },
            APIRoute(.delete, "/api/v1/podcasts/{id}/programme") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    return try attach(id, to: nil, stores)
                }
            },
            APIRoute(.get, "/api/v1/podcasts/{id}/episodes") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    let stores = try daemon.libraryStores()
                    _ = try podcast(id, stores)
                    let episodes = try stored { () throws(PodcastError) in try stores.podcasts.episodes(of: id) }
                    return JSONResponse.make(PodcastEpisodeList(episodes: try episodes.map { episode in
                        let position = try stored { () throws(LibraryError) in try stores.position(of: episode) }
                        return PodcastEpisodeView(episode, position: position?.seconds, heard: position?.heard ?? false)
                    }))
                }
            },
        ]
    }

    private func podcast(_ id: Int64, _ stores: LibraryStores) throws -> Podcast {
        guard let found = try stored({ () throws(PodcastError) in try stores.podcasts.podcast(id: id) }) else {
            throw APIError.notFound("no podcast \(id)")
        }
        return found
    }

    /// Attaches the podcast to a programme (nil: detaches it), as `onair podcasts attach` does.
    private func attach(_ id: Int64, to programme: String?, _ stores: LibraryStores) throws -> Response {
        guard try stored({ () throws(PodcastError) in try stores.podcasts.attach(id, to: programme) }) else {
            throw APIError.notFound("no podcast \(id)")
        }
        return JSONResponse.make(try view(try podcast(id, stores), stores))
    }

    private func view(_ podcast: Podcast, _ stores: LibraryStores) throws -> PodcastView {
        PodcastView(podcast, episodes: try stored { () throws(PodcastError) in try stores.podcasts.episodes(of: podcast.id ?? 0).count })
    }

    private func refreshed(_ outcome: PodcastFetch.Outcome, warnings: [String], _ stores: LibraryStores) throws -> PodcastRefresh {
        switch outcome {
        case .updated(let podcast, let added):
            PodcastRefresh(podcast: try view(podcast, stores), notModified: false, added: added, warnings: warnings, error: nil)
        case .notModified(let podcast):
            PodcastRefresh(podcast: try view(podcast, stores), notModified: true, added: 0, warnings: warnings, error: nil)
        }
    }
}

/// What `POST /api/v1/podcasts` takes.
struct PodcastRequest: Decodable { let url: String }

/// What `PUT /api/v1/podcasts/{id}/programme` takes: the programme the podcast publishes.
struct ProgrammeAttachment: Decodable { let programme: String }

struct PodcastView: Encodable {
    let id: Int64
    let url: String
    let title: String
    let description: String?
    /// The catalogue programme it is attached to (`onair podcasts attach`).
    let programme: String?
    let checkedAt: Date?
    let changedAt: Date?
    let episodes: Int
    /// How playlists, likes and `onair play` name it.
    let item: String

    init(_ podcast: Podcast, episodes: Int) {
        id = podcast.id ?? 0; url = podcast.url; title = podcast.title; description = podcast.description
        programme = podcast.programme; checkedAt = podcast.checkedAt; changedAt = podcast.changedAt
        self.episodes = episodes
        item = "podcast:\(id)"
    }
}

struct PodcastList: Encodable { let podcasts: [PodcastView] }

struct PodcastRefresh: Encodable {
    let podcast: PodcastView
    /// The server answered 304: the feed has not changed since it was read last.
    let notModified: Bool
    /// Episodes new in this copy of the feed.
    let added: Int
    /// What the feed gets wrong but was read anyway (an undeclared namespace, no title), one line each.
    let warnings: [String]
    /// Why this podcast's feed could not be refreshed (`POST /api/v1/podcasts/refresh` goes on with the others).
    let error: String?
}

struct PodcastRefreshList: Encodable { let podcasts: [PodcastRefresh] }

struct PodcastEpisodeView: Encodable {
    let id: Int64
    let podcast: Int64
    let title: String
    let description: String?
    let published: Date?
    let url: String
    let mimeType: String?
    let length: Int64?
    let duration: Double?
    let chaptersURL: String?
    let downloaded: Bool
    /// Seconds into the episode where playing it last stopped; nil if it was never played.
    let position: Double?
    /// Played to its end once.
    let heard: Bool
    let item: String

    init(_ episode: PodcastEpisode, position: Double?, heard: Bool) {
        id = episode.id ?? 0; podcast = episode.podcast; title = episode.title; description = episode.description
        published = episode.published; url = episode.url; mimeType = episode.mimeType; length = episode.length
        duration = episode.duration; chaptersURL = episode.chaptersURL
        downloaded = episode.file.map { FileManager.default.fileExists(atPath: $0) } ?? false
        self.position = position; self.heard = heard
        item = "episode:\(id)"
    }
}

struct PodcastEpisodeList: Encodable { let episodes: [PodcastEpisodeView] }
