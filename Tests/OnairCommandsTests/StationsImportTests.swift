import Foundation
import OnairCommands
import RadioModel
import TestSupport
import XCTest

/// `onair stations import FILE|URL`: a playlist of stations (PLS, M3U with #EXTINF, XSPF, ASX) becomes
/// entries of the user's catalogue — ids from names, names made printable, known URLs skipped with a line.
final class StationsImportTests: XCTestCase {
    private var home: TemporaryDirectory!

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "onair-import")
        let shipped = home.file("shipped.json")
        try Data("""
        {"version": 1, "stations": [{"id": "radio-one", "name": "Radio One", "country": "GB", "language": "en", "timeZone": "Europe/London", "streams": [{"url": "http://shipped.example/one.mp3", "kind": "icy"}]}]}
        """.utf8).write(to: shipped)
        setenv("ONAIR_HOME", home.url.path, 1)
        setenv("ONAIR_STATIONS", shipped.path, 1)
    }

    override func tearDown() {
        unsetenv("ONAIR_HOME")
        unsetenv("ONAIR_STATIONS")
        home = nil
    }

    private var userCatalogue: URL { home.url.appendingPathComponent("config/stations.json") }

    private func userStations() throws -> [Station] {
        try Catalogue.stations(inFileAt: userCatalogue)
    }

    private func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: home.file(name))
        return home.file(name).path
    }

    func testAnExtendedM3UBecomesStationsNamedByTheirTitles() throws {
        let m3u = try write("""
        #EXTM3U
        #EXTINF:-1 tvg-logo="http://logo.example/a,b.png" group-title="News, Talk",Radio One
        http://one.example/live.mp3
        #EXTINF:-1,Radio One
        http://one.example/other.mp3
        #EXTINF:-1,Already shipped
        http://shipped.example/one.mp3
        #EXTINF:-1,Évasion \u{1B}[31mFM\u{202E}
        https://evasion.example/hls/master.m3u8
        http://untitled.example:8000/;
        rtsp://real.example/live
        """, to: "radio.m3u")
        let run = try runOnair(["stations", "import", m3u])
        XCTAssertEqual(run.status, 0, run.output.standardError)
        let stations = try userStations()
        XCTAssertEqual(stations.map(\.id), ["radio-one-2", "radio-one-3", "evasion-31mfm", "untitled-example-8000"])
        XCTAssertEqual(stations.map(\.name), ["Radio One", "Radio One", "Évasion [31mFM", "untitled.example:8000"])
        XCTAssertEqual(stations.map { $0.streams.map(\.url) }, [["http://one.example/live.mp3"], ["http://one.example/other.mp3"],
                                                               ["https://evasion.example/hls/master.m3u8"], ["http://untitled.example:8000/;"]])
        XCTAssertEqual(stations.map { $0.streams[0].kind }, [.icy, .icy, .hls, .icy])
        XCTAssertEqual(stations.map(\.timeZone), ["UTC", "UTC", "UTC", "UTC"])
        let errors = run.output.standardError
        XCTAssertTrue(errors.contains("skipped \"Already shipped\": http://shipped.example/one.mp3 is already station radio-one"), errors)
        XCTAssertTrue(errors.contains("rtsp://real.example/live"), errors)
        XCTAssertTrue(run.output.standardOutput.contains("added"), run.output.standardOutput)
        XCTAssertTrue(run.output.standardOutput.contains("Added 4 stations to \(userCatalogue.path)"), run.output.standardOutput)
        XCTAssertFalse(run.output.standardOutput.contains("\u{1B}"), "a title's escape sequence reaches no terminal")

        // A second import finds every URL there: nothing added, each said, and still success.
        let again = try runOnair(["stations", "import", m3u])
        XCTAssertEqual(again.status, 0, again.output.standardError)
        XCTAssertEqual(try userStations().count, 4)
        XCTAssertTrue(again.output.standardError.contains("is already station radio-one-2"), again.output.standardError)
        XCTAssertTrue(again.output.standardError.contains("Added 0 stations"), again.output.standardError)
    }

    func testAPLSIsFetchedFromItsURLWhateverItsContentType() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let pls = "[playlist]\nNumberOfEntries=9\nFile2=http://two.example/s\nTitle2=Second\nFile1=relative/stream\nTitle1=First\n"
        server.route("/lists/radio", FixtureHTTPServer.file(Data(pls.utf8), contentType: "audio/mpeg"))
        let run = try runOnair(["stations", "import", server.url("/lists/radio").absoluteString])
        XCTAssertEqual(run.status, 0, run.output.standardError)
        let stations = try userStations()
        XCTAssertEqual(stations.map(\.id), ["first", "second"])
        XCTAssertEqual(stations.first?.streams.first?.url, server.url("/lists/relative/stream").absoluteString)
    }

    func testXSPFTracksAndASXEntriesKeepTheirAlternatives() throws {
        let xspf = try write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
          <track><title>Radio Nova</title><location>http://nova.example/a</location><location>http://nova.example/b</location></track>
          <track><creator>Mix FM</creator><location>mms://mix.example/live</location></track>
        </trackList></playlist>
        """, to: "list.xspf")
        let asx = try write("""
        <ASX version="3.0"><TITLE>Pukas</TITLE>
        <ENTRY><REF HREF="mms://pukas.example/live"/><REF HREF="http://pukas.example/live"/></ENTRY></ASX>
        """, to: "pukas.wax")
        for file in [xspf, asx] {
            let run = try runOnair(["stations", "import", file, "--json"])
            XCTAssertEqual(run.status, 0, run.output.standardError)
            XCTAssertTrue(run.output.standardError.contains("mms://"), "the skipped mms: entry is said: \(run.output.standardError)")
        }
        let stations = try userStations()
        XCTAssertEqual(stations.map(\.id), ["radio-nova", "pukas"])
        XCTAssertEqual(stations[0].streams.map(\.url), ["http://nova.example/a", "http://nova.example/b"])
        XCTAssertEqual(stations[1].streams.map(\.url), ["http://pukas.example/live"])
    }

    func testADryRunWritesNothingAndJSONIsOneStationALine() throws {
        let pls = try write("[playlist]\nFile1=http://a.example/s\nTitle1=A\nFile2=http://b.example/s\nTitle2=B\n", to: "x.pls")
        let run = try runOnair(["stations", "import", pls, "--dry-run", "--json"])
        XCTAssertEqual(run.status, 0, run.output.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: userCatalogue.path))
        let lines = run.output.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.compactMap { try? JSONDecoder().decode(Station.self, from: Data($0.utf8)).id }, ["a", "b"])
        XCTAssertTrue(run.output.standardError.contains("nothing written"), run.output.standardError)
    }

    func testWhatIsNoListOfStationsIsOnePlainLine() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let writer = ICYStreamWriter(audio: Data(repeating: 0xFF, count: 64_000), metaint: 16_000)
        server.route("/live", FixtureHTTPServer.icyStream(writer, statusLine: "ICY 200 OK", contentType: "audio/mpeg"))
        server.route("/master.m3u8", FixtureHTTPServer.file(Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000\nlow.m3u8\n".utf8),
                                                           contentType: "application/vnd.apple.mpegurl"))
        server.route("/gone.pls", FixtureHTTPServer.status(404))
        let empty = try write("<asx version=\"3.0\">\n</asx>\n", to: "empty.asx")
        let cases: [(String, Int32, String)] = [
            (server.url("/live").absoluteString, 1, "answers an audio stream"),
            (server.url("/master.m3u8").absoluteString, 1, "is an HLS playlist"),
            (server.url("/gone.pls").absoluteString, 1, "HTTP 404"),
            (empty, 1, "lists no stream"),
            (home.file("missing.m3u").path, 4, "cannot read"),
            ("ftp://files.example/list.m3u", 64, "neither a file nor an http or https URL"),
        ]
        for (source, status, words) in cases {
            let run = try runOnair(["stations", "import", source])
            XCTAssertEqual(run.status, status, "\(source): \(run.output.standardError)")
            let line = run.output.standardError.trimmingCharacters(in: .newlines)
            XCTAssertTrue(line.contains(words), "\(source): \(line)")
            XCTAssertFalse(line.contains("\n"), "\(source): \(line)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: userCatalogue.path))
    }
}
