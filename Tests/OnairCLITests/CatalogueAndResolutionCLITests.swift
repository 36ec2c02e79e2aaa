import Foundation
import XCTest
import TestSupport

/// The CLI's catalogue, resolution, directory and transport paths, against local servers only.
final class CatalogueAndResolutionCLITests: XCTestCase {
    private var onair: OnairBinary!
    private var server: FixtureHTTPServer!
    private var mp3: Data!

    override func setUpWithError() throws {
        onair = try OnairBinary()
        server = try FixtureHTTPServer()
        mp3 = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 4, codec: .mp3, bitrate: 128))
    }

    override func tearDown() { server.stop() }

    private func writeUserCatalogue(_ json: String) throws {
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: config.appendingPathComponent("stations.json"))
    }

    private func userStation(id: String, name: String, url: String, charset: String? = nil) -> String {
        let charsetField = charset.map { #""charset": "\#($0)", "# } ?? ""
        return """
        {"id": "\(id)", "name": "\(name)", "country": "RU", "language": "ru", "timeZone": "Europe/Moscow", \(charsetField)
         "tags": ["test"], "streams": [{"url": "\(url)", "kind": "icy", "codec": "mp3", "bitrate": 128}]}
        """
    }

    func testUserStationsAreAddedAndOverrideShippedOnes() throws {
        try writeUserCatalogue("""
        {"version": 1, "stations": [
        \(userStation(id: "my-test-fm", name: "My Test FM", url: "http://127.0.0.1:9/a.mp3")),
        \(userStation(id: "fip", name: "FIP (my own)", url: "http://127.0.0.1:9/fip.mp3"))
        ]}
        """)
        let result = try onair.run(["stations", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let stations = OnairBinary.events(result.stdoutText)
        XCTAssertGreaterThanOrEqual(stations.count, 21, "the shipped catalogue is there too")
        XCTAssertTrue(stations.contains { $0["id"] as? String == "my-test-fm" })
        XCTAssertEqual(stations.first { $0["id"] as? String == "fip" }?["name"] as? String, "FIP (my own)")
        XCTAssertTrue(try onair.run(["stations", "show", "my-test-fm"]).stdoutText.contains("http://127.0.0.1:9/a.mp3"))
    }

    func testAMalformedUserCatalogueIsOneLineNamingFileLineAndField() throws {
        try writeUserCatalogue("""
        {"version": 1, "stations": [
          {"id": "x", "name": "X", "country": "GB", "language": "en", "timeZone": "Europe/London",
           "streams": [{"url": "http://a/b", "kind": "rtsp"}]}
        ]}
        """)
        let result = try onair.run(["listen", "x", "--sink", "stdout"])
        XCTAssertEqual(result.status, 3, "\(result)")
        let path = onair.home.url.appendingPathComponent("config/stations.json").path
        XCTAssertEqual(result.stderrText.trimmingCharacters(in: .newlines),
                       "onair: \(path):3: stations[0].streams[0].kind: expected one of \"icy\", \"hls\", \"dash\", got \"rtsp\"")
    }

    func testAStationsCharsetDecodesItsTitlesEndToEnd() throws {
        let kino: [UInt8] = [0xCA, 0xE8, 0xED, 0xEE] // "Кино" in windows-1251
        let writer = ICYStreamWriter(audio: mp3, metaint: 8192, schedule: [.title(bytes: kino)])
        server.route("/ru.mp3", FixtureHTTPServer.icyStream(writer))
        try writeUserCatalogue(#"{"version": 1, "stations": [\#(userStation(id: "radio-ru", name: "Радио", url: server.url("/ru.mp3").absoluteString, charset: "windows-1251"))]}"#)
        let result = try onair.run(["listen", "radio-ru", "--sink", "wav:\(onair.home.file("ru.wav").path)", "--duration", "2", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let titles = OnairBinary.events(result.stdoutText).compactMap { $0["title"] as? String }
        XCTAssertEqual(titles, ["Кино"])
    }

    func testResolveJSONFollowsAPlaylistToTheStream() throws {
        let writer = ICYStreamWriter(audio: mp3, metaint: 16_000)
        server.route("/stream", FixtureHTTPServer.icyStream(writer, headers: [("icy-name", "Fixture FM Français"), ("icy-br", "128")]))
        server.route("/dead", FixtureHTTPServer.status(404))
        let pls = "[playlist]\nFile1=\(server.url("/dead"))\nFile2=\(server.url("/stream"))\n"
        server.route("/station.pls", FixtureHTTPServer.file(Data(pls.utf8), contentType: "audio/x-scpls"))
        let result = try onair.run(["resolve", server.url("/station.pls").absoluteString, "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let resolved = try XCTUnwrap(OnairBinary.events(result.stdoutText).first)
        XCTAssertEqual(resolved["url"] as? String, server.url("/stream").absoluteString)
        XCTAssertEqual(resolved["kind"] as? String, "icy")
        XCTAssertEqual(resolved["codec"] as? String, "mp3")
        XCTAssertEqual(resolved["name"] as? String, "Fixture FM Français", "a name in UTF-8 is read as UTF-8")
        XCTAssertEqual(resolved["contentType"] as? String, "audio/mpeg")

        server.route("/evil.pls", FixtureHTTPServer.file(Data("[playlist]\nFile1=file:///etc/passwd\n".utf8), contentType: "audio/x-scpls"))
        let evil = try onair.run(["resolve", server.url("/evil.pls").absoluteString])
        XCTAssertEqual(evil.status, 1)
        XCTAssertTrue(evil.stderrText.contains("only point at http or https"), evil.stderrText)
    }

    func testSearchAddPutsADirectoryStationIntoTheUserCatalogue() throws {
        let saved = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StreamInputTests/Fixtures/radio-browser-search-jazz.json")
        server.route("/json/stations/search", FixtureHTTPServer.file(try Data(contentsOf: saved), contentType: "application/json"))
        let environment = ["ONAIR_RADIO_BROWSER_URL": server.baseURL.absoluteString]
        let search = try ProcessRunner.run(OnairBinary.path, ["search", "jazz", "--add"], environment: onair.environment.merging(environment) { $1 })
        XCTAssertTrue(search.succeeded, "\(search)")
        let id = try XCTUnwrap(search.stdoutText.components(separatedBy: "onair listen ").last?.split(separator: "\n").first.map(String.init))
        let show = try onair.run(["stations", "show", id, "--json"])
        XCTAssertTrue(show.succeeded, "\(show)")
        XCTAssertEqual(server.requests("/json/stations/search").first?.headers["User-Agent"]?.hasPrefix("onair/"), true)
    }

    func testStdoutCarriesExactlyThePCMAndEventsGoToStderr() throws {
        server.route("/pcm.mp3", FixtureHTTPServer.icyStream(ICYStreamWriter(audio: mp3, metaint: 16_000, schedule: [.title("T")])))
        let result = try onair.run(["listen", server.url("/pcm.mp3").absoluteString, "--sink", "stdout", "--duration", "1.5", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(result.stdout.count, 72_000 * 4, "1.5 s of 48000:16:2")
        let audio = try PCMAudio(raw: result.stdout, format: .s16le, sampleRate: 48000, channels: 2)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertTrue(OnairBinary.events(result.stderrText).contains { $0["event"] as? String == "connected" })
    }

    func testTheProxyFromTheEnvironmentIsUsed() throws {
        // The fixture plays the proxy: it gets the absolute-form request for a host that does not exist.
        server.route("http://radio.invalid/live.mp3", FixtureHTTPServer.icyStream(ICYStreamWriter(audio: mp3, metaint: 16_000)))
        let environment = onair.environment.merging(["http_proxy": server.baseURL.absoluteString, "no_proxy": ""]) { $1 }
        let result = try ProcessRunner.run(OnairBinary.path, ["listen", "http://radio.invalid/live.mp3", "--sink", "stdout", "--duration", "1"],
                                           environment: environment)
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(result.stdout.count, 48_000 * 4)
        XCTAssertEqual(server.requestCount("http://radio.invalid/live.mp3"), 1)
    }

    func testHTTPSStreamsAreVerifiedAgainstTheTrustedCA() throws {
        let tls = try TLSFixture(servingFile: "live.mp3",
                                 response: Data("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8) + mp3)
        let url = "https://127.0.0.1:\(tls.port)/live.mp3"
        let trusted = try ProcessRunner.run(OnairBinary.path, ["listen", url, "--sink", "stdout", "--duration", "1"],
                                            environment: onair.environment.merging(["CURL_CA_BUNDLE": tls.caFile.path]) { $1 })
        XCTAssertTrue(trusted.succeeded, "\(trusted)")
        XCTAssertEqual(trusted.stdout.count, 48_000 * 4)

        let untrusted = try onair.run(["listen", url, "--sink", "stdout", "--connect-timeout", "3"])
        XCTAssertEqual(untrusted.status, 1, "\(untrusted)")
        XCTAssertTrue(untrusted.stderrText.lowercased().contains("certificate"), untrusted.stderrText)
    }
}

/// A real TLS server: `openssl s_server -HTTP` with a throwaway CA and a certificate for 127.0.0.1.
/// It serves files from its directory verbatim, headers included.
private final class TLSFixture {
    let directory: TemporaryDirectory
    let port: UInt16
    let caFile: URL
    private let process: RunningProcess

    init(servingFile name: String, response: Data) throws {
        directory = try TemporaryDirectory(prefix: "onair-tls")
        let dir = directory.url.path
        caFile = directory.file("ca.pem")
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: directory.file("san.ext"))
        for arguments in [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/ca.key", "-out", caFile.path, "-days", "1", "-subj", "/CN=onair test CA"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/server.key", "-out", "\(dir)/server.csr", "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", "\(dir)/server.csr", "-CA", caFile.path, "-CAkey", "\(dir)/ca.key", "-CAcreateserial",
             "-out", "\(dir)/server.pem", "-days", "1", "-extfile", "\(dir)/san.ext"],
        ] {
            _ = try ProcessRunner.run("openssl", arguments, timeout: 30).check()
        }
        try response.write(to: directory.file(name))
        port = try FreePort.pick()
        process = try ProcessRunner.start("openssl", ["s_server", "-HTTP", "-quiet", "-accept", "127.0.0.1:\(port)",
                                                      "-cert", "\(dir)/server.pem", "-key", "\(dir)/server.key"],
                                          currentDirectory: directory.url)
        let deadline = Date(timeIntervalSinceNow: 10)
        while !FreePort.isAccepting(port) {
            guard Date() < deadline, process.isRunning else { throw XCTSkip("openssl s_server did not start: \(process.result())") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit { process.stop(grace: 0) }
}
