import HTTPServing
import HTTPTypes
import Hummingbird

/// The outermost middleware: every answer, a refusal too, says what it is (`nosniff`: an image is an image), stays out
/// of other sites' frames (clickjacking) and sends no address with a secret token on to another site; every page runs
/// only the box's own script and loads only the box's own files, so a script that slipped into a page's text could
/// neither run nor send anything away.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ClientRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for (name, value) in Self.everyResponse where response.headers[name] == nil { response.headers[name] = value }
        if response.headers[.contentType]?.hasPrefix("text/html") == true, response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.pagePolicy
        }
        return response
    }

    static let everyResponse: [(HTTPField.Name, String)] = [
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"), (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Referrer-Policy")!, "same-origin"),
    ]

    /// Audio may come from elsewhere (a podcast's enclosure); the aired page places its marks with `style` attributes.
    static let pagePolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; media-src 'self' https: http:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}
