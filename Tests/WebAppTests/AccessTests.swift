import Foundation
import Hummingbird
import HTTPService
import HummingbirdTesting
import RadioModel
import Scheduling
import Store
import TestSupport
import XCTest

/// The server as `onair daemon` composes it, once the box has a password or a token: what a person is
/// asked, what an API client and a podcast app send, and what the database keeps.
final class AccessTests: XCTestCase {
    private static let password = "correct horse battery staple"
    private var harness: WebAppHarness!

    override func setUpWithError() throws {
        harness = try WebAppHarness(stations: [TestStations.station(id: "demo", name: "Demo FM", url: "http://127.0.0.1:9/demo.mp3")])
    }

    override func tearDown() {
        harness?.stop()
    }

    /// `body` against the server; with `access`, as a daemon started again on the same database serves.
    private func test<Value: Sendable>(access: WebAccess? = nil,
                                       _ body: @escaping @Sendable (any TestClientProtocol, WebAppHarness) async throws -> Value) async throws -> Value {
        let harness = try XCTUnwrap(self.harness)
        return try await harness.application(access: access).test(.router) { client in try await body(client, harness) }
    }

    /// The session cookie a login sets, as the browser sends it back.
    private static func cookie(of login: TestResponse) throws -> String {
        String(try XCTUnwrap(login.headers[.setCookie]).prefix { $0 != ";" })
    }

    /// Logs in with the password; the session's cookie, as the browser sends it back.
    private static func logIn(_ client: any TestClientProtocol, password: String = AccessTests.password) async throws -> TestResponse {
        try await client.execute(uri: "/login", method: .post, headers: WebForm.headers, body: WebForm.body(["password": password, "next": "/schedule"]))
    }

    /// What each address answers a GET without credentials.
    private static func statuses(_ client: any TestClientProtocol, _ uris: [String]) async throws -> [String: HTTPResponse.Status] {
        var statuses: [String: HTTPResponse.Status] = [:]
        for uri in uris { statuses[uri] = try await client.execute(uri: uri, method: .get).status }
        return statuses
    }

    func testWithoutCredentialsNothingIsAskedOnThisMachine() async throws {
        try await test { client, _ in
            let statuses = try await Self.statuses(client, ["/api/v1/stations", "/stations", "/feeds/all.xml"])
            XCTAssertEqual(statuses, ["/api/v1/stations": .ok, "/stations": .ok, "/feeds/all.xml": .ok])
        }
    }

