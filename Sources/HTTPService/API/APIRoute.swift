import APIContract
import Daemon
import Engine
import Foundation
import HTTPServing
import Hummingbird
import OpenAPIHummingbird
import Library
import Outputs
import RadioModel
import StreamInput

/// An operation of the API answered by hand rather than by the glue generated from openapi.yaml: its method,
/// its path as the document writes it, and what answers. A test holds these and the generated operations
/// together against the document both ways.
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

/// The HTTP API over the daemon: what `/api/v1` answers. Most operations implement the protocol generated
/// from openapi.yaml (`APIProtocol`); those in `routes` are answered by hand, because the generated glue
/// cannot do what they do: stream a file with ranges or an event stream, send the document as written, or
/// send a list encoded once rather than per request (the hot lists, BENCHMARKS.md api-latency).
/// A handler does what blocks (the stores, the catalogue, jobs) inside `perform`, off Swift's cooperative
/// pool; reading the request's body and streaming a response stay outside.
struct API: APIProtocol {
    let facade: DaemonFacade
    let live: LiveMounts
    let stationAnswers = EncodedAnswers<[Station], String>()
    /// Pages of the recordings list by (station, programme, limit, offset), at the index's revision.
    let recordingPages = EncodedAnswers<Int64, [String?]>()

    var routes: [APIRoute] {
        stationRoutes + recordingRoutes + [
            APIRoute(.get, "/api/openapi.json") { _, _ in OpenAPIDocument.response() },
            APIRoute(.get, "/api/v1/events") { _, _ in try EventsRoute.response(facade.events) },
        ]
    }

    /// Every operation served, hand-written and generated.
    var operations: [APIOperation] {
        routes.map { APIOperation(method: $0.method, path: $0.path) } + GeneratedGlue.operations(of: self)
    }

    func add(to router: Router<ClientRequestContext>) throws {
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in try await route.handler(request, context) }
        }
        let generated = router.group().add(middleware: GeneratedRoutesMiddleware())
        try registerHandlers(on: generated, serverURL: URL(string: "/")!, configuration: GeneratedGlue.configuration,
                             middlewares: GeneratedGlue.middlewares)
    }

    /// Runs `work` with the daemon's blocking side, on the facade's threads.
    func perform<T: Sendable>(_ work: @escaping @Sendable (BlockingDaemon) throws -> T) async throws -> T {
        try await facade.perform(work)
    }

    /// `text` when it is an http(s) URL with a host; 422 otherwise (a guide or a feed is fetched from the
    /// web, never read from the box's files).
    func webAddress(_ text: String, of field: String) throws -> String {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !(url.host ?? "").isEmpty else {
            throw APIError.invalid("\(field) must be an http(s) URL, not \"\(text)\"")
        }
        return text
    }
}

/// A store's failure (the database) is the box's problem, not the request's: 503 with its message.
func stored<T, Failure: Error>(_ body: () throws(Failure) -> T) throws -> T {
    do { return try body() } catch { throw APIError(.serviceUnavailable, "\(error)") }
}

extension BlockingDaemon {
    /// The library's stores, or a 503 saying why they cannot be opened (the database is the box's problem).
    func libraryStores() throws -> LibraryStores {
        do {
            return try library()
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
