import Engine
import Foundation
import HTTPServing
import Hummingbird
import Library
import Outputs
import RadioModel
import StreamInput

/// One operation of the API: its method, its path as the OpenAPI document writes it, and what answers.
/// The routes are served from this list, and a test checks the list against the document both ways.
public struct APIRoute: Sendable {
    public let method: HTTPRequest.Method
    public let path: String
    let handler: @Sendable (Request, ClientRequestContext) async throws -> Response

    init(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping @Sendable (Request, ClientRequestContext) async throws -> Response) {
        self.method = method
        self.path = path
        self.handler = handler
    }
}

/// The HTTP API over the daemon: what `/api/v1` answers.
struct API: Sendable {
    let daemon: DaemonService
    let catalogue: @Sendable () throws -> Catalogue
    /// The directory's client; nil when its configuration is broken (the search then says so).
    let makeDirectory: @Sendable () -> RadioBrowserClient?
    let live: LiveMounts
    /// Playlists, likes, hidden items, podcasts and play positions; the failure to open them, which
    /// their routes answer with (the rest of the API does not need them).
    let library: Result<LibraryStores, LibraryError>

    init(daemon: DaemonService, catalogue: @escaping @Sendable () throws -> Catalogue,
         makeDirectory: @escaping @Sendable () -> RadioBrowserClient?, live: LiveMounts) {
        (self.daemon, self.catalogue, self.makeDirectory, self.live) = (daemon, catalogue, makeDirectory, live)
        library = Result { () throws(LibraryError) in try LibraryStores(dataDirectory: daemon.paths.data) }
    }

    var routes: [APIRoute] {
        stationRoutes + directoryRoutes + jobRoutes + scheduleRoutes + recordingRoutes + statusRoutes + guideRoutes + podcastRoutes
            + playlistRoutes + markRoutes + [
            APIRoute(.get, "/api/openapi.json") { _, _ in OpenAPIDocument.response() },
            APIRoute(.get, "/api/v1/events") { _, _ in try EventsRoute.response(daemon.events) },
        ]
    }

    func add(to router: Router<ClientRequestContext>) {
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in try await route.handler(request, context) }
        }
    }

    /// `text` when it is an http(s) URL with a host; 422 otherwise (a guide or a feed is fetched from the
    /// web, never read from the box's files).
    func webAddress(_ text: String, of field: String) throws -> String {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !(url.host ?? "").isEmpty else {
            throw APIError.invalid("\(field) must be an http(s) URL, not \"\(text)\"")
        }
        return text
    }

    /// Runs a store's call: its failure (the database) is the box's problem, not the request's — 503 with its message.
    func stored<T, Failure: Error>(_ body: () throws(Failure) -> T) throws -> T {
        do { return try body() } catch { throw APIError(.serviceUnavailable, "\(error)") }
    }

    /// The library's stores, or a 503 saying why they cannot be opened (the database is the box's problem).
    func libraryStores() throws -> LibraryStores {
        do {
            return try library.get()
        } catch {
            throw APIError(.serviceUnavailable, "\(error)")
        }
    }

    /// The catalogue, or a 503 saying why it cannot be read (a broken stations.json is the box's problem, not the request's).
    func loadCatalogue() throws -> Catalogue {
        do {
            return try catalogue()
        } catch {
            throw APIError(.serviceUnavailable, "the station catalogue cannot be read: \(error)")
        }
    }
}
