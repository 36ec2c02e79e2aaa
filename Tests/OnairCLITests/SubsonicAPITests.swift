import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
import TestSupport

/// The daemon's Subsonic API (`/rest/`) as phone apps use it: two Subsonic client libraries from PyPI (py-opensonic
/// and py-sonic, in the venv scripts/setup makes) log in each way the API allows, list the catalogue's stations as
/// internet radio, find a recording, stream it with a range request, share a play queue and mark what was heard; a
/// stranger's requests are refused; and every answer's shape is held against Debian's supysonic, a Subsonic server
/// started on the same recordings' files.
final class SubsonicAPITests: XCTestCase {
    static var venv: String { ProcessInfo.processInfo.environment["ONAIR_SUBSONIC_VENV"] ?? "/var/tmp/onair-subsonic" }
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Subsonic")

    func testSubsonicAppsBrowseAndPlayWhatTheBoxHoldsAndAStrangerIsRefused() throws {
        let onair = try OnairBinary()
        // Two episodes of Tone Hour (440 Hz, then 880 Hz) recorded from a local Icecast.
        let icecast = try RecordedTones.record([440.0, 880.0], with: onair)
        defer { icecast.stop() }
        let podcastServer = try FixtureHTTPServer()
        defer { podcastServer.stop() }
        let episode = try Data(contentsOf: AudioFixtures.sine(frequency: 660, seconds: 2, codec: .mp3))
        podcastServer.route("/ep.mp3", FixtureHTTPServer.file(episode, contentType: "audio/mpeg"))
        podcastServer.route("/feed.xml", FixtureHTTPServer.file(Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Tone Talk</title>
          <item><title>Tone Talk: the pilot</title><guid>pilot</guid><pubDate>Wed, 01 Jan 2020 06:00:00 +0000</pubDate>
            <enclosure url="\(podcastServer.url("/ep.mp3").absoluteString)" type="audio/mpeg" length="\(episode.count)"/></item>
        </channel></rss>
        """.utf8), contentType: "application/rss+xml"))
        XCTAssertTrue(try onair.run(["podcasts", "add", podcastServer.url("/feed.xml").absoluteString]).succeeded)
        // Logos: the station's a PNG (fetched once by the box), another station's an SVG (never served: it may carry script).
        let png = onair.home.file("logo.png")
        _ = try ProcessRunner.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1", png.path]).check()
        let logo = try Data(contentsOf: png), logoFetches = Counter()
        podcastServer.route("/logo.png") { request, connection in
            _ = logoFetches.increment()
            try FixtureHTTPServer.file(logo, contentType: "image/png")(request, connection)
        }
        podcastServer.route("/logo.svg", FixtureHTTPServer.file(Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8),
                                                                contentType: "image/svg+xml"))
        try Data("""
        {"version": 1, "stations": [{"id": "tones", "name": "Tones FM", "country": "GB", "language": "en", "timeZone": "UTC",
         "logo": "\(podcastServer.url("/logo.png").absoluteString)",
         "streams": [{"url": "\(icecast.url(mount: "/tones.mp3").absoluteString)", "kind": "icy"}],
         "programmes": [{"id": "tone-hour", "name": "Tone Hour", "slots": [
            {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "start": "00:00", "duration": "24h"}]}]},
         {"id": "vector", "name": "Vector FM", "country": "GB", "language": "en", "timeZone": "UTC",
          "logo": "\(podcastServer.url("/logo.svg").absoluteString)", "streams": [{"url": "http://127.0.0.1:9/v.mp3", "kind": "icy"}]}]}
        """.utf8).write(to: onair.home.url.appendingPathComponent("config/stations.json"))

        let password = try ProcessRunner.run(OnairBinary.path, ["web", "password", "--password-stdin"], input: Data("web-secret\n".utf8),
                                             environment: onair.environment)
        XCTAssertTrue(password.succeeded, "\(password)")
        let appPassword = try onair.run(["web", "app-password"]).check().stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(appPassword.count, 20)
        let apiKey = try onair.run(["web", "token", "create", "phone"]).check().stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let database = onair.home.url.appendingPathComponent("data/onair.sqlite")
        XCTAssertFalse(try Data(contentsOf: database).range(of: Data(appPassword.utf8)) != nil, "the app password is not in the database in clear")

        // A ListenBrainz account (Maloja, a server of its API) for what the apps say they heard.
        let maloja = try MalojaServer()
        defer { maloja.stop() }
        try maloja.start()
        let login = try ProcessRunner.run(OnairBinary.path, ["scrobble", "login", "--server", maloja.listenBrainzRoot],
                                          input: Data((maloja.apiKey + "\n").utf8), environment: onair.environment)
        XCTAssertTrue(login.succeeded, "\(login)")

        let port = try FreePort.pick()
        let daemon = try onair.start(["daemon", "--http", "127.0.0.1:\(port)"])
        defer { daemon.stop() }
        let api = SubsonicRequests(port: port, password: "web-secret")
        XCTAssertTrue(eventually(timeout: 20) { (try? api.json("ping"))?["status"] as? String == "ok" }, daemon.stderrText)
        // The station is on air again, for its live mount.
        try icecast.startSource(mount: "/tones.mp3", codec: .mp3, frequency: 660)

        // The clients.
        let rangeFile = onair.home.file("range.mp3")
        let clients = try ProcessRunner.run(Self.venv + "/bin/python3", [
            Self.scripts.appendingPathComponent("subsonic_clients.py").path, "--port", "\(port)", "--app-password", appPassword,
            "--web-password", "web-secret", "--api-key", apiKey, "--range-file", rangeFile.path,
        ], timeout: 120)
        XCTAssertTrue(clients.succeeded, "\(clients) \(daemon.stderrText)")
        let found = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(clients.stdoutText.utf8)) as? [String: Any], clients.stdoutText)
        XCTAssertEqual(found["ping_salted"] as? Bool, true, "token and salt with the app password")
        XCTAssertEqual(found["ping_api_key"] as? Bool, true, "an API token as apiKey")
        XCTAssertEqual(found["ping_password"] as? Bool, true, "the web password as enc:")
        XCTAssertEqual(found["extensions"] as? [String], ["apiKeyAuthentication", "formPost"])

        // Every station of the catalogue as internet radio, each on this daemon's live mount.
        let catalogue = OnairBinary.events(try onair.run(["stations", "list", "--json"]).check().stdoutText)
        let radio = try XCTUnwrap(found["radio"] as? [[String: String]])
        XCTAssertEqual(Set(radio.compactMap { $0["name"] }), Set(catalogue.compactMap { $0["name"] as? String }))
        XCTAssertEqual(radio.count, catalogue.count)
        let tones = try XCTUnwrap(radio.first { $0["name"] == "Tones FM" })
        let live = try XCTUnwrap(URL(string: try XCTUnwrap(tones["streamUrl"])))
        XCTAssertEqual(live.path, "/live/tones")
        let heard = try RawHTTP.get(live, duration: 4, timeout: 15)
        XCTAssertTrue(heard.statusLine.contains("200"), "\(heard.statusLine) \(heard.bodyText.prefix(200))")
        let liveFile = onair.home.file("live.mp3")
        try heard.body.write(to: liveFile)
        XCTAssertEqual(try FFprobe.decodePCM(liveFile).dominantFrequency() ?? 0, 660, accuracy: 5, "the station's tone, from its streamUrl")
        let tokenless = try RawHTTP.get(URL(string: "http://127.0.0.1:\(port)/live/tones")!, maxBodyBytes: 1000)
        XCTAssertTrue(tokenless.statusLine.contains("401"), "without its token the mount asks for credentials: \(tokenless.statusLine)")

        // search3 finds both recordings; the range request gives the file from byte 1000, which decodes.
        let songs = try XCTUnwrap(found["songs"] as? [[String: Any]])
        XCTAssertEqual(songs.count, 2, "\(songs)")
        XCTAssertTrue(songs.allSatisfy { ($0["title"] as? String)?.hasPrefix("Tone Hour ") == true && $0["album"] as? String == "Tone Hour"
            && $0["artist"] as? String == "Tones FM" && $0["suffix"] as? String == "mp3" }, "\(songs)")
        XCTAssertEqual(found["albums"] as? [String], ["Tone Hour"])
        XCTAssertEqual(found["artists"] as? [String], [], "the query names a programme, not a station")
        XCTAssertEqual(found["range_status"] as? Int, 206)
        let size = try XCTUnwrap(songs[0]["size"] as? Int)
        XCTAssertEqual(found["range_header"] as? String, "bytes 1000-\(size - 1)/\(size)")
        XCTAssertEqual(try Data(contentsOf: rangeFile).count, size - 1000)
        let ranged = try FFprobe.decodePCM(rangeFile)
        XCTAssertGreaterThan(ranged.duration, 1.5)
        XCTAssertEqual(ranged.dominantFrequency() ?? 0, 880, accuracy: 5, "the newest recording comes first")

        // A queue saved by one app is the one another reads; a scrobble marks the recording heard for every player.
        let ids = songs.compactMap { $0["id"] as? String }
        let queue = try XCTUnwrap(found["queue"] as? [String: Any])
        XCTAssertEqual(queue["entries"] as? [String], ids)
        XCTAssertEqual(queue["current"] as? String, ids.last)
        XCTAssertEqual(queue["position"] as? Int, 61500)
        XCTAssertEqual(queue["changedBy"] as? String, "onair-test")
        XCTAssertEqual(found["now_playing"] as? Bool, true)
        XCTAssertEqual(found["scrobbled"] as? String, "ok")
        // The scrobbled recording reaches ListenBrainz once, under its station; what played now is no listen.
        XCTAssertTrue(eventually(timeout: 20) { ((try? maloja.scrobbles()) ?? []).count >= 1 }, daemon.stderrText)
        Thread.sleep(forTimeInterval: 2)
        let listens = try maloja.scrobbles()
        XCTAssertEqual(listens.map(\.title), [try XCTUnwrap(songs[0]["title"] as? String)], "\(listens)")
        XCTAssertEqual(listens.first?.artists, ["Tones FM"])
        let heardFlags = try ProcessRunner.run("python3", ["-c", "import sqlite3,sys; print([r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT heard FROM player_position')])",
                                                           database.path]).check().stdoutText
        XCTAssertEqual(heardFlags.trimmingCharacters(in: .whitespacesAndNewlines), "[1]")

        // The web app's player, logged in, plays the other recording to its end: one more listen, under its station.
        let jar = onair.home.file("cookies.txt").path, base = "http://127.0.0.1:\(port)"
        _ = try ProcessRunner.run("curl", ["-s", "-c", jar, "-o", "/dev/null", "--data-urlencode", "password=web-secret", base + "/login"]).check()
        let page = try ProcessRunner.run("curl", ["-s", "-b", jar, base + "/"]).check().stdoutText
        let csrf = try XCTUnwrap(page.firstMatch(of: /name="onair-csrf" content="([0-9a-f]+)"/)?.1, page)
        let older = try XCTUnwrap(OnairBinary.events(try onair.run(["recordings", "list", "--json"]).check().stdoutText).first?["id"] as? Int)
        let played = try ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-b", jar, "-X", "PUT", "-H", "Content-Type: application/json",
                                                    "-H", "X-CSRF-Token: \(csrf)", "--data",
                                                    #"{"items": ["recording:\#(older)"], "current": "recording:\#(older)", "seconds": 3, "heard": true}"#,
                                                    base + "/player/queue"]).check().stdoutText
        XCTAssertEqual(played, "200")
        XCTAssertTrue(eventually(timeout: 20) { ((try? maloja.scrobbles()) ?? []).count >= 2 }, daemon.stderrText)
        let webListen = try XCTUnwrap(try maloja.scrobbles().first { $0.title != listens.first?.title })
        XCTAssertEqual(webListen.artists, ["Tones FM"])
        XCTAssertTrue(webListen.title.hasPrefix("Tone Hour · "), webListen.title)

        let podcasts = try XCTUnwrap(found["podcasts"] as? [[String: Any]])
        XCTAssertEqual(podcasts.first?["title"] as? String, "Tone Talk")
        XCTAssertEqual(podcasts.first?["episodes"] as? [String], ["Tone Talk: the pilot"])
        // Not downloaded, the episode plays from its feed's address.
        let episodeID = try XCTUnwrap((podcasts.first?["streamIds"] as? [String])?.first)
        let redirect = try RawHTTP.get(api.url("stream", ["id": episodeID]))
        XCTAssertTrue(redirect.statusLine.contains("302"), redirect.statusLine)
        XCTAssertEqual(redirect.headers["Location"], podcastServer.url("/ep.mp3").absoluteString)

        // Cover art: the station's logo from the box (fetched once), for the station, its albums and its tracks alike.
        for id in [ids[0], try XCTUnwrap(radio.first { $0["name"] == "Tones FM" }?["id"])] {
            let art = try RawHTTP.get(api.url("getCoverArt", ["id": id]))
            XCTAssertEqual(art.headers["Content-Type"], "image/png", "\(id): \(art.bodyText.prefix(300))")
            XCTAssertEqual(art.body, logo)
        }
        XCTAssertEqual(logoFetches.add(0), 1, "fetched once, then from the box's cache")
        let vector = try XCTUnwrap(radio.first { $0["name"] == "Vector FM" }?["id"])
        XCTAssertEqual(try api.json("getCoverArt", ["id": vector])["error"].flatMap { ($0 as? [String: Any])?["code"] as? Int }, 70,
                       "an SVG is never served as a station's logo")

        // The same tree as XML, which the older apps read.
        let albumID = try XCTUnwrap(try api.json("getAlbumList2", ["type": "newest"])["albumList2"].flatMap { ($0 as? [String: Any])?["album"] as? [[String: Any]] }?.first?["id"] as? String)
        let xml = try RawHTTP.get(api.url("getAlbum", ["id": albumID], format: nil)).bodyText
        XCTAssertTrue(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?><subsonic-response xmlns="http://subsonic.org/restapi" status="ok""#), xml)
        XCTAssertEqual(XMLElementCounter.count("song", in: xml), 2, xml)

        try compareShapes(onair: onair, api: api, port: port)
        try assertStrangersAreRefused(api: api, port: port, ids: ids, apiKey: apiKey, daemon: daemon)

        // A new app password ends what the old login was given: the live address stops opening.
        XCTAssertTrue(try onair.run(["web", "app-password"]).succeeded)
        let revoked = try RawHTTP.get(live, maxBodyBytes: 1000)
        XCTAssertTrue(revoked.statusLine.contains("401"), "\(revoked.statusLine)")
    }

    /// Each endpoint's answer against supysonic's for the same request, in JSON and in XML: every key it has, ours has,
    /// with the same type. supysonic (API 1.10.2) does not offer podcasts, the play queue or OpenSubsonic's extensions;
    /// those the client libraries above read instead.
    private func compareShapes(onair: OnairBinary, api: SubsonicRequests, port: UInt16) throws {
        // Laid out as a music library is: artist, album, tracks.
        let music = onair.home.url.appendingPathComponent("reference-music")
        let albumFolder = music.appendingPathComponent("Tones FM/Tone Hour")
        try FileManager.default.createDirectory(at: albumFolder, withIntermediateDirectories: true)
        for (index, recording) in OnairBinary.events(try onair.run(["recordings", "list", "--json"]).check().stdoutText).enumerated() {
            let file = URL(fileURLWithPath: try XCTUnwrap(recording["file"] as? String))
            try FileManager.default.copyItem(at: file, to: albumFolder.appendingPathComponent("\(index)-" + file.lastPathComponent))
        }
        let reference = try SupysonicServer(musicFolder: music, user: "onair", password: "web-secret")
        defer { reference.stop() }
        _ = try RawHTTP.get(reference.url("createInternetRadioStation", ["name": "Tones FM", "streamUrl": "http://127.0.0.1:9/tones.mp3",
                                                                         "homepageUrl": "http://127.0.0.1:9/"]))
        func ids(_ get: (String, [String: String]) throws -> [String: Any]) throws -> [String: String] {
            func id(_ answer: [String: Any], _ path: String...) throws -> String {
                var value: Any? = answer
                for key in path {
                    if let list = value as? [Any] { value = list.first }
                    value = (value as? [String: Any])?[key]
                }
                return try XCTUnwrap(value as? String, "\(path) in \(answer)")
            }
            let album = try id(try get("getAlbumList2", ["type": "newest"]), "albumList2", "album", "id")
            let song = try id(try get("getAlbum", ["id": album]), "album", "song", "id")
            let artist = try id(try get("getArtists", [:]), "artists", "index", "artist", "id")
            let directory = try id(try get("getAlbum", ["id": album]), "album", "song", "parent")
            return ["album": album, "song": song, "artist": artist, "directory": directory]
        }
        let ours = try ids { try api.json($0, $1) }
        let theirs = try ids { endpoint, parameters in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: try RawHTTP.get(reference.url(endpoint, parameters)).body) as? [String: Any])["subsonic-response"] as? [String: Any] ?? [:]
        }
        let requests: [(String, [String: String])] = [
            ("ping", [:]), ("getLicense", [:]), ("getMusicFolders", [:]), ("getIndexes", [:]), ("getArtists", [:]),
            ("getArtist", ["id": "artist"]), ("getMusicDirectory", ["id": "directory"]), ("getAlbumList2", ["type": "newest"]),
            ("getAlbumList", ["type": "alphabeticalByName"]), ("getAlbum", ["id": "album"]), ("getSong", ["id": "song"]),
            ("search3", ["query": "tone"]), ("search3", ["query": "\"\""]), ("getInternetRadioStations", [:]), ("scrobble", ["id": "song"]),
            ("getStarred2", [:]), ("getUser", ["username": "onair"]), ("getPodcasts", [:]), ("getNewestPodcasts", [:]), ("getPlayQueue", [:]),
            ("getOpenSubsonicExtensions", [:]),
        ]
        func side(_ ids: [String: String], _ endpoint: String, _ parameters: [String: String]) -> [String: Any] {
            ["endpoint": endpoint, "params": parameters.mapValues { ids[$0] ?? $0 }]
        }
        let list = requests.map { endpoint, parameters in
            ["name": "\(endpoint) \(parameters.keys.sorted().joined(separator: ","))", "ours": side(ours, endpoint, parameters),
             "reference": side(theirs, endpoint, parameters)] as [String: Any]
        }
        let requestFile = onair.home.file("shapes.json")
        try JSONSerialization.data(withJSONObject: list).write(to: requestFile)
        for form in [[], ["--xml"]] {
            let compared = try ProcessRunner.run("python3", [Self.scripts.appendingPathComponent("subsonic_shapes.py").path,
                                                             "--ours", "http://127.0.0.1:\(port)", "--reference", reference.baseURL.absoluteString,
                                                             "--user", "onair", "--password", "web-secret", "--requests", requestFile.path] + form,
                                                 timeout: 120)
            // One difference is supysonic's: the spec (and OpenSubsonic) has a music folder's id an integer, supysonic a string.
            let differences = compared.stdoutText.split(separator: "\n").filter { !$0.contains("reference does not offer") && !$0.hasPrefix("shapes:") }
            XCTAssertEqual(differences, form.isEmpty ? ["getMusicFolders : type of musicFolders.musicFolder[].id: ours number, reference string"] : [],
                           "shapes \(form): \(compared.stdoutText) \(compared.stderrText)")
            // Those supysonic does not offer (podcasts, the play queue, OpenSubsonic's extensions) the clients above read.
            XCTAssertEqual(compared.stdoutText.split(separator: "\n").filter { $0.contains("reference does not offer") }.count, 4, compared.stdoutText)
        }
        // A range of a track, as both servers answer it.
        for url in [api.url("stream", ["id": ours["song"]!]), reference.url("stream", ["id": theirs["song"]!])] {
            let partial = try RawHTTP.get(url, headers: [("Range", "bytes=100-199")])
            XCTAssertTrue(partial.statusLine.contains("206"), "\(url): \(partial.statusLine)")
            XCTAssertEqual(partial.body.count, 100)
            XCTAssertTrue(partial.headers["Content-Range"]?.hasPrefix("bytes 100-199/") == true, "\(partial.headers)")
        }
    }

    /// What a stranger gets: the spec's error codes, no audio, and after five wrong passwords a wait, even for the right one.
    private func assertStrangersAreRefused(api: SubsonicRequests, port: UInt16, ids: [String], apiKey: String, daemon: RunningProcess) throws {
        func code(_ url: URL) throws -> Int? {
            let answer = try RawHTTP.get(url)
            XCTAssertTrue(answer.statusLine.contains("200"), answer.statusLine)
            let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return ((json?["subsonic-response"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int
        }
        let root = "http://127.0.0.1:\(port)/rest"
        XCTAssertEqual(try code(URL(string: "\(root)/ping.view?f=json&v=1.16.1&c=x")!), 10, "no credentials")
        XCTAssertEqual(try code(URL(string: "\(root)/ping.view?f=json&u=onair&apiKey=k&v=1.16.1&c=x")!), 43, "a key and a user")
        XCTAssertEqual(try code(URL(string: "\(root)/ping.view?f=json&apiKey=onair_nope&v=1.16.1&c=x")!), 44, "a key not the box's")
        XCTAssertEqual(try code(URL(string: "\(root)/ping.view?f=json&u=onair&t=00&s=abcdef&v=1.16.1&c=x")!), 40, "a wrong token")
        let stream = try RawHTTP.get(URL(string: "\(root)/stream.view?id=rec-1&u=onair&p=guess&v=1.16.1&c=x")!)
        XCTAssertEqual(stream.headers["Content-Type"], "text/xml; charset=utf-8", "no audio for a wrong password")
        XCTAssertTrue(stream.bodyText.contains(#"<error code="40""#), stream.bodyText)
        let jsonp = try RawHTTP.get(api.url("ping", ["f": "jsonp", "callback": "alert"], format: nil))
        XCTAssertFalse(jsonp.bodyText.contains("alert"), "JSONP is not served: \(jsonp.bodyText)")
        XCTAssertTrue(jsonp.bodyText.contains(#"status="failed""#), jsonp.bodyText)
        XCTAssertEqual(try code(api.url("getAlbum", ["id": "../../etc/passwd"])), 70)
        // An enc: password that is not hexadecimal text, in bytes or in characters (CR LF is one Swift Character).
        for hex in ["ab%0D%0A", "ab%C3%A9", "+f", "6%F0%9F%8E%B5"] {
            XCTAssertEqual(try code(URL(string: "\(root)/ping.view?f=json&u=onair&p=enc:\(hex)&v=1.16.1&c=x")!), 40, hex)
        }
        // A page of another site cannot make the browser ask, whatever it sends.
        let crossSite = try RawHTTP.get(api.url("ping"), headers: [("Sec-Fetch-Site", "cross-site")])
        XCTAssertTrue(crossSite.bodyText.contains(#""code":50"#), crossSite.bodyText)
        // Values an app may send that no time or position is: stored bounded, read back without harm.
        XCTAssertEqual(try api.json("savePlayQueue", ["id": ids[0], "position": "9223372036854775807"])["status"] as? String, "ok")
        XCTAssertEqual((try api.json("getPlayQueue")["playQueue"] as? [String: Any])?["position"] as? Int, 31_536_000_000, "a year at most")
        XCTAssertEqual(try api.json("scrobble", ["id": ids[0], "time": "1e30"])["status"] as? String, "ok")
        XCTAssertEqual(try api.json("search3", ["query": ""])["searchResult3"].flatMap { ($0 as? [String: Any])?["song"] as? [Any] }?.count, 2,
                       "an empty query finds everything")
        for _ in 0..<4 { _ = try code(URL(string: "\(root)/ping.view?f=json&u=onair&p=guess&v=1.16.1&c=x")!) }
        // Five wrong passwords in the minute (the stream's and these four): the next guess waits; an API key, a long random
        // secret no one guesses, does not.
        let throttled = try RawHTTP.get(URL(string: "\(root)/ping.view?f=json&u=onair&p=guess2&v=1.16.1&c=x")!).bodyText
        XCTAssertTrue(throttled.contains("too many wrong passwords"), throttled)
        XCTAssertEqual(try code(URL(string: "\(root)/ping.view?f=json&apiKey=\(apiKey)&v=1.16.1&c=x")!), nil)
        XCTAssertTrue(daemon.isRunning, daemon.stderrText)
    }
}

/// Requests to the daemon's Subsonic API with the web password.
struct SubsonicRequests {
    let port: UInt16
    let password: String

    func url(_ endpoint: String, _ parameters: [String: String] = [:], format: String? = "json") -> URL {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/rest/\(endpoint)")!
        var items = ["u": "onair", "p": password, "v": "1.16.1", "c": "onair-test"].merging(parameters) { $1 }
        if let format, items["f"] == nil { items["f"] = format }
        components.queryItems = items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url!
    }

    /// The `subsonic-response` object.
    func json(_ endpoint: String, _ parameters: [String: String] = [:]) throws -> [String: Any] {
        let answer = try RawHTTP.get(url(endpoint, parameters))
        let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return json?["subsonic-response"] as? [String: Any] ?? [:]
    }
}

/// Counts the elements named `name` in an XML document, with Foundation's parser (so the document must be well formed).
final class XMLElementCounter: NSObject, XMLParserDelegate {
    private let name: String
    private var count = 0

    private init(name: String) { self.name = name }

    static func count(_ name: String, in xml: String) -> Int? {
        let counter = XMLElementCounter(name: name)
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = counter
        return parser.parse() ? counter.count : nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if elementName == name { count += 1 }
    }
}
