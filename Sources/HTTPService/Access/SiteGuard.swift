import HTTPServing
import HTTPTypes
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
        var response = try await next(request, context)
        for (name, value) in Self.everyResponse where response.headers[name] == nil { response.headers[name] = value }
        if response.headers[.contentType]?.hasPrefix("text/html") == true, response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.pagePolicy
        }
        return response
    }

    /// No type guessed from the bytes (an image is an image), no framing by another site (clickjacking), no address
    /// with a secret token sent on to another site.
    static let everyResponse: [(HTTPField.Name, String)] = [
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"), (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Referrer-Policy")!, "same-origin"),
    ]

    /// A page runs only the box's own script and loads only the box's own files; a script that slipped into a page's
    /// text could neither run nor send anything away. Audio may come from elsewhere (a podcast's enclosure); the aired
    /// page places its marks with `style` attributes.
    static let pagePolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; media-src 'self' https: http:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}
