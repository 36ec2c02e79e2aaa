import Engine
import Foundation
import Hummingbird
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

    var routes: [APIRoute] {
        stationRoutes + directoryRoutes + jobRoutes + scheduleRoutes + recordingRoutes + statusRoutes + [
            APIRoute(.get, "/api/openapi.json") { _, _ in OpenAPIDocument.response() },
            APIRoute(.get, "/api/v1/events") { _, _ in EventsRoute.response(daemon.events) },
        ]
    }

    func add(to router: Router<ClientRequestContext>) {
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in try await route.handler(request, context) }
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
