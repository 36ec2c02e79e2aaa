import HTTPServing
import Hummingbird
import Outputs

/// The first thing every request meets, credentials or not: a `Host` this server does not answer to is
/// 421 (DNS rebinding), and a request that changes state from another site is 403 (cross-site request
/// forgery by a page the owner happens to visit; see `SitePolicy`).
struct SiteGuard: RouterMiddleware {
    typealias Context = ClientRequestContext
    let policy: SitePolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let host = request.head.authority  // HTTP/1's Host header, as HTTPTypes keeps it
        guard policy.answers(host: host) else {
            throw AccessMiddleware.refusal(.misdirectedRequest,
                                           "this server does not answer to '\(SitePolicy.printable(host ?? ""))': use its address or localhost, "
                                           + "or start the daemon with --allow-host NAME (or --public-url URL) for a name of yours",
                                           path: path)
        }
        if AccessMiddleware.changesState(request.method),
           let reason = policy.crossSiteReason(origin: request.headers[.origin], fetchSite: request.headers.first { $0.name.canonicalName == "sec-fetch-site" }?.value, host: host) {
            throw AccessMiddleware.refusal(.forbidden, reason, path: path)
        }
        return try await next(request, context)
    }
}
