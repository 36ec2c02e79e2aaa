import Daemon
import Engine
import Outputs
import Foundation
import HTTPService
import HTTPServing
import Hummingbird
import Library
import RadioModel
import Scheduling
import Store
import Recording
import SharedStore
import StreamInput
import TestSupport
import WebApp
import XCTest

/// The web app on a real daemon's services, in a temporary ONAIR_HOME: the schedule, the index and the
/// jobs are the daemon's own (in PostgreSQL with ONAIR_TEST_DATABASE=postgresql; the web credentials stay
/// in the data directory's SQLite file, each daemon's own), the catalogue is `stations` plus the user's file, and the directory is
/// whatever `directory` serves (a fixture server in radio-browser's shape). The pages reach them through
/// the daemon's facade, as under `onair daemon`.
final class WebAppHarness: @unchecked Sendable {  // every property is set once in init; `log` is Locked
    let home: TemporaryDirectory
    let paths: AppPaths
    let daemon: DaemonService
    let facade: DaemonFacade
    let services: WebServices
    /// The library's tables (playlists, likes, podcasts, positions) in the daemon's database, for the
    /// tests to look at and set up what the pages show: the same database the facade opens.
    let libraryStores: LibraryStores
    let credentials: WebCredentials
    let access: WebAccess
    let log = Locked<[DaemonEvent]>([])

    /// `loginClock`: the login throttle's (`WebAccess`).
    init(stations: [Station], directory: [String] = ["http://127.0.0.1:9"], loginClock: @escaping @Sendable () -> Date = Date.init) throws {
        home = try TemporaryDirectory(prefix: "onair-web")
        let paths = AppPaths(environment: ["ONAIR_HOME": home.url.path])
        self.paths = paths
        let catalogue: @Sendable () throws -> Catalogue = {
            Catalogue(stations: stations + (try UserCatalogue(paths: paths).stations()))
        }
        let log = self.log
        var options = DaemonService.Options()
        options.preroll = 1
        options.sharedDatabase = try TestDatabase.postgresURL().map { try PostgresLocation(url: $0) }
        daemon = try DaemonService(paths: paths, options: options, lookup: { try StreamTarget.parse($0, catalogue: catalogue) },
                                   log: { event in log.withLock { $0.append(event) } })
        credentials = try WebCredentials(database: OnairDatabase(directory: paths.data))
        access = WebAccess(credentials: credentials, formToken: WebForm.token, clock: loginClock)
        let client = try RadioBrowserClient(baseURLs: directory, environment: [:])
        let facade = DaemonFacade(service: daemon, catalogue: catalogue, directory: { client })
        self.facade = facade
        libraryStores = try LibraryStores(dataDirectory: paths.data)
        var services = WebServices(facade: facade)
        services.forms = access.forms(for:)
        services.feedAddress = access.feedAddress(_:)
        self.services = services
    }

    /// An application serving the daemon's routes as `onair daemon` composes them (the API, the feeds,
    /// the login, `access` in front — the harness's own, or another on the same database, as a restarted
    /// daemon has), the web app's among them, and `others` after them.
    func application(_ others: [HTTPRouteGroup] = [], access: WebAccess? = nil) -> some ApplicationProtocol {
        let services = services
        let router = HTTPServer.router(facade: facade, access: access ?? self.access,
                                       routeGroups: [{ WebApp.addRoutes(to: $0, services: services) }] + others)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// The same routes served as `onair daemon` serves them, on a real socket (127.0.0.1, a free port), so
    /// a request's own Host, Origin and bytes reach the server as a browser's or an attacker's would.
    func serve(site: SitePolicy = SitePolicy()) throws -> (server: ServingTask, port: Int) {
        let services = services
        let router = HTTPServer.router(facade: facade, site: site, access: access,
                                       routeGroups: [{ WebApp.addRoutes(to: $0, services: services) }])
        return try BoundedHTTPServer.start(router.buildResponder(), host: "127.0.0.1", port: 0)
    }

    /// Runs the daemon's scheduler on a thread of its own until `stop`.
    func runDaemon() {
        let daemon = self.daemon
        Thread { try? daemon.run() }.start()
    }

    func stop() {
        daemon.stop()
        home.remove()
    }

    /// A recording entered in the index as the finaliser would: `file` copied under the recordings directory
    /// (or into `folder`, as a recording with an absolute output template of the box's CLI is).
    func indexRecording(copying file: URL, named name: String, titles: [(String, Double)], duration: Double,
                        into folder: URL? = nil, day: String = "2026-11-24") throws -> IndexedRecording {
        let directory = folder ?? paths.recordings.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: file, to: target)
        let size = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int64 ?? 0
        let json: [String: Any] = [
            "station": ["id": "demo", "name": "Demo FM"], "programme": ["id": "morning", "name": "The Morning Show"],
            "start": "\(day)T07:00:00.000Z", "end": "\(day)T07:00:10.000Z", "timeZone": "Europe/Paris",
            "file": target.path, "size": size, "duration": duration, "codec": "mp3", "container": "mp3",
            "titles": titles.map { ["title": $0.0, "start": $0.1] }, "gaps": [["at": 4.0, "seconds": 0.5]], "source": "http://127.0.0.1/demo",
        ]
        let recording = try OnairJSON.decoder.decode(FinishedRecording.self, from: JSONSerialization.data(withJSONObject: json))
        return try daemon.recordings.add(recording)
    }
}

/// A form as a browser posts it from one of the daemon's pages.
enum WebForm {
    static let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
    /// The token the harness's pages put in their forms while no credential is set (`WebAccess.formToken`).
    static let token = "form-token-of-the-test-daemon"

    /// The fields URL-encoded ("+" too, which a form body would read as a space), with the pages' token
    /// unless the fields carry a `csrf` of their own.
    static func body(_ fields: [String: String]) -> ByteBuffer {
        var fields = fields
        if fields["csrf"] == nil { fields["csrf"] = token }
        var components = URLComponents()
        components.queryItems = fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return ByteBuffer(string: (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B"))
    }
}

/// Catalogue stations for the tests.
enum TestStations {
    static func station(id: String, name: String, url: String, programmes: [Programme] = []) -> Station {
        Station(id: id, name: name, country: "FR", language: "fr", timeZone: "UTC", tags: ["test"],
                streams: [StreamEndpoint(url: url, kind: .icy, codec: "mp3")], programmes: programmes)
    }
}

extension IcecastHarness {
    /// A real Icecast whose `mount` plays a 440 Hz MP3 tone titled `title`; the test is skipped where
    /// icecast2 cannot start.
    static func playingTone(at mount: String, title: String) throws -> IcecastHarness {
        try IcecastHarness.playing(mount, title: title)
    }
}
