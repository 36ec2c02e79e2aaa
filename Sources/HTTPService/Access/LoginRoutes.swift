import Foundation
import HTTPServing
import Hummingbird
import NIOPosix
import Outputs
import XMLInput

/// `GET /login` (the form), `POST /login` (the password: a session cookie, HttpOnly and SameSite=Strict, and
/// Secure when a TLS proxy forwarded the request),
/// `POST /logout`. Failed logins are counted per client address (the sixth within a minute is a 429) and
/// overall (`LoginThrottle`).
struct LoginRoutes: Sendable {
    let access: WebAccess

    func add(to router: Router<ClientRequestContext>) {
        router.get("/login") { request, _ in
            Self.page(next: request.uri.queryParameters["next"].map(String.init), error: nil, status: .ok)
        }
        router.post("/login") { request, context in
            let client = LoginThrottle.client(of: request, peer: context.remoteAddress?.ipAddress)
            if let wait = access.throttle.reserve(client) {
                return Self.page(next: nil, error: "Too many wrong passwords: try again in \(wait) s.", status: .tooManyRequests,
                                 headers: [.retryAfter: "\(wait)"])
            }
            let body = try await request.body.collect(upTo: 64 * 1024)
            let form = RequestParsing.LoginForm(parsing: String(buffer: body))
            let snapshot = try await access.snapshot()
            let password = form.password ?? ""
            let credentials = access.credentials
            let accepted = try await NIOThreadPool.singleton.runIfActive { credentials.verifyPassword(password, against: snapshot) }
            guard accepted else {
                let error = snapshot.passwordHash == nil ? "No password is set: set one with `onair web password` on the box."
                    : "Wrong password."
                return Self.page(next: form.next, error: error, status: .unauthorized)
            }
            access.throttle.succeeded(client)
            let cookie = try await access.sessions.save(session: WebAccess.Session(csrf: WebCredentials.randomHex()), expiresIn: WebAccess.sessionLength)
            var response = Response.redirect(to: RequestParsing.loginReturn(form.next) ?? "/", type: .normal)
            response.setCookie(Self.behindTLS(request) ? Self.secure(cookie) : cookie)
            return response
        }
        router.post("/logout") { request, _ in
            var response = Response.redirect(to: "/login", type: .normal)
            if let expired = try? await access.sessions.delete(request: request) { response.setCookie(expired) }
            return response
        }
    }

    /// A proxy in front of the daemon that ends TLS says so as nginx and Caddy do (`X-Forwarded-Proto: https`).
    /// Believing it costs nothing: it only ever adds the Secure attribute.
    private static func behindTLS(_ request: Request) -> Bool {
        request.headers.first { $0.name.canonicalName == "x-forwarded-proto" }?.value.lowercased() == "https"
    }

    /// `cookie` sent over HTTPS only: a browser that reached the box through TLS never sends it over plain HTTP.
    private static func secure(_ cookie: Cookie) -> Cookie {
        Cookie(name: cookie.name, value: cookie.value, expires: cookie.expires, maxAge: cookie.maxAge, domain: cookie.domain,
               path: cookie.path, secure: true, httpOnly: cookie.httpOnly, sameSite: cookie.sameSite ?? .strict)
    }

    private static func page(next: String?, error: String?, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        let nextField = RequestParsing.loginReturn(next).map { #"<input type="hidden" name="next" value="\#(XMLText.escaped($0))">"# } ?? ""
        let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Log in · onair</title>
        <link rel="stylesheet" href="/assets/app.css">
        </head>
        <body>
        <main id="main">
        <h1>Log in to onair</h1>
        \(error.map { #"<p class="error" role="alert">\#(XMLText.escaped($0))</p>"# } ?? "")
        <form method="post" action="/login" class="stack">
        <label>Password <input type="password" name="password" autocomplete="current-password" required autofocus></label>
        \(nextField)
        <button type="submit">Log in</button>
        </form>
        </main>
        </body>
        </html>
        """
        var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