    func testWithAPasswordTheAPIWantsABearerTokenAndPagesGoToTheLogin() async throws {
        try harness.credentials.setPassword(Self.password)
        let token = try harness.credentials.createToken(name: "phone")
        XCTAssertTrue(token.hasPrefix("onair_") && token.count > 60, token)
        try await test { client, harness in
            let refused = try await client.execute(uri: "/api/v1/stations", method: .get)
            XCTAssertEqual(refused.status, .unauthorized)
            XCTAssertEqual(refused.headers[.wwwAuthenticate], "Bearer")
            XCTAssertTrue(String(buffer: refused.body).contains(#""error""#), String(buffer: refused.body))
            let wrong = try await client.execute(uri: "/api/v1/stations", method: .get, headers: [.authorization: "Bearer onair_nope"])
            XCTAssertEqual(wrong.status, .unauthorized)
            let allowed = try await client.execute(uri: "/api/v1/stations", method: .get, headers: [.authorization: "Bearer \(token)"])
            XCTAssertEqual(allowed.status, .ok)
            XCTAssertTrue(String(buffer: allowed.body).contains("Demo FM"))
            // A bearer request changes things without a CSRF token: this one reaches the route, which has no rule 999.
            let unknown = try await client.execute(uri: "/api/v1/schedule/rules/999/pause", method: .post, headers: [.authorization: "Bearer \(token)"])
            XCTAssertEqual(unknown.status, .notFound)

            let page = try await client.execute(uri: "/stations?q=demo", method: .get)
            XCTAssertEqual(page.status, .seeOther)
            let login = try XCTUnwrap(URLComponents(string: page.headers[.location] ?? ""))
            XCTAssertEqual(login.path, "/login")
            XCTAssertEqual(login.queryItems, [URLQueryItem(name: "next", value: "/stations?q=demo")], "back to the page after the login")
            let statuses = try await Self.statuses(client, ["/login", "/assets/app.css", "/api/openapi.json", "/live/demo", "/metrics"])
            XCTAssertEqual(statuses, ["/login": .ok, "/assets/app.css": .ok, "/api/openapi.json": .ok, "/live/demo": .unauthorized,
                                      "/metrics": .unauthorized])

            XCTAssertTrue(try harness.credentials.revokeToken(name: "phone"))
            let revoked = try await client.execute(uri: "/api/v1/stations", method: .get, headers: [.authorization: "Bearer \(token)"])
            XCTAssertEqual(revoked.status, .unauthorized, "a revoked token is refused at once")
        }
        // Only hashes are kept: neither the password nor the token is in the database file.
        let database = try Data(contentsOf: harness.paths.data.appendingPathComponent("onair.sqlite"))
        XCTAssertNil(database.range(of: Data(Self.password.utf8)))
        XCTAssertNil(database.range(of: Data(token.utf8)))
        XCTAssertNotNil(database.range(of: Data("$2b$12$".utf8)), "the password is kept as a bcrypt hash")
    }

    func testTheGuidePodcastAndPlaylistPagesNeedTheLoginAndTheirFormsTheCSRFToken() async throws {
        try harness.credentials.setPassword(Self.password)
        try await test { client, harness in
            for uri in ["/guide", "/podcasts", "/podcasts/1", "/episodes/1", "/playlists", "/playlists/liked"] {
                let page = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(page.status, .seeOther, uri)
                XCTAssertEqual(page.headers[.location].flatMap { URLComponents(string: $0)?.path }, "/login", uri)
            }
            let login = try await Self.logIn(client)
            let cookie = String(try XCTUnwrap(login.headers[.setCookie]).prefix { $0 != ";" })
            let page = String(buffer: try await client.execute(uri: "/playlists", method: .get, headers: [.cookie: cookie]).body)
            let field = try XCTUnwrap(page.range(of: #"name="csrf" value="[0-9a-f]{64}""#, options: .regularExpression), page)
            let csrf = String(page[field].dropFirst(#"name="csrf" value=""#.count).dropLast())
            XCTAssertTrue(page.contains(#"<form method="post" action="/playlists" class="stack"><input type="hidden" name="csrf" value="\#(csrf)">"#), page)
            let headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            for (uri, fields) in [("/playlists", ["name": "Forged"]), ("/podcasts", ["url": "http://127.0.0.1:9/feed.xml"]),
                                  ("/guide/record", ["station": "demo", "title": "News"]), ("/library/marks", ["item": "station:demo", "mark": "like"])] {
                let forged = try await client.execute(uri: uri, method: .post, headers: headers, body: WebForm.body(fields))
                XCTAssertEqual(forged.status, .forbidden, uri)
            }
            XCTAssertEqual(try harness.libraryStores.library.playlists().count, 0, "nothing was created without the token")
            XCTAssertEqual(try harness.libraryStores.library.liked().count, 0)
            let created = try await client.execute(uri: "/playlists", method: .post, headers: headers, body: WebForm.body(["name": "", "csrf": csrf]))
            XCTAssertEqual(created.status, .seeOther)
            XCTAssertEqual(try harness.libraryStores.library.playlists().map(\.playlist.name), ["New playlist"])
        }
    }

    func testALoginSetsAStrictHttpOnlyCookieAndItsFormsNeedTheCSRFToken() async throws {
        try harness.credentials.setPassword(Self.password)
        var request = RuleRequest(station: "demo")
        (request.on, request.duration) = ("2030-06-01T21:30", "1h")
        let rule = try harness.daemon.schedule.add(try request.rule(catalogueStation: nil, guide: nil).rule)
        try await test { client, harness in
            let login = try await Self.logIn(client)
            XCTAssertEqual(login.status, .seeOther)
            XCTAssertEqual(login.headers[.location], "/schedule")
            let setCookie = try XCTUnwrap(login.headers[.setCookie])
            XCTAssertTrue(setCookie.hasPrefix("onair_session="), setCookie)
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
                XCTAssertTrue(setCookie.contains(attribute), "\(attribute) missing from \(setCookie)")
            }
            XCTAssertFalse(setCookie.contains("Secure"), "plain HTTP: a Secure cookie would never come back")
            // Through a TLS proxy (as nginx or Caddy forward it) the cookie is for HTTPS only.
            var proxied = WebForm.headers
            proxied[.init("X-Forwarded-Proto")!] = "https"
            let throughTLS = try await client.execute(uri: "/login", method: .post, headers: proxied,
                                                      body: WebForm.body(["password": Self.password, "next": "/schedule"]))
            XCTAssertTrue(try XCTUnwrap(throughTLS.headers[.setCookie]).contains("; Secure"), "\(throughTLS.headers)")
            let cookie = String(setCookie.prefix { $0 != ";" })
            let page = String(buffer: try await client.execute(uri: "/schedule", method: .get, headers: [.cookie: cookie]).body)
            let field = try XCTUnwrap(page.range(of: #"name="csrf" value="[0-9a-f]{64}""#, options: .regularExpression), page)
            let csrf = String(page[field].dropFirst(#"name="csrf" value=""#.count).dropLast())
            XCTAssertTrue(page.contains(#"<form method="post" action="/schedule/rules/\#(rule.id!)/pause"><input type="hidden" name="csrf" value="\#(csrf)">"#), page)

            let forged = try await client.execute(uri: "/schedule/rules/\(rule.id!)/pause", method: .post,
                                                  headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"], body: ByteBuffer())
            XCTAssertEqual(forged.status, .forbidden)
            XCTAssertEqual(try harness.daemon.schedule.rule(id: rule.id!)?.paused, false, "a request without the CSRF token changed nothing")
            let wrongToken = try await client.execute(uri: "/schedule/rules/\(rule.id!)/pause", method: .post,
                                                      headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                                                      body: WebForm.body(["csrf": String(repeating: "0", count: 64)]))
            XCTAssertEqual(wrongToken.status, .forbidden)
            let paused = try await client.execute(uri: "/schedule/rules/\(rule.id!)/pause", method: .post,
                                                  headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"], body: WebForm.body(["csrf": csrf]))
            XCTAssertEqual(paused.status, .seeOther)
            XCTAssertEqual(try harness.daemon.schedule.rule(id: rule.id!)?.paused, true)
            // The API with the cookie: the token in X-CSRF-Token.
            let resumed = try await client.execute(uri: "/api/v1/schedule/rules/\(rule.id!)/resume", method: .post,
                                                   headers: [.cookie: cookie, .init("X-CSRF-Token")!: csrf])
            XCTAssertEqual(resumed.status, .ok, String(buffer: resumed.body))
            XCTAssertEqual(try harness.daemon.schedule.rule(id: rule.id!)?.paused, false)

            let logout = try await client.execute(uri: "/logout", method: .post, headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                                                  body: WebForm.body(["csrf": csrf]))
            XCTAssertEqual(logout.status, .seeOther)
            let afterLogout = try await client.execute(uri: "/schedule", method: .get, headers: [.cookie: cookie])
            XCTAssertEqual(afterLogout.status, .seeOther, "after logging out the cookie no longer lets anyone in")
        }
    }

    func testTheSixthWrongPasswordWithinAMinuteIsRefusedWithRetryAfter() async throws {
        try harness.credentials.setPassword(Self.password)
        try await test { client, _ in
            for _ in 1...5 {
                let wrong = try await Self.logIn(client, password: "guess")
                XCTAssertEqual(wrong.status, .unauthorized)
            }
            let sixth = try await Self.logIn(client, password: "guess")
            XCTAssertEqual(sixth.status, .tooManyRequests)
            let wait = try XCTUnwrap(Int(sixth.headers[.retryAfter] ?? ""))
            XCTAssertTrue((1...60).contains(wait), "Retry-After: \(wait)")
            let right = try await Self.logIn(client)
            XCTAssertEqual(right.status, .tooManyRequests, "not even the right password is tried until then")
        }
    }

    func testFeedsAndTheirEnclosuresOpenWithTheirOwnSecretToken() async throws {
        let entry = try harness.indexRecording(copying: try AudioFixtures.sine(seconds: 2), named: "morning.mp3", titles: [], duration: 2)
        try harness.credentials.setPassword(Self.password)
        try await test { client, _ in
            let refused = try await Self.statuses(client, ["/feeds/all.xml", "/feeds/all.xml?token=" + String(repeating: "a", count: 64)])
            XCTAssertEqual(Set(refused.values), [.unauthorized])

            let login = try await Self.logIn(client)
            let cookie = String(try XCTUnwrap(login.headers[.setCookie]).prefix { $0 != ";" })
            let page = String(buffer: try await client.execute(uri: "/recordings", method: .get, headers: [.cookie: cookie]).body)
            let link = try XCTUnwrap(page.range(of: #"/feeds/all\.xml\?token=[0-9a-f]{64}"#, options: .regularExpression), page)
            let feedAddress = String(page[link])
            let feed = try await client.execute(uri: feedAddress, method: .get)
            XCTAssertEqual(feed.status, .ok)
            let xml = String(buffer: feed.body)
            let enclosure = try XCTUnwrap(xml.range(of: #"/api/v1/recordings/\#(entry.id!)/audio\?token=[0-9a-f]{64}"#, options: .regularExpression), xml)
            let audio = try await client.execute(uri: String(xml[enclosure]), method: .get, headers: [.range: "bytes=0-99"])
            XCTAssertEqual(audio.status, .partialContent)
            XCTAssertEqual(audio.body.readableBytes, 100)
            XCTAssertNotNil(xml.range(of: #"/api/v1/recordings/\#(entry.id!)/chapters\.json\?token=[0-9a-f]{64}"#, options: .regularExpression))
            // A feed's token opens that feed only.
            let feedToken = String(feedAddress.split(separator: "=").last!)
            let elsewhere = try await Self.statuses(client, ["/api/v1/recordings/\(entry.id!)/audio?token=\(feedToken)",
                                                             "/api/v1/recordings?token=\(feedToken)"])
            XCTAssertEqual(Set(elsewhere.values), [.unauthorized])
        }
    }

    func testALoginOutlivesADaemonRestartAndANewPasswordEndsIt() async throws {
        try harness.credentials.setPassword(Self.password)
        let cookie = try await test { client, _ in try Self.cookie(of: try await Self.logIn(client)) }
        // The daemon started again: new services on the same database, nothing kept in memory.
        let restarted = WebAccess(credentials: try WebCredentials(database: OnairDatabase(directory: harness.paths.data)))
        try await test(access: restarted) { client, _ in
            let page = try await client.execute(uri: "/schedule", method: .get, headers: [.cookie: cookie])
            XCTAssertEqual(page.status, .ok, "the login made before the restart still opens the pages")
        }
        let database = try Data(contentsOf: harness.paths.data.appendingPathComponent(OnairDatabase.fileName))
        XCTAssertNil(database.range(of: Data(cookie.dropFirst("onair_session=".count).utf8)), "the cookie itself is not in the database")

        try harness.credentials.setPassword("a new password, typed on the box")
        try await test(access: restarted) { client, _ in
            let page = try await client.execute(uri: "/schedule", method: .get, headers: [.cookie: cookie])
            XCTAssertEqual(page.status, .seeOther, "a new password ends every login")
            XCTAssertTrue(page.headers[.location]?.hasPrefix("/login") == true)
        }
    }

    func testAFeedAddressStopsOpeningWhenTheFeedsAreRotatedOrThePasswordChanges() async throws {
        try harness.credentials.setPassword(Self.password)
        let given = harness.access.feedAddress("/feeds/all.xml")
        try await test { client, harness in
            let status = { (address: String) in try await client.execute(uri: address, method: .get).status }
            let before = try await status(given)
            XCTAssertEqual(before, .ok)
            try harness.credentials.rotateFeedKey()
            let afterRotation = try await status(given)
            XCTAssertEqual(afterRotation, .unauthorized, "rotated: the old address is refused")
            let rotated = harness.access.feedAddress("/feeds/all.xml")
            let renewed = try await status(rotated)
            XCTAssertEqual(renewed, .ok, "the new address opens")
            try harness.credentials.setPassword("a new password, typed on the box")
            let afterPassword = try await status(rotated)
            XCTAssertEqual(afterPassword, .unauthorized, "a new password gives the feeds new addresses")
        }
    }
}
