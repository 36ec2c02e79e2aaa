import Foundation
import HTTPServing
import Hummingbird
import Library
import Media
import Scrobbling
import Store

/// What the web app's player (`/assets/app.js`) asks the box, in JSON: the entries a page's Play or Queue button
/// names, and the play queue the daemon keeps for every player of the box (`PlayerStore.PlayQueue`, which Subsonic apps
/// share), so a phone and a laptop resume where the other stopped. Saving it needs the page's CSRF token, as a form does.
enum PlayerRoutes {
    /// What the browser sends when the queue, the item playing or its position changes.
    struct SavedQueue: Decodable, Sendable {
        var items: [String]
        var current: String?
        var seconds: Double?
        /// The current item was played to its end.
        var heard: Bool?
        /// The item the player just left part-way, and where: its resume point.
        var left: String?
        var leftSeconds: Double?
    }

    struct Queue: Encodable, Sendable {
        var items: [PlayerEntry]
        /// The index of the item playing in `items`.
        var current: Int?
        var seconds: Double
        var changedBy: String?
    }

    struct Listed: Encodable, Sendable {
        var name: String
        var items: [PlayerEntry]
    }

    static let changedBy = "web app"
    /// A position is kept as a year at most (a hostile or broken client's 1e300 is no position).
    static let longestPosition: Double = 366 * 86_400

    static func add(to router: Router<ClientRequestContext>, services: WebServices) {
        @Sendable func perform<T: Encodable & Sendable>(_ work: @escaping @Sendable (PageServices) throws -> T) async throws -> Response {
            let value = try await services.facade.perform { daemon in try work(try PageServices(daemon, feedAddress: services.feedAddress)) }
            return json(value)
        }

        router.get("/player/queue") { _, _ in
            try await perform { pages in try queue(pages) }
        }
        router.put("/player/queue") { request, _ in
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: 64 * 1024) } catch {
                throw HTTPError(.contentTooLarge, message: "a queue is sent in 64 KiB at most")
            }
            let saved: SavedQueue
            do { saved = try JSONDecoder().decode(SavedQueue.self, from: Data(buffer: body)) } catch {
                throw HTTPError(.badRequest, message: "the queue was not understood: send {\"items\": [...], \"current\": ..., \"seconds\": ...}")
            }
            return try await perform { pages in try save(saved, pages) }
        }
        router.get("/player/entries") { request, _ in
            guard let reference = request.uri.queryParameters["ref"].map(String.init), !reference.isEmpty else {
                throw HTTPError(.badRequest, message: "say what to play: ?ref=recording:12, programme:ID, podcast:ID, playlist:ID or station:ID")
            }
            return try await perform { pages -> Listed in
                let entries = try PlayerEntries(services: pages)
                guard let items = try entries.entries(for: reference) else {
                    throw HTTPError(.notFound, message: "nothing this box plays is called \(reference.prefix(80))")
                }
                return Listed(name: SystemPlaylist(reference: reference)?.name ?? items.first?.title ?? reference, items: items)
            }
        }
    }

    static func queue(_ pages: PageServices) throws -> Queue { try queue(PlayerEntries(services: pages)) }

    private static func queue(_ entries: PlayerEntries) throws -> Queue {
        guard let kept = try entries.services.positions.playQueue() else { return Queue(items: [], current: nil, seconds: 0, changedBy: nil) }
        let items = try kept.items.compactMap(entries.entry)
        return Queue(items: items, current: items.firstIndex { $0.ref == kept.current }, seconds: kept.seconds, changedBy: kept.changedBy)
    }

    /// Keeps the queue, where its current item was left (for `onair play` and the item's page too), when the item
    /// playing changed, a line of history, and an item played to its end is a listen (as `onair play` sends one). An item that is no longer there or was hidden meanwhile is dropped; a name
    /// that is no playable item is refused.
    static func save(_ saved: SavedQueue, _ pages: PageServices) throws -> Queue {
        guard saved.items.count <= PlayerEntries.maxItems else {
            throw HTTPError(.contentTooLarge, message: "a queue of \(saved.items.count) items is more than onair keeps (\(PlayerEntries.maxItems))")
        }
        for reference in saved.items + [saved.current, saved.left].compactMap({ $0 })
        where !PlayerEntries.playableKinds.contains(reference.split(separator: ":").first.map(String.init) ?? "") {
            throw HTTPError(.unprocessableContent, message: "a queue holds stations, recordings and episodes, not \(reference.prefix(80))")
        }
        let entries = try PlayerEntries(services: pages)
        let kept = try saved.items.compactMap(entries.entry)
        let current = kept.first { $0.ref == saved.current }
        let seconds = bounded(saved.seconds)
        let before = try pages.positions.playQueue()
        try pages.positions.savePlayQueue(PlayerStore.PlayQueue(items: kept.map(\.ref), current: current?.ref, seconds: current?.live == true ? 0 : seconds,
                                                                 changed: Date(), changedBy: changedBy))
        if let left = saved.left, left != current?.ref, let entry = try entries.entry(left) {
            try keepPosition(of: entry, seconds: bounded(saved.leftSeconds), heard: false, pages)
        }
        if let current {
            try keepPosition(of: current, seconds: seconds, heard: saved.heard ?? false, pages)
            if before?.current != current.ref, let kind = current.ref.split(separator: ":").first {
                try pages.positions.addHistory(kind: String(kind), item: current.ref, name: current.title, started: Date(), seconds: 0)
            }
        }
        return try queue(entries)
    }

    private static func bounded(_ seconds: Double?) -> Double {
        guard let seconds, seconds.isFinite else { return 0 }
        return min(max(seconds, 0), longestPosition)
    }

    private static func keepPosition(of entry: PlayerEntry, seconds: Double, heard: Bool, _ pages: PageServices) throws {
        let parts = entry.ref.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let id = Int64(parts[1]) else { return }
        switch parts[0] {
        case "recording":
            guard let recording = try pages.recordings.recording(id: id) else { return }
            try pages.positions.savePosition(of: recording.file, seconds: heard ? recording.duration : min(seconds, recording.duration), heard: heard)
            if heard {
                listen(PlayableItem(path: recording.file, title: ItemResolver.item(recording).title, artist: recording.stationName), recording.duration, pages)
            }
        case "episode":
            guard let episode = try pages.podcasts.episode(id: id) else { return }
            try pages.positions.savePosition(of: episode, seconds: min(seconds, episode.duration ?? seconds), heard: heard)
            if heard {
                let podcast = try pages.podcasts.podcast(id: episode.podcast)
                listen(PlayableItem(path: episode.url, title: episode.title, artist: podcast?.title), episode.duration ?? seconds, pages)
            }
        default:
            return
        }
    }

    private static func listen(_ played: PlayableItem, _ duration: Double, _ pages: PageServices) {
        Listen(played: played, to: duration, of: duration, toItsEnd: true, startedAt: Date().addingTimeInterval(-duration)).map(pages.heard)
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
