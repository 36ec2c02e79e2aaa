import Foundation
import XCTest
import TestSupport

/// `onair listen` and `onair resolve` on HLS: live playlists from FFmpeg's hls muxer, served locally.
final class ListenHLSTests: XCTestCase {
    private var onair: OnairBinary!
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        onair = try OnairBinary()
        server = try FixtureHTTPServer()
    }

    override func tearDown() { server.stop() }

    private func live(frequency: Double, at prefix: String, listSize: Int = 5, segments: Int = 4) throws -> LiveHLSEncoder {
        let encoder = try LiveHLSEncoder(frequency: frequency, listSize: listSize)
        server.serveDirectory(encoder.directory.url, at: prefix)
        try encoder.waitForSegments(segments)
        return encoder
    }

    private func listen(_ target: String, _ extra: [String] = [], seconds: Int = 3) throws -> (ProcessResult, PCMAudio?, [[String: Any]]) {
        let wav = onair.home.file("out-\(UUID().uuidString).wav")
        let result = try onair.run(["listen", target, "--sink", "wav:\(wav.path)", "--duration", "\(seconds)", "--json"] + extra)
        return (result, try? PCMAudio(wavFile: wav), OnairBinary.events(result.stdoutText))
    }

    func testAnHLSURLPlaysWithTheStreamsClockInTheEvents() throws {
        let encoder = try live(frequency: 440, at: "/hls/")
        let (result, audio, events) = try listen(server.url("/hls/\(encoder.playlistPath)").absoluteString)
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(try XCTUnwrap(audio).duration, 3, accuracy: 0.01)
        XCTAssertEqual(audio?.dominantFrequency() ?? 0, 440, accuracy: 2)
        let names = events.compactMap { $0["event"] as? String }
        XCTAssertEqual(names.first, "connected", "\(names)")
        XCTAssertTrue(names.contains("decoding"), "\(names)")
        let clock = try XCTUnwrap(events.first { $0["event"] as? String == "program-date-time" })
        XCTAssertEqual(clock["mediaTime"] as? Double, 0)
        XCTAssertNotNil(Self.date(clock["programDateTime"]), "\(clock)")
        XCTAssertEqual((events.first?["connection"] as? [String: Any])?["contentType"] as? String, "video/mp2t")
    }

    func testHLSStationsAndPlaylistURLsWithoutASuffixAreTakenTransparently() throws {
        let encoder = try live(frequency: 660, at: "/hls/")
        // A station that only streams HLS: resolved first, then followed.
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "local-hls", "name": "Local HLS", "country": "GB", "language": "en",
         "timeZone": "Europe/London", "streams": [{"url": "\(server.url("/hls/live.m3u8"))", "kind": "hls", "codec": "aac"}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))
        let (station, stationAudio, _) = try listen("local-hls")
        XCTAssertTrue(station.succeeded, "\(station)")
        XCTAssertEqual(stationAudio?.dominantFrequency() ?? 0, 660, accuracy: 2)

        // A URL that gives no hint: connected to like Icecast, then handed over when it answers with a playlist.
        // The route keeps the playlist's path, not the encoder: the encoder must end with the test.
        let playlistFile = encoder.directory.file(LiveHLSEncoder.playlistName)
        server.route("/hls/radio") { request, connection in
            let playlist = try Data(contentsOf: playlistFile)
            try FixtureHTTPServer.file(playlist, contentType: "application/vnd.apple.mpegurl")(request, connection)
        }
        let (plain, plainAudio, events) = try listen(server.url("/hls/radio").absoluteString)
        XCTAssertTrue(plain.succeeded, "\(plain)")
        XCTAssertEqual(plainAudio?.dominantFrequency() ?? 0, 660, accuracy: 2)
        XCTAssertFalse(events.contains { $0["event"] as? String == "error" }, "\(events)")
    }

    func testQualityPicksTheVariantAndResolveShowsTheChoice() throws {
        let encoders = [try live(frequency: 440, at: "/low/"), try live(frequency: 880, at: "/high/")]
        defer { withExtendedLifetime(encoders) {} }
        let master = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a.40.2"
        low/live.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
        high/live.m3u8
        """
        server.route("/master.m3u8", FixtureHTTPServer.file(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"))
        let url = server.url("/master.m3u8").absoluteString
        for (quality, frequency) in [("low", 440.0), ("high", 880.0)] {
            let (result, audio, _) = try listen(url, ["--quality", quality])
            XCTAssertTrue(result.succeeded, "\(quality): \(result)")
            XCTAssertEqual(audio?.dominantFrequency() ?? 0, frequency, accuracy: 2, quality)
        }

        let resolved = try onair.run(["resolve", url, "--quality", "low", "--json"])
        XCTAssertTrue(resolved.succeeded, "\(resolved)")
        let json = try XCTUnwrap(OnairBinary.events(resolved.stdoutText).first)
        XCTAssertEqual(json["kind"] as? String, "hls")
        XCTAssertEqual(json["url"] as? String, server.url("/low/live.m3u8").absoluteString)
        XCTAssertEqual((json["variants"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual((json["chosenVariant"] as? [String: Any])?["bandwidth"] as? Int, 48000)
        let hls = try XCTUnwrap(json["hls"] as? [String: Any])
        XCTAssertEqual(hls["targetDuration"] as? Double, 1)
        XCTAssertEqual(hls["windowSeconds"] as? Double ?? 0, 5, accuracy: 0.3)
        XCTAssertEqual(hls["segments"] as? Int, 5)
        XCTAssertEqual(hls["programDateTime"] as? Bool, true)

        let text = try onair.run(["resolve", url]).stdoutText
        XCTAssertTrue(text.contains("target   1 s segments"), text)
        XCTAssertTrue(text.contains("* 128 kbit/s"), "the chosen variant is marked: \(text)")
    }

    func testFromStartsWhereTheWindowHoldsThatTime() throws {
        let encoder = try live(frequency: 440, at: "/hls/", listSize: 30, segments: 12)
        let url = server.url("/hls/\(encoder.playlistPath)").absoluteString
        let wanted = Date(timeIntervalSinceNow: -8)
        let (result, audio, events) = try listen(url, ["--from", ISO8601DateFormatter().string(from: wanted)])
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(audio?.duration ?? 0, 3, accuracy: 0.01)
        let first = try XCTUnwrap(Self.date(events.first { $0["event"] as? String == "program-date-time" }?["programDateTime"]))
        // The segment holding the requested second starts within a segment before it.
        XCTAssertEqual(first.timeIntervalSince(wanted), -0.5, accuracy: 1.1, "\(first) for \(wanted)")
        XCTAssertFalse(events.contains { $0["event"] as? String == "warning" }, "\(events)")

        let (early, _, earlyEvents) = try listen(url, ["--from", ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: -600))])
        XCTAssertTrue(early.succeeded, "\(early)")
        XCTAssertTrue(earlyEvents.contains { ($0["message"] as? String)?.contains("window begins") == true }, "\(earlyEvents)")
    }

    func testAnUnreadableFromIsAUsageError() throws {
        let result = try onair.run(["listen", "http://127.0.0.1:9/x.m3u8", "--from", "yesterday", "--sink", "stdout"])
        XCTAssertEqual(result.status, 64, "\(result)")
        XCTAssertTrue(result.stderrText.contains("invalid --from 'yesterday'"), result.stderrText)
    }

    private static func date(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
