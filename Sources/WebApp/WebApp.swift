import HTTPServing
import Hummingbird
import Outputs

/// The web app: server-rendered pages for a phone or a laptop, added to the daemon's HTTP router, and the player
/// that plays on while a person moves between them (`/assets/app.js`, `PlayerRoutes`). It owns
/// `/` (Listen now), `/search`, `/player/…`, `/artwork/…`, `/manifest.webmanifest`, `/sw.js`, `/stations…`, `/guide…`, `/schedule…`, `/recordings…`, `/podcasts…`, `/episodes/…`, `/playlists…`,
/// `/library/marks`, `/status` and `/assets/…`; forms post to these pages, which hand the same requests to
/// the libraries as the CLI and the API do.
public enum WebApp {
    public static func addRoutes(to router: Router<ClientRequestContext>, services: WebServices) {
        let renderer = PageRenderer()
        // Every page reads SQLite or asks the directory: blocking work, done inside the facade's `perform`
        // (its own threads, never Swift's cooperative pool), one per request. Its forms carry the CSRF token
        // of the request's login. When the library's stores cannot be opened, the page says so (503), as a
        // page that cannot read what it shows does.
        @Sendable func page(_ request: Request, _ make: @escaping @Sendable (Pages) throws -> RenderedPage) async throws -> Response {
            var renderer = renderer
            (renderer.csrf, renderer.loggedIn) = await services.forms(request)
            let section = Pages.section(of: request.uri.path)
            return try await services.facade.perform { [renderer] (daemon) -> RenderedPage in
                let pageServices: PageServices
                do {
                    pageServices = try PageServices(daemon, feedAddress: services.feedAddress)
                } catch {
                    return Pages.unavailable("\(error)", section: section, renderer: renderer)
                }
                return try make(Pages(services: pageServices, renderer: renderer))
            }.response
        }
        @Sendable func form<Form: Decodable & Sendable>(_ type: Form.Type, _ request: Request) async throws -> Form {
            let body = try await request.body.collect(upTo: 64 * 1024)
            do {
                return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
            } catch {
                throw HTTPError(.badRequest, message: "the form was not understood")
            }
        }

        Assets.add(to: router)
        PlayerRoutes.add(to: router, services: services)
        ArtworkRoutes.add(to: router, services: services)

        router.get("/") { request, _ in
            try await page(request) { pages in pages.listenNow(notice: request.uri.queryParameters["notice"].map(String.init)) }
        }
        router.get("/search") { request, _ in
            let query = request.uri.queryParameters["q"].map(String.init) ?? ""
            return try await page(request) { pages in pages.search(query) }
        }

        router.get("/stations") { request, _ in
            let query = request.uri.queryParameters
            return try await page(request) { pages in pages.stations(query: query["q"].map(String.init), directory: query["directory"].map(String.init),
                                                   notice: query["notice"].map(String.init)) }
        }
        router.post("/stations/add") { request, _ in
            let added = try await form(DirectoryPick.self, request)
            return try await page(request) { pages in pages.addFromDirectory(added) }
        }
        router.get("/stations/:id") { request, context in
            let id = try context.parameters.require("id")
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in try pages.station(id: id, notice: notice) }
        }
        router.post("/stations/:id/jobs") { request, context in
            let id = try context.parameters.require("id")
            let job = try await form(JobForm.self, request)
            return try await page(request) { pages in try pages.startJob(station: id, job) }
        }
        router.post("/stations/:id/jobs/:job/stop") { request, context in
            let (id, job) = (try context.parameters.require("id"), try context.parameters.require("job", as: Int64.self))
            return try await page(request) { pages in try pages.stopJob(job, returningTo: "/stations/\(id)") }
        }

