import Daemon
import Engine
import Foundation
import HTTPServing
import Hummingbird
import Outputs
import RadioModel
import Recording
import XMLInput

/// The recordings as podcasts: `/feeds/all.xml`, `/feeds/station/ID.xml`, `/feeds/programme/ID.xml`.
/// RSS 2.0 with the itunes namespace and Podcasting 2.0 chapters; one item per finished recording,
/// newest first, its enclosure the recording's audio (which answers range requests), its image its
/// station's logo when the catalogue has one.
struct FeedRoutes: Sendable {
    let facade: DaemonFacade
    let access: WebAccess?
    /// The public URL, when set, is what the feeds' links start with (never the request's Host).
    let site: SitePolicy

    func add(to router: Router<ClientRequestContext>) {
        router.get("/feeds/all.xml") { request, _ in
            try await feed(request, including: { _ in true }) { _ in ("onair recordings", "Every recording of this onair box.") }
        }
        router.get("/feeds/station/{id}.xml") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await feed(request, station: id, including: { $0.station == id }) { daemon in
                let name = (try? daemon.catalogue().station(id: id))?.name
                return (name ?? id, "Recordings of \(name ?? id).")
            }
        }
        router.get("/feeds/programme/{id}.xml") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await feed(request, including: { $0.programme == id }) { _ in (id, "Recordings of the programme \(id).") }
        }
    }

    /// `station`: the station the feed is of; otherwise the one all its recordings come from, if any.
    /// `heading`: the feed's title and description (a station's feed names it as the catalogue does).
    /// The recordings index and the catalogue are read inside the facade's `perform`.
    private func feed(_ request: Request, station: String? = nil, including: @escaping @Sendable (IndexedRecording) -> Bool,
                      heading: @escaping @Sendable (BlockingDaemon) -> (title: String, description: String)) async throws -> Response {
        // Enclosures and chapters get their own secret addresses when the box has credentials.
        let snapshot = try await access?.snapshot()
        let address: @Sendable (String) -> String = { path in snapshot.map { access?.feedAddress(path, with: $0) ?? path } ?? path }
        // Without a public URL the Host names this box (SiteGuard admitted it: an address, localhost or an allowed name).
        let base = site.publicOrigin ?? "http://" + (request.head.authority ?? "127.0.0.1")
        return try await facade.perform { daemon in
            let (title, description) = heading(daemon)
            let all: [IndexedRecording]
            do { all = try daemon.recordings.all() } catch { throw APIError(.serviceUnavailable, "\(error)") }
            let chosen = all.filter(including).sorted { $0.startUTC > $1.startUTC }
            let channelTitle = chosen.first.map { entry in entry.programmeName ?? (title == entry.station ? entry.stationName : title) } ?? title
            let stations = try? daemon.catalogue()
            let logo: (String) -> String? = { stations?.station(id: $0)?.logo }
            let recordedStations = Set(chosen.map(\.station))
            let image = (station ?? (recordedStations.count == 1 ? recordedStations.first : nil)).flatMap(logo)
            let xml = RecordingsFeed(title: channelTitle, description: description, link: base + "/recordings", base: base, image: image,
                                  address: address, recordings: chosen, logo: logo).xml
            return Response(status: .ok, headers: [.contentType: "application/rss+xml; charset=utf-8", .cacheControl: "no-cache"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: xml)))
        }
    }
}
