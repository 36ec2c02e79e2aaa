import Daemon
import Engine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPService
import RadioModel
@testable import Recording
import Scheduling
import SharedStore
import StreamInput
import TestSupport
import XCTest

/// A real daemon (`DaemonService`, its stores in a temporary ONAIR_HOME, or its schedule, index and
/// jobs in PostgreSQL with ONAIR_TEST_DATABASE=postgresql) running its schedule on a
/// thread, its HTTP server on an ephemeral port, and a real Icecast station "tone" (440 Hz MP3,
/// titled "API tone") in the shipped catalogue.
final class APIHarness {
    static let station = "tone"
    static let mount = "/tone.mp3"

    let icecast: IcecastHarness
    /// radio-browser.info as a fixture: every search answers with the saved "jazz" results.
    let directory: FixtureHTTPServer
    let home: TemporaryDirectory
    let paths: AppPaths
    let daemon: DaemonService
    let facade: DaemonFacade
    let server: HTTPServer
    let port: Int
    let log = Locked<[DaemonEvent]>([])
    private let runner: Thread

    init(options: DaemonService.Options = DaemonService.Options()) throws {
        icecast = try IcecastHarness.playing(Self.mount, title: "API tone")
        home = try TemporaryDirectory(prefix: "onair-http")
        paths = AppPaths(environment: ["ONAIR_HOME": home.url.path])
        let shipped = home.file("stations.json")
        let station = Station(id: Self.station, name: "Tone FM", country: "GB", language: "en", timeZone: "UTC",
                              streams: [StreamEndpoint(url: icecast.url(mount: Self.mount).absoluteString, kind: .icy, codec: "mp3")])
        let stationJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(station))
        try JSONSerialization.data(withJSONObject: ["version": 1, "stations": [stationJSON]]).write(to: shipped)
        let paths = paths
        // As the daemon reads it: again only when a file changed.
        let reader = CatalogueReader(shippedURL: shipped, userURL: paths.userCatalogueURL)
        let catalogue: @Sendable () throws -> Catalogue = { try reader.read() }
        let log = log
        var options = options
        options.sharedDatabase = try TestDatabase.postgresURL().map { try PostgresLocation(url: $0) }
        daemon = try DaemonService(paths: paths, options: options, lookup: { try StreamTarget.parse($0, catalogue: catalogue) }) { event in
            log.withLock { $0.append(event) }
        }
        directory = try FixtureHTTPServer()
        let saved = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StreamInputTests/Fixtures/radio-browser-search-jazz.json")
        directory.route("/json/stations/search", FixtureHTTPServer.file(try Data(contentsOf: saved), contentType: "application/json"))
        let directoryURL = directory.baseURL.absoluteString
        facade = DaemonFacade(service: daemon, catalogue: catalogue, directory: { try? RadioBrowserClient(baseURLs: [directoryURL]) })
        server = HTTPServer(address: HTTPAddress(host: "127.0.0.1", port: 0), facade: facade,
                            routeGroups: [HTTPServer.metricsRoute { [daemon] in daemon.metricsText() }])
        port = try server.start()
        let daemon = daemon
        runner = Thread { try? daemon.run() }
        runner.start()
    }

    func stop() {
        server.stop()
        daemon.stop()
        _ = eventually(timeout: 20) { self.runner.isFinished }
        icecast.stop()
        directory.stop()
        home.remove()
    }

    /// A finished recording of one hour ending at `end` (its file `contents`, else 1 KiB of filler, in the recordings
    /// directory), entered in the daemon's index.
    func addRecording(_ name: String, programme: ProgrammeLabel?, end: Date, contents: Data? = nil) throws -> Int64 {
        let file = paths.recordings.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: paths.recordings, withIntermediateDirectories: true)
        try (contents ?? Data(repeating: 0x55, count: 1024)).write(to: file)
        return try XCTUnwrap(try daemon.recordings.add(FinishedRecording(
            station: StationLabel(id: Self.station, name: "Tone FM"), programme: programme, start: end.addingTimeInterval(-3600), end: end,
            timeZone: "UTC", file: file.path, cueSheet: nil, size: 1024, duration: 3600, codec: "mp3", container: "mp3", titles: [], gaps: [],
            source: "test", track: nil)).id)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: Data

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    /// One request through URLSession (a client nothing like ours), waited for.
    func request(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:]) throws -> Reply {
        var request = URLRequest(url: url(path), timeoutInterval: 30)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let outcome = Locked<Result<Reply, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                let headers = response.allHeaderFields.reduce(into: [String: String]()) { $0["\($1.key)"] = "\($1.value)" }
                outcome.withLock { $0 = .success(Reply(status: response.statusCode, headers: headers, body: data ?? Data())) }
            } else {
                outcome.withLock { $0 = .failure(error ?? URLError(.badServerResponse)) }
            }
            done.signal()
        }.resume()
        done.wait()
        return try outcome.current!.get()
    }

    func get(_ path: String, headers: [String: String] = [:]) throws -> Reply { try request("GET", path, headers: headers) }
}
