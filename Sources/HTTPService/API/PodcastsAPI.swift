import APIContract
import Foundation
import Library
import Podcasts

/// `/api/v1/podcasts`: the podcasts followed — listed, followed by their feed's URL, refreshed (with
/// the validators of the copy read last, so an unchanged feed is a 304 and no parse), attached to the
/// programme they publish (its recordings and their episodes are then one list), unfollowed — and
/// their episodes with where each was left and whether it was heard. Fetching a feed blocks on the
/// network, so it runs inside `perform`, off Swift's cooperative pool, as every store call here does.
extension API {
    func listPodcasts(_ input: Operations.ListPodcasts.Input) async throws -> Operations.ListPodcasts.Output {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            let podcasts = try stored { () throws(PodcastError) in try stores.podcasts.podcasts() }
            return .ok(.init(body: .json(.init(podcasts: try podcasts.map { try view($0, stores) }))))
        }
    }

    func followPodcast(_ input: Operations.FollowPodcast.Input) async throws -> Operations.FollowPodcast.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let url = try webAddress(body.url, of: "url")
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
            let followed = try refreshed(outcome, warnings: warnings, stores)
            // Following a podcast followed already refreshes it: 200, not 201.
            return known ? .ok(.init(body: .json(followed))) : .created(.init(body: .json(followed)))
        }
    }

    func refreshPodcasts(_ input: Operations.RefreshPodcasts.Input) async throws -> Operations.RefreshPodcasts.Output {
        try await perform { daemon in
            let stores = try daemon.libraryStores()
            var results: [Components.Schemas.PodcastRefresh] = []
            for podcast in try stored({ () throws(PodcastError) in try stores.podcasts.podcasts() }) {
                var warnings: [String] = []
                do {
                    let outcome = try stores.podcastFetch.refresh(podcast, warn: { warnings.append($0) })
                    results.append(try refreshed(outcome, warnings: warnings, stores))
                } catch {
                    results.append(.init(podcast: try view(podcast, stores), notModified: false, added: 0, warnings: warnings, error: "\(error)"))
                }
            }
            return .ok(.init(body: .json(.init(podcasts: results))))
        }
    }

    func getPodcast(_ input: Operations.GetPodcast.Input) async throws -> Operations.GetPodcast.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            return .ok(.init(body: .json(try view(try podcast(id, stores), stores))))
        }
    }

    func unfollowPodcast(_ input: Operations.UnfollowPodcast.Input) async throws -> Operations.UnfollowPodcast.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            let summary = try view(try podcast(id, stores), stores)
            _ = try stored { () throws(PodcastError) in try stores.podcastFetch.unfollow(id) }
            return .ok(.init(body: .json(summary)))
        }
    }

    func refreshPodcast(_ input: Operations.RefreshPodcast.Input) async throws -> Operations.RefreshPodcast.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            let followed = try podcast(id, stores)
            var warnings: [String] = []
            do {
                let outcome = try stores.podcastFetch.refresh(followed, warn: { warnings.append($0) })
                return .ok(.init(body: .json(try refreshed(outcome, warnings: warnings, stores))))
            } catch {
                throw APIError(.badGateway, "\(error)")
            }
        }
    }

    func attachPodcast(_ input: Operations.AttachPodcast.Input) async throws -> Operations.AttachPodcast.Output {
        let id = input.path.id
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let programme = body.programme
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            guard let item = try stored({ () throws(LibraryError) in try resolver(stores, daemon).item(kind: .programme, ref: programme) }) else {
                throw APIError.invalid("no programme \"\(programme)\" in the catalogue or the recordings")
            }
            return .ok(.init(body: .json(try attach(id, to: item.ref, stores))))
        }
    }

    func detachPodcast(_ input: Operations.DetachPodcast.Input) async throws -> Operations.DetachPodcast.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            return .ok(.init(body: .json(try attach(id, to: nil, stores))))
        }
    }

    func listPodcastEpisodes(_ input: Operations.ListPodcastEpisodes.Input) async throws -> Operations.ListPodcastEpisodes.Output {
        let id = input.path.id
        return try await perform { daemon in
            let stores = try daemon.libraryStores()
            _ = try podcast(id, stores)
            let episodes = try stored { () throws(PodcastError) in try stores.podcasts.episodes(of: id) }
            return .ok(.init(body: .json(.init(episodes: try episodes.map { try view($0, stores) }))))
        }
    }

    private func podcast(_ id: Int64, _ stores: LibraryStores) throws -> Podcast {
        guard let found = try stored({ () throws(PodcastError) in try stores.podcasts.podcast(id: id) }) else {
            throw APIError.notFound("no podcast \(id)")
        }
        return found
    }

    /// Attaches the podcast to a programme (nil: detaches it), as `onair podcasts attach` does.
    private func attach(_ id: Int64, to programme: String?, _ stores: LibraryStores) throws -> Components.Schemas.Podcast {
        guard try stored({ () throws(PodcastError) in try stores.podcasts.attach(id, to: programme) }) else {
            throw APIError.notFound("no podcast \(id)")
        }
        return try view(try podcast(id, stores), stores)
    }

    /// The podcast with how many episodes it has, and `item`, how playlists, likes and `onair play` name it.
    private func view(_ podcast: Podcast, _ stores: LibraryStores) throws -> Components.Schemas.Podcast {
        let episodes = try stored { () throws(PodcastError) in try stores.podcasts.episodes(of: podcast.id ?? 0).count }
        let id = Int(podcast.id ?? 0)
        return .init(id: id, url: podcast.url, title: podcast.title, description: podcast.description, programme: podcast.programme,
                     checkedAt: podcast.checkedAt, changedAt: podcast.changedAt, episodes: episodes, item: "podcast:\(id)")
    }

    /// The episode with where playing it last stopped (nil if it never was) and whether it was played to its end.
    private func view(_ episode: PodcastEpisode, _ stores: LibraryStores) throws -> Components.Schemas.PodcastEpisode {
        let position = try stored { () throws(LibraryError) in try stores.position(of: episode) }
        let id = Int(episode.id ?? 0)
        return .init(id: id, podcast: Int(episode.podcast), title: episode.title, description: episode.description,
                     published: episode.published, url: episode.url, mimeType: episode.mimeType, length: episode.length.map(Int.init),
                     duration: episode.duration, chaptersURL: episode.chaptersURL,
                     downloaded: episode.file.map { FileManager.default.fileExists(atPath: $0) } ?? false,
                     position: position?.seconds, heard: position?.heard ?? false, item: "episode:\(id)")
    }

    private func refreshed(_ outcome: PodcastFetch.Outcome, warnings: [String], _ stores: LibraryStores) throws -> Components.Schemas.PodcastRefresh {
        switch outcome {
        case .updated(let podcast, let added):
            .init(podcast: try view(podcast, stores), notModified: false, added: added, warnings: warnings)
        case .notModified(let podcast):
            .init(podcast: try view(podcast, stores), notModified: true, added: 0, warnings: warnings)
        }
    }
}
