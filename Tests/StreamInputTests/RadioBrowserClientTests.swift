import Foundation
import RadioModel
import XCTest
import TestSupport
@testable import StreamInput

final class RadioBrowserClientTests: XCTestCase {
    private static let searchPath = "/json/stations/search"
    /// A real-shaped answer to `search?name=jazz`, saved so the tests never need the internet.
    private static let savedAnswer: Data = {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/radio-browser-search-jazz.json")
        return (try? Data(contentsOf: fixture)) ?? Data()
    }()

    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        XCTAssertFalse(Self.savedAnswer.isEmpty, "the saved answer fixture is missing")
        server = try FixtureHTTPServer(routes: [Self.searchPath: Self.savedAnswerHandler])
    }

    override func tearDown() { server.stop() }

    private static let savedAnswerHandler = FixtureHTTPServer.file(savedAnswer, contentType: "application/json")

    private func client(_ servers: FixtureHTTPServer...) throws -> RadioBrowserClient {
        try RadioBrowserClient(baseURLs: servers.map(\.baseURL.absoluteString), environment: [:])
    }

    // MARK: Decoding

    func testDecodesTheSavedAnswerInOrder() throws {
        let stations = try client(server).search("jazz")
        XCTAssertEqual(stations.map(\.name), [
            "Jazz Radio - Classic Jazz", "SomaFM Sonic Universe", "Radio Swiss Jazz", "Радио Джаз 89.1 FM",
            "ジャズ喫茶 Kissa Radio ☕", "Jazz à Paris — Café Crème",
        ])
        let first = stations[0]
        XCTAssertEqual(first.uuid, "9617a958-0601-11e8-ae97-52543be04c81")
        XCTAssertEqual(first.countryCode, "FR")
        XCTAssertEqual(first.languageCodes, ["fr"])
        XCTAssertEqual(first.codec, "mp3")
        XCTAssertEqual(first.bitrate, 128)
        XCTAssertEqual(first.homepage, "https://www.jazzradio.fr/")
        XCTAssertTrue(first.lastCheckOK)
        XCTAssertEqual(stations[1].tags, ["jazz", "nu jazz", "avant-garde", "eclectic"], "items trimmed, empty ones dropped")
    }

    func testResolvedURLIsPreferredOverTheListedOne() throws {
        let stations = try client(server).search("jazz")
        let soma = try XCTUnwrap(stations.first { $0.name == "SomaFM Sonic Universe" })
        XCTAssertEqual(soma.streamURL, "https://ice6.somafm.com/sonicuniverse-128-mp3", "not the .pls it was listed with")
        let kissa = try XCTUnwrap(stations.first { $0.name.hasPrefix("ジャズ喫茶") })
        XCTAssertEqual(kissa.streamURL, "https://kissa.example.jp/live.ogg", "an empty url_resolved falls back to url")
    }

    func testHLSFlagChoosesTheStreamKind() throws {
        let stations = try client(server).search("jazz")
        let kinds = Dictionary(uniqueKeysWithValues: stations.map { ($0.name, $0.kind) })
        XCTAssertEqual(kinds["Radio Swiss Jazz"], .hls)
        XCTAssertEqual(kinds["Jazz Radio - Classic Jazz"], .icy)
        XCTAssertEqual(stations.filter { $0.kind == .hls }.count, 1)
    }

    func testCodecsAreNormalisedAndUnknownsDropped() throws {
        let codecs = try client(server).search("jazz").map(\.codec)
        XCTAssertEqual(codecs, ["mp3", "mp3", "he-aac", "mp3", "vorbis", "opus"])
        XCTAssertEqual(RadioBrowserClient.onairCodec("FLAC"), "flac")
        XCTAssertNil(RadioBrowserClient.onairCodec("UNKNOWN"))
        XCTAssertNil(RadioBrowserClient.onairCodec("MP3,H.264"))
    }

    func testEmptyDirectoryFieldsBecomeNil() throws {
        let kissa = try XCTUnwrap(try client(server).search("jazz").first { $0.name.hasPrefix("ジャズ喫茶") })
        XCTAssertNil(kissa.countryCode)
        XCTAssertNil(kissa.homepage)
        XCTAssertNil(kissa.favicon)
        XCTAssertNil(kissa.bitrate, "bitrate 0 means unknown")
        XCTAssertEqual(kissa.languageCodes, [])
    }

    func testEntriesWithoutAWebStreamAreLeftOut() throws {
        let answer = """
        [{"stationuuid":"a","name":"Local File","url":"file:///etc/passwd","url_resolved":""},
         {"stationuuid":"b","name":"  ","url":"http://example.com/a.mp3"},
         {"stationuuid":"c","name":"Fine","url":"http://example.com/fine.mp3","url_resolved":null,"hls":0}]
        """
        let stations = try RadioBrowserClient.decodeStations(Data(answer.utf8), server: "http://fixture")
        XCTAssertEqual(stations.map(\.name), ["Fine"])
    }

    // MARK: The request

    func testRequestCarriesUserAgentAcceptAndEncodedQuery() throws {
        _ = try client(server).search("café & blues+soul", limit: 7)
        let request = try XCTUnwrap(server.requests(Self.searchPath).first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.headers["User-Agent"], TransferRequest.defaultUserAgent)
        XCTAssertEqual(request.headers["Accept"], "application/json")
        XCTAssertEqual(request.query["name"], "café & blues+soul")
        XCTAssertTrue(request.target.contains("name=caf%C3%A9%20%26%20blues%2Bsoul"), request.target)
        XCTAssertEqual(request.query["limit"], "7")
        XCTAssertEqual(request.query["hidebroken"], "true")
        XCTAssertEqual(request.query["order"], "clickcount")
        XCTAssertEqual(request.query["reverse"], "true")
    }

    // MARK: Failover

    func testFailsOverFromAServerAnswering503() throws {
        let failing = try FixtureHTTPServer(routes: [Self.searchPath: FixtureHTTPServer.status(503)])
        defer { failing.stop() }
        let stations = try client(failing, server).search("jazz")
        XCTAssertEqual(stations.count, 6)
        XCTAssertEqual(failing.requestCount(Self.searchPath), 1, "the first server was asked")
        XCTAssertEqual(server.requestCount(Self.searchPath), 1, "the second server was asked")
    }

    func testFailsOverFromAServerRefusingConnections() throws {
        let gone = try FixtureHTTPServer()
        gone.stop() // its port now refuses connections
        let stations = try client(gone, server).search("jazz")
        XCTAssertEqual(stations.count, 6)
        XCTAssertEqual(server.requestCount(Self.searchPath), 1)
    }

    func testFailsOverFromMalformedJSON() throws {
        let portal = try FixtureHTTPServer(routes: [
            Self.searchPath: FixtureHTTPServer.file(Data("<html>Sign in to the Wi-Fi</html>".utf8), contentType: "text/html"),
        ])
        defer { portal.stop() }
        XCTAssertEqual(try client(portal, server).search("jazz").count, 6)
    }

    func testWhenEveryServerFailsTheErrorIsOneLineNamingEach() throws {
        let failing = try FixtureHTTPServer(routes: [Self.searchPath: FixtureHTTPServer.status(503)])
        defer { failing.stop() }
        server.route(Self.searchPath, FixtureHTTPServer.file(Data("[{\"name\": 5}]".utf8), contentType: "application/json"))
        XCTAssertThrowsError(try client(failing, server).search("jazz")) { error in
            let failure = error as? DirectoryError
            XCTAssertEqual(failure?.kind, .unavailable)
            let message = "\(error)"
            XCTAssertFalse(message.contains("\n"), message)
            XCTAssertTrue(message.contains("\(failing.baseURL.absoluteString): HTTP 503"), message)
            XCTAssertTrue(message.contains("\(server.baseURL.absoluteString) answered malformed JSON"), message)
            XCTAssertTrue(message.contains("[0].name"), "says where the answer went wrong: \(message)")
        }
    }

    func testMalformedJSONErrorNamesTheServer() throws {
        server.route(Self.searchPath, FixtureHTTPServer.file(Data("{\"error\": \"overloaded\"".utf8), contentType: "application/json"))
        XCTAssertThrowsError(try client(server).search("jazz")) { error in
            XCTAssertEqual("\(error)",
                           "radio-browser.info search failed: \(server.baseURL.absoluteString) answered malformed JSON (not JSON)")
        }
    }

    // MARK: Configuration and discovery

    func testEnvironmentVariableNamesTheServersAndSkipsDNS() throws {
        let failing = try FixtureHTTPServer(routes: [Self.searchPath: FixtureHTTPServer.status(500)])
        defer { failing.stop() }
        let variable = "\(failing.baseURL.absoluteString)/ , \(server.baseURL.absoluteString)"
        // A lookup with no nameserver would fail: the search succeeding shows DNS was not needed.
        let client = try RadioBrowserClient(environment: [RadioBrowserClient.baseURLsVariable: variable],
                                            serviceLookup: DNSServiceLookup(nameservers: []))
        XCTAssertEqual(try client.search("jazz").count, 6)
        XCTAssertEqual(failing.requestCount(Self.searchPath), 1, "asked in the order given, trailing slash dropped")
    }

    func testUnusableServerURLsAreConfigurationErrors() {
        for variable in ["ftp://example.com", "example.com", " , "] {
            XCTAssertThrowsError(try RadioBrowserClient(environment: [RadioBrowserClient.baseURLsVariable: variable])) { error in
                XCTAssertEqual((error as? DirectoryError)?.kind, .configuration, variable)
                XCTAssertTrue("\(error)".contains(RadioBrowserClient.baseURLsVariable), "\(error)")
            }
        }
    }

    func testServiceRecordsAreOrderedByPriorityThenWeight() {
        let records = [
            ServiceRecord(target: "backup.example", port: 443, priority: 20, weight: 100),
            ServiceRecord(target: "a.example", port: 443, priority: 10, weight: 1),
            ServiceRecord(target: "b.example", port: 8443, priority: 10, weight: 1),
            ServiceRecord(target: "rare.example", port: 443, priority: 10, weight: 0),
        ]
        var firstPicks: [String: Int] = [:]
        for _ in 0..<400 {
            let ordered = RadioBrowserClient.preferenceOrder(records)
            XCTAssertEqual(ordered.count, 4)
            XCTAssertEqual(ordered.last?.target, "backup.example", "a higher priority number comes last")
            firstPicks[ordered[0].target, default: 0] += 1
        }
        XCTAssertGreaterThan(firstPicks["a.example", default: 0], 60, "equal weights share the first place")
        XCTAssertGreaterThan(firstPicks["b.example", default: 0], 60)
        XCTAssertLessThan(firstPicks["rare.example", default: 0], firstPicks["a.example", default: 0])
        XCTAssertEqual(RadioBrowserClient.baseURL(for: records[1]), "https://a.example")
        XCTAssertEqual(RadioBrowserClient.baseURL(for: records[2]), "https://b.example:8443")
    }

    // MARK: Catalogue entries

    func testCatalogueStationFromADirectoryStation() throws {
        let stations = try client(server).search("jazz")
        let swiss = try XCTUnwrap(stations.first { $0.name == "Radio Swiss Jazz" }).catalogueStation(avoiding: [])
        XCTAssertEqual(swiss.id, "radio-swiss-jazz")
        XCTAssertEqual(swiss.country, "CH")
        XCTAssertEqual(swiss.language, "de", "the first language code")
        XCTAssertEqual(swiss.timeZone, "Europe/Zurich")
        XCTAssertEqual(swiss.tags, ["jazz", "blues", "soul"])
        XCTAssertEqual(swiss.streams, [StreamEndpoint(url: "https://lsaplus.swisstxt.ch/audio/rsj_96.stream/playlist.m3u8",
                                                      kind: .hls, codec: "he-aac", bitrate: 96)])
        XCTAssertEqual(swiss.programmes, [])
        XCTAssertEqual(swiss.logo, "https://www.radioswissjazz.ch/favicon.png", "the directory's favicon")

        let soma = try XCTUnwrap(stations.first { $0.name == "SomaFM Sonic Universe" }).catalogueStation(avoiding: [])
        XCTAssertEqual(soma.timeZone, "UTC", "a country with several zones is left to the user")

        let kissa = try XCTUnwrap(stations.first { $0.name.hasPrefix("ジャズ喫茶") }).catalogueStation(avoiding: [])
        XCTAssertEqual(kissa.country, "ZZ")
        XCTAssertEqual(kissa.language, "und")
        XCTAssertEqual(kissa.timeZone, "UTC")
    }

    func testCatalogueIDsAreSlugsMadeUniqueOnlyOnCollision() throws {
        let station = DirectoryStation(uuid: "9E8CD0E7-0601-11e8-ae97-52543be04c81", name: "Radio Swiss Jazz",
                                       streamURL: "http://example.com/a.mp3", kind: .icy)
        XCTAssertEqual(station.catalogueStation(avoiding: ["fip"]).id, "radio-swiss-jazz")
        XCTAssertEqual(station.catalogueStation(avoiding: ["radio-swiss-jazz"]).id, "radio-swiss-jazz-9e8cd0e7")

        XCTAssertEqual(Slug.make("Jazz à Paris — Café Crème"), "jazz-a-paris-cafe-creme")
        XCTAssertEqual(Slug.make("  Radio Weiß!!  "), "radio-weiss")
        XCTAssertEqual(Slug.make("Радио Рекорд"), "radio-rekord")
        XCTAssertEqual(Slug.make("☕☕"), "")
        XCTAssertLessThanOrEqual(Slug.make(String(repeating: "ab ", count: 40)).count, 48)
        XCTAssertFalse(Slug.make(String(repeating: "abcdefg ", count: 10)).hasSuffix("-"))
        let unnamed = DirectoryStation(uuid: "5c1e8f0a", name: "☕", streamURL: "http://example.com/a.mp3", kind: .icy)
        XCTAssertEqual(unnamed.catalogueStation(avoiding: []).id, "station")
    }

    func testCatalogueStationIsAcceptedByTheUserCatalogue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let catalogue = UserCatalogue(url: directory.file("stations.json"))
        for station in try client(server).search("jazz") where station.countryCode != nil {
            try catalogue.add(station.catalogueStation(avoiding: Set(try catalogue.stations().map(\.id))))
        }
        XCTAssertEqual(try catalogue.stations().map(\.id), [
            "jazz-radio-classic-jazz", "somafm-sonic-universe", "radio-swiss-jazz", "radio-dzaz-89-1-fm",
            "jazz-a-paris-cafe-creme",
        ])
    }
}
