import Daemon
import Engine
import Foundation
import HTTPServing
import Hummingbird
import Outputs
import RadioModel
import StreamInput

/// Routes another module adds to the daemon's server (the web pages, `/metrics`), one call each.
public typealias HTTPRouteGroup = @Sendable (Router<ClientRequestContext>) -> Void

/// The daemon's one HTTP server, on Hummingbird: the API under `/api/v1` and its OpenAPI document,
/// the Subsonic API under `/rest/`, the podcast feeds, the recordings' audio, the live station mounts under `/live/`, and whatever
/// route groups the caller adds (the web app's pages). One port, one event loop group.
public final class HTTPServer: Sendable {
    public let address: HTTPAddress
    private let responder: RouterResponder<ClientRequestContext>
    private let running = Locked<ServingTask?>(nil)
    public let live: LiveMounts

    /// `access` guards every route (see `WebAccess`).
    public init(address: HTTPAddress, facade: DaemonFacade, site: SitePolicy = SitePolicy(), access: WebAccess? = nil,
                routeGroups: [HTTPRouteGroup] = []) {
        self.address = address
        let live = LiveMounts(facade: facade)
        self.live = live
        responder = Self.router(facade: facade, site: site, access: access, live: live, routeGroups: routeGroups).buildResponder()
    }

    /// The server's routes, guarded by `site` (always) and `access`, with `routeGroups` after them (the
    /// tests of the pages serve this in-process).
    public static func router(facade: DaemonFacade, site: SitePolicy = SitePolicy(), access: WebAccess?, live: LiveMounts? = nil,
                              routeGroups: [HTTPRouteGroup] = []) -> Router<ClientRequestContext> {
        let live = live ?? LiveMounts(facade: facade)
        let router = Router(context: ClientRequestContext.self)
        let api = API(facade: facade, live: live)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: APIErrorMiddleware(routes: api.operations))
        router.add(middleware: SiteGuard(policy: site))
        if let access {
            router.add(middleware: AccessMiddleware(access: access))
            LoginRoutes(access: access).add(to: router)
        }
        // The generated registration fails only for a path the document writes wrongly, which the tests would show.
        try! api.add(to: router)
        FeedRoutes(facade: facade, access: access, site: site).add(to: router)
        SubsonicRoutes(facade: facade, access: access, site: site).add(to: router)
        live.add(to: router)
        for group in routeGroups { group(router) }
        return router
    }

    /// The API's operations, for the test that holds them against the OpenAPI document.
    public static func apiOperations(facade: DaemonFacade) -> [APIOperation] {
        API(facade: facade, live: LiveMounts(facade: facade)).operations
    }

    /// Binds and starts serving; returns the port bound (the one asked for, or the system's pick for 0).
    /// A taken port or an address that cannot be bound fails here, before the daemon starts.
    public func start() throws -> Int {
        let (task, port) = try BoundedHTTPServer.start(responder, host: address.host, port: address.port)
        running.withLock { $0 = task }
        return port
    }

    /// Stops serving: live mounts leave their stations (their listeners' streams end), connections
    /// still open after `ServingTask`'s grace period (event streams) are closed.
    public func stop() {
        live.stopAll()
        running.withLock { running in defer { running = nil }; return running }?.stop()
    }
}
