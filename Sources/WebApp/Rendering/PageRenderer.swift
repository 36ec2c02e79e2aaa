import Foundation
import Hummingbird
import Mustache

/// A page's answer: HTML, or a redirect after a form (post/redirect/get, so a reload posts nothing twice).
enum RenderedPage: Sendable {
    case html(String, status: HTTPResponse.Status)
    case redirect(String)

    var response: Response {
        switch self {
        case .redirect(let location): return .redirect(to: location, type: .normal)
        case .html(let html, let status):
            return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        }
    }
}

/// Renders the pages' Mustache templates inside the layout. Every value goes through `{{…}}`, which
/// escapes HTML (`HTMLEscaping`): a station's title with `<script>` in it shows as text.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    /// The CSRF token put in every form that posts (`{{>csrf}}`): the login session's, or the daemon's own.
    var csrf: String?
    /// Whether a login session is in use: the layout offers to log out.
    var loggedIn = false

    init() {
        var library = MustacheLibrary()
        HTMLEscaping.registered
        for (name, text) in [("layout", Layout.template), ("csrf", Layout.csrfField)] + PageTemplates.all {
            do {
                try library.register(HTMLEscaping.pragma + text, named: name)
            } catch {
                preconditionFailure("the \(name) template does not parse: \(error)")
            }
        }
        self.library = library
    }

    func render(_ template: String, _ context: Any, status: HTTPResponse.Status = .ok) -> RenderedPage {
        guard let html = library.render(PageContext(view: context, csrf: csrf, loggedIn: loggedIn), withTemplate: template) else { preconditionFailure("no template \(template)") }
        return .html(html, status: status)
    }
}

/// A page's view with the request's CSRF token beside its own fields, found from any section of the template.
private struct PageContext: MustacheParent {
    let view: Any
    let csrf: String?
    let loggedIn: Bool

    func child(named name: String) -> Any? {
        if name == "csrf" { return csrf }
        if name == "loggedIn" { return loggedIn }
        guard let value = Mirror(reflecting: view).children.first(where: { $0.label == name })?.value else { return nil }
        let optional = Mirror(reflecting: value)
        return optional.displayStyle == .optional ? optional.children.first?.value : value
    }
}

/// What every page shows around its content: the title, the navigation, a notice or an error.
struct Chrome {
    struct Link {
        var href: String
        var label: String
        var current: Bool
    }

    var title: String
    var nav: [Link]
    var notice: String?
    var error: String?

    init(title: String, section: String, notice: String? = nil, error: String? = nil) {
        self.title = title
        nav = [("/", "Listen now"), ("/stations", "Stations"), ("/guide", "Guide"), ("/schedule", "Schedule"), ("/recordings", "Recordings"),
               ("/podcasts", "Podcasts"), ("/playlists", "Playlists"), ("/aired", "Aired"), ("/status", "Status")]
            .map { Link(href: $0.0, label: $0.1, current: $0.0 == section) }
        self.notice = notice
        self.error = error
    }
}

/// The page around each page's content (Mustache template inheritance: pages fill `{{$content}}`).
enum Layout {
    static let template = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="theme-color" content="#0b57d0">
    <meta name="onair-csrf" content="{{csrf}}">
    {{#chrome}}<title>{{title}} · onair</title>{{/chrome}}
    <link rel="manifest" href="/manifest.webmanifest">
    <link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
    <link rel="apple-touch-icon" href="/assets/icon-192.png">
    <link rel="stylesheet" href="/assets/app.css">
    <script src="/assets/app.js" defer></script>
    </head>
    <body>
    <a class="skip" href="#main">Skip to the content</a>
    <header class="top">
    <a class="brand" href="/">onair</a>
    <nav aria-label="Sections"><ul>
    {{#chrome.nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/chrome.nav}}
    </ul></nav>
    <form class="find" method="get" action="/search" role="search"><label for="find">Search</label>
    <input id="find" name="q" type="search"></form>
    {{#loggedIn}}<form method="post" action="/logout" class="logout">{{>csrf}}<button type="submit">Log out</button></form>{{/loggedIn}}
    </header>
    <main id="main" tabindex="-1">
    {{#chrome}}
    <h1>{{title}}</h1>
    {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
    {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
    {{/chrome}}
    {{$content}}{{/content}}
    </main>
    \(Player.template)
    </body>
    </html>
    """

    /// Inside every form that posts: the login's CSRF token (see `AccessMiddleware` in HTTPService).
    static let csrfField = #"{{#csrf}}<input type="hidden" name="csrf" value="{{csrf}}">{{/csrf}}"#
}
