import Foundation
import XCTest
import TestSupport

/// `onair daemon --scrobble-station` against Maloja, a real server of ListenBrainz's API: the songs a station plays
/// reach it once each, in order, also those played while it was away for a minute, and so does a recording heard then; a station message and a song cut by the end are
/// not listens.
final class ScrobblingTests: XCTestCase {
    func testAStationsSongsReachTheServerOnceEachAlsoWhenItWasAway() throws {
        let maloja = try MalojaServer()
        defer { maloja.stop() }
        let onair = try OnairBinary()
        // 32 s of audio a title, served eight times faster than it plays (4 s a title): four songs heard whole, a
        // station message between them, and a fifth song cut by the end of the stream. Asked again (the daemon
        // reconnects once it ends), the station sends audio without titles.
        let titles = ["Artist One - Song One", "Artist Two - Song Two", "Tone Radio: the best tones", "Artist Three - Song Three",
                      "Artist Four - Song Four", "Artist Five - Song Five"]
        let audio = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 200)], codec: .mp3, bitrate: 128))
        let titled = FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio, schedule: titles.enumerated().map {
            .title($1, atAudioByte: $0 * 32 * 16_000)
        }), bytesPerSecond: 8 * 16_000)
        let untitled = FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio), bytesPerSecond: 8 * 16_000)
        let requests = Counter()
        let station = try FixtureHTTPServer(routes: ["/tones.mp3": { request, connection in
            try (requests.increment() == 1 ? titled : untitled)(request, connection)
        }, "/plain.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio))])
        defer { station.stop() }
        let catalogue = onair.home.file("stations.json")
        try Data("""
        {"version": 1, "stations": [{"id": "tones", "name": "Tone Radio", "country": "GB", "language": "en", "timeZone": "Europe/London",
         "tags": [], "streams": [{"url": "\(station.url("/tones.mp3").absoluteString)", "kind": "icy", "codec": "mp3", "bitrate": 128}]},
         {"id": "plain", "name": "Plain Radio", "country": "GB", "language": "en", "timeZone": "Europe/London",
         "tags": [], "streams": [{"url": "\(station.url("/plain.mp3").absoluteString)", "kind": "icy", "codec": "mp3", "bitrate": 128}]}]}
        """.utf8).write(to: catalogue)
        let environment = ["ONAIR_STATIONS": catalogue.path]
        // A recording, to be heard while the server is away.
        XCTAssertTrue(try onair.run(["record", "plain", "--duration", "4"], extraEnvironment: environment).succeeded)
        let recording = try XCTUnwrap(OnairBinary.events(try onair.run(["recordings", "list", "--json"], extraEnvironment: environment).stdoutText)
            .first?["id"] as? Int)

        let refused = try onair.run(["daemon", "--http", "off", "--scrobble-station", "tones"], extraEnvironment: environment)
        XCTAssertEqual(refused.status, 3, "no account: \(refused)")
        XCTAssertTrue(refused.stderrText.contains("onair scrobble login"), refused.stderrText)
        let login = try ProcessRunner.run(OnairBinary.path, ["scrobble", "login", "--server", maloja.listenBrainzRoot], input: Data((maloja.apiKey + "\n").utf8),
                                          environment: onair.environment)
        XCTAssertTrue(login.succeeded, login.stderrText)

        // The server is away for a minute, while every song ends.
        let daemon = try onair.start(["daemon", "--http", "off", "--scrobble-station", "tones"], extraEnvironment: environment)
        defer { daemon.stop() }
        let away = Date()
        XCTAssertTrue(eventually(timeout: 20) { daemon.stderrText.contains("listen(s) kept, sent once it answers") }, daemon.stderrText)
        XCTAssertTrue(eventually(timeout: 40) { (Int(self.waiting(onair)) ?? 0) >= 4 }, "four songs wait: \(waiting(onair))")
        // The recording heard to its end meanwhile: its listen waits with the others (the daemon sends it in its turn).
        let heard = try onair.run(["play", "\(recording)", "--sink", "wav:\(onair.home.file("heard.wav").path)"], extraEnvironment: environment)
        XCTAssertTrue(heard.succeeded, heard.stderrText)
        XCTAssertEqual(waiting(onair), "5")
        Thread.sleep(until: away.addingTimeInterval(60))
        try maloja.start()

        // Retries are at most 30 s apart.
        XCTAssertTrue(eventually(timeout: 45) { ((try? maloja.scrobbles()) ?? []).count >= 5 }, "\(String(describing: try? maloja.scrobbles()))")
        Thread.sleep(forTimeInterval: 3)  // nothing comes twice
        let all = try maloja.scrobbles()
        let played = all.filter { $0.artists == ["Plain Radio"] }
        XCTAssertEqual(played.count, 1, "the recording heard, once: \(all)")
        XCTAssertTrue(played.first?.title.hasPrefix("Plain Radio · ") ?? false, "\(all)")
        let scrobbles = all.filter { $0.artists != ["Plain Radio"] }
        XCTAssertEqual(scrobbles.map(\.title), ["Song One", "Song Two", "Song Three", "Song Four"], "\(scrobbles)")
        XCTAssertEqual(scrobbles.map(\.artists), [["Artist One"], ["Artist Two"], ["Artist Three"], ["Artist Four"]])
        // Each from when it began on the station: 4 s apart, the message's 4 s between the second and the third.
        let gaps = zip(scrobbles.dropFirst(), scrobbles).map { $0.time - $1.time }
        XCTAssertEqual(gaps.count, 3)
        for (gap, expected) in zip(gaps, [4, 8, 4]) { XCTAssertEqual(Double(gap), Double(expected), accuracy: 1.5, "\(gaps)") }
        XCTAssertEqual(waiting(onair), "0", "nothing left waiting")
        XCTAssertTrue(daemon.stderrText.contains("answers again"), daemon.stderrText)
        XCTAssertFalse((daemon.stderrText + daemon.stdoutText).contains(maloja.apiKey), "the token is never shown")
    }

    /// A recording played to its end with `onair play` is a listen, under its station's name; played with --no-scrobble,
    /// it is not.
    func testARecordingPlayedToItsEndReachesTheServerOnce() throws {
        let maloja = try MalojaServer()
        defer { maloja.stop() }
        try maloja.start()
        let onair = try OnairBinary()
        let audio = try Data(contentsOf: AudioFixtures.tones([Tone(frequency: 440, seconds: 8)], codec: .mp3, bitrate: 128))
        let station = try FixtureHTTPServer(routes: ["/tones.mp3": FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio))])
        defer { station.stop() }
        let catalogue = onair.home.file("stations.json")
        try Data("""
        {"version": 1, "stations": [{"id": "tones", "name": "Tone Radio", "country": "GB", "language": "en", "timeZone": "Europe/London",
         "tags": [], "streams": [{"url": "\(station.url("/tones.mp3").absoluteString)", "kind": "icy", "codec": "mp3", "bitrate": 128}]}]}
        """.utf8).write(to: catalogue)
        let environment = ["ONAIR_STATIONS": catalogue.path]
        let recorded = try onair.run(["record", "tones", "--duration", "6"], extraEnvironment: environment)
        XCTAssertTrue(recorded.succeeded, recorded.stderrText)
        let login = try ProcessRunner.run(OnairBinary.path, ["scrobble", "login", "--server", maloja.listenBrainzRoot], input: Data((maloja.apiKey + "\n").utf8),
                                          environment: onair.environment)
        XCTAssertTrue(login.succeeded, login.stderrText)

        let listed = try onair.run(["recordings", "list", "--json"], extraEnvironment: environment)
        let id = try XCTUnwrap(OnairBinary.events(listed.stdoutText).first?["id"] as? Int, listed.stdoutText)
        let output = onair.home.file("heard.wav").path
        let quiet = try onair.run(["play", "\(id)", "--sink", "wav:\(output)", "--no-scrobble"], extraEnvironment: environment)
        XCTAssertTrue(quiet.succeeded, quiet.stderrText)
        let played = try onair.run(["play", "\(id)", "--sink", "wav:\(output)"], extraEnvironment: environment)
        XCTAssertTrue(played.succeeded, played.stderrText)
        XCTAssertTrue(eventually(timeout: 10) { ((try? maloja.scrobbles()) ?? []).count >= 1 }, played.stderrText)
        Thread.sleep(forTimeInterval: 2)
        let scrobbles = try maloja.scrobbles()
        XCTAssertEqual(scrobbles.map(\.artists), [["Tone Radio"]], "\(scrobbles)")
        XCTAssertTrue(scrobbles.first?.title.hasPrefix("Tone Radio · ") ?? false, "\(scrobbles)")
        XCTAssertEqual(waiting(onair), "0")
    }

    /// How many listens wait to be sent, from `onair scrobble status`.
    private func waiting(_ onair: OnairBinary) -> String {
        let status = (try? onair.run(["scrobble", "status"]))?.stdoutText ?? ""
        return status.components(separatedBy: "; ").last?.components(separatedBy: " ").first ?? status
    }
}