        router.get("/schedule") { request, _ in
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in pages.schedule(notice: notice) }
        }
        router.post("/schedule/rules") { request, _ in
            let rule = try await form(RuleForm.self, request)
            return try await page(request) { pages in pages.addRule(rule) }
        }
        router.post("/schedule/rules/:rule/:action") { request, context in
            let rule = try context.parameters.require("rule", as: Int64.self)
            let action = try context.parameters.require("action")
            return try await page(request) { pages in try pages.changeRule(rule, action) }
        }

        router.get("/recordings") { request, _ in
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in pages.recordings(notice: notice) }
        }
        router.get("/recordings/:id") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            let start = request.uri.queryParameters["t"].flatMap { Double(String($0)) }
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in try pages.recording(id: id, start: start, notice: notice) }
        }
        router.post("/recordings/:id/delete") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await page(request) { pages in try pages.deleteRecording(id: id) }
        }
        router.post("/recordings/:id/keep") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await page(request) { pages in try pages.setKept(id: id, true) }
        }
        router.post("/recordings/:id/unkeep") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await page(request) { pages in try pages.setKept(id: id, false) }
        }
        router.get("/guide") { request, _ in
            let query = request.uri.queryParameters
            return try await page(request) { pages in
                pages.guide(channel: query["channel"].flatMap { Display.given(String($0)) }, date: query["date"].flatMap { Display.given(String($0)) },
                            notice: query["notice"].map(String.init))
            }
        }
        router.get("/aired") { request, _ in
            let query = request.uri.queryParameters
            return try await page(request) { pages in
                pages.aired(date: query["date"].flatMap { Display.given(String($0)) }, kind: query["kind"].flatMap { Display.given(String($0)) })
            }
        }
        router.post("/guide/record") { request, _ in
            let record = try await form(GuideRecordForm.self, request)
            return try await page(request) { pages in pages.recordFromGuide(record) }
        }

        router.get("/podcasts") { request, _ in
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in pages.podcasts(notice: notice) }
        }
        router.post("/podcasts") { request, _ in
            let follow = try await form(FollowForm.self, request)
            return try await page(request) { pages in pages.follow(follow) }
        }
        router.post("/podcasts/refresh") { request, _ in
            try await page(request) { pages in try pages.refreshPodcasts(nil) }
        }
        router.get("/podcasts/:id") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in try pages.podcast(id: id, notice: notice) }
        }
        router.post("/podcasts/:id/refresh") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await page(request) { pages in try pages.refreshPodcasts(id) }
        }
        router.get("/episodes/:id") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in try pages.episode(id: id, notice: notice) }
        }

        router.get("/playlists") { request, _ in
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in pages.playlists(notice: notice) }
        }
        router.post("/playlists") { request, _ in
            let create = try await form(PlaylistForm.self, request)
            return try await page(request) { pages in try pages.createPlaylist(create) }
        }
        router.post("/playlists/add") { request, _ in
            let add = try await form(AddItemForm.self, request)
            return try await page(request) { pages in try pages.addToPlaylist(add) }
        }
        router.get("/playlists/:id") { request, context in
            let id = try context.parameters.require("id")
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in try pages.playlist(id: id, notice: notice) }
        }
        router.post("/playlists/:id/delete") { request, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await page(request) { pages in try pages.deletePlaylist(id: id) }
        }
        router.post("/playlists/:id/items/:position/remove") { request, context in
            let (id, position) = (try context.parameters.require("id", as: Int64.self), try context.parameters.require("position", as: Int.self))
            return try await page(request) { pages in try pages.removeFromPlaylist(id: id, position: position) }
        }
        router.post("/playlists/:id/items/:position/move") { request, context in
            let (id, position) = (try context.parameters.require("id", as: Int64.self), try context.parameters.require("position", as: Int.self))
            let move = try await form(MoveForm.self, request)
            return try await page(request) { pages in try pages.moveInPlaylist(id: id, from: position, move) }
        }
        router.post("/library/marks") { request, _ in
            let mark = try await form(MarkForm.self, request)
            return try await page(request) { pages in try pages.mark(mark) }
        }

        router.post("/status/jobs/:job/stop") { request, context in
            let job = try context.parameters.require("job", as: Int64.self)
            return try await page(request) { pages in try pages.stopJob(job, returningTo: "/status") }
        }
        router.get("/status") { request, _ in
            let notice = request.uri.queryParameters["notice"].map(String.init)
            return try await page(request) { pages in pages.status(notice: notice) }
        }
    }
}
