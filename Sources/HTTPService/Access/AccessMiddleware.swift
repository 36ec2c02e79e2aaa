import Foundation
import HTTPServing
import Hummingbird
import Outputs
import RadioModel

/// Lets a request through only as `WebAccess` says (see there). A bearer token needs nothing more; a
/// login cookie needs the session's CSRF token on every POST, PUT, PATCH and DELETE (`X-CSRF-Token`, or
/// the form field `csrf`). A request with none of these: pages go to `/login`, the rest is 401 JSON.
/// While no credential is set, the pages' forms still carry a token, the daemon's own (`WebAccess.formToken`):
/// a form posted from anywhere else does not have it. (`SiteGuard` has already refused other sites.)
/// Our own rather than hummingbird-auth's authenticator middlewares: those give one answer for a missing
/// login, and here a page redirects, the API says 401 and a feed also takes its `?token=`.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ClientRequestContext
    let access: WebAccess

    /// What anyone may fetch: the login page, the web app's static files under `/assets/` (its script, stylesheet,
    /// icons and offline page), its manifest and service worker (a browser fetches a manifest without cookies), and
    /// the API's description.
    static let open: Set<String> = ["/login", "/api/openapi.json", "/manifest.webmanifest", "/sw.js"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // The Subsonic API's requests carry their own credentials, which its route checks (`SubsonicRoutes`).
        if Self.open.contains(path) || path.hasPrefix("/assets/") || path.hasPrefix("/rest/") { return try await next(request, context) }
        let credentials = try await access.snapshot()
        guard credentials.isConfigured else {
            // The API takes JSON only (GeneratedRoutesMiddleware: 415 otherwise), which no page of another site can send unasked.
            guard !Self.isMachineFacing(path) else { return try await next(request, context) }
            return try await Self.requiring(access.formToken, request, context, next,
                                            else: "this form is out of date (it does not carry the token of this daemon's pages): reload the page and try again")
        }

        if let authorization = request.headers[.authorization] {
            guard let token = RequestParsing.bearerToken(authorization), credentials.accepts(token: token) else {
                throw APIError(.unauthorized, "the bearer token is not one of this box's: create one with `onair web token create NAME`",
                               headers: [.wwwAuthenticate: "Bearer"])
            }
            return try await next(request, context)
        }
        if [.get, .head].contains(request.method), let token = request.uri.queryParameters["token"],
           credentials.acceptsFeedToken(String(token), for: path) {
            return try await next(request, context)
        }
        if let session = try? await access.sessions.load(request: request) {
            return try await Self.requiring(session.csrf, request, context, next,
                                            else: "this form is out of date (its CSRF token does not match the login): reload the page and try again")
        }
        if !Self.isMachineFacing(path) {
            let back = request.uri.query.map { "\(path)?\($0)" } ?? path
            var components = URLComponents()
            components.path = "/login"
            components.queryItems = [URLQueryItem(name: "next", value: back)]
            return .redirect(to: components.string ?? "/login", type: .normal)
        }
        throw APIError(.unauthorized, "log in at /login, or send `Authorization: Bearer TOKEN` (onair web token create NAME)",
                       headers: [.wwwAuthenticate: "Bearer"])
    }

    /// What programs fetch (they get a 401, not the login page).
    static func isMachineFacing(_ path: String) -> Bool {
        ["/api/", "/feeds/", "/live/", "/rest/"].contains { path.hasPrefix($0) } || path == "/metrics"
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool { [.post, .put, .patch, .delete].contains(method) }

    /// Lets the request through if it changes nothing, or carries `expected` as its CSRF token; else 403 saying `refusal`.
    static func requiring(_ expected: String, _ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response,
                          else refusal: String) async throws -> Response {
        guard changesState(request.method) else { return try await next(request, context) }
        var request = request
        guard let token = try await csrf(in: &request), Secrets.equal(token, expected) else {
            throw Self.refusal(.forbidden, refusal, path: request.uri.path)
        }
        return try await next(request, context)
    }

    /// The request's CSRF token: its header, else its form's `csrf` field (the body is kept for the route).
    static func csrf(in request: inout Request) async throws -> String? {
        if let header = request.headers.first(where: { $0.name.canonicalName == "x-csrf-token" }) { return header.value }
        guard request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true else { return nil }
        let body = try await request.collectBody(upTo: 64 * 1024)
        return RequestParsing.csrfField(inForm: String(buffer: body))
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String, path: String) -> any Error {
        isMachineFacing(path) ? APIError(status, message) : HTTPError(status, message: message)
    }
}
