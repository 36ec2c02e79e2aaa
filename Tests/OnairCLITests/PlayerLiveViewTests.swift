import Foundation
import XCTest
import TestSupport

/// `onair listen` on a terminal: the live view and its keys, driven in tmux against a real Icecast,
/// playing to the speaker of a private PulseAudio with a null sink.
final class PlayerLiveViewTests: XCTestCase {
    /// Started once for the class; a failure to start fails each test with its reason.
    nonisolated(unsafe) private static var started: Result<IcecastHarness, Error>?
    private var icecast: IcecastHarness!

    override class func setUp() { started = Result { try IcecastHarness() } }

    override class func tearDown() {
        try? started?.get().stop()
        started = nil
    }

    override func setUpWithError() throws {
        icecast = try Self.started?.get()
        guard ProcessRunner.which("tmux") != nil else { throw XCTSkip("tmux is missing: install it with scripts/setup") }
    }

    func testTheViewFollowsTitlesTheKeysReachTheSpeakerAndQuitRestoresTheTerminal() throws {
        let pulse: PulseAudioHarness
        do { pulse = try PulseAudioHarness() } catch { throw XCTSkip("pulseaudio could not start: \(error)") }
        defer { pulse.stop() }
        try icecast.startSource(mount: "/view.mp3", codec: .mp3, title: "First Song")
        defer { try? icecast.stopSource(mount: "/view.mp3") }
        let onair = try OnairBinary()
        let tmux = try TmuxSession(environment: onair.environment.merging(["PULSE_SERVER": pulse.server]) { $1 })
        defer { tmux.stop() }
        let settings = onair.home.file("stty.txt").path

        try tmux.type("\(OnairBinary.path) listen \(icecast.url(mount: "/view.mp3").absoluteString); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("♪ First Song"), tmux.shown)
        XCTAssertTrue(tmux.waitFor("▶ live"), tmux.shown)
        XCTAssertTrue(tmux.waitFor("volume 100%"), tmux.shown)
        XCTAssertTrue(tmux.waitUntil { $0.range(of: #"mp3 128 kbit/s 44.1 kHz stereo · buffer \d+\.\d s · reconnects 0 · gaps 0"#,
                                                 options: .regularExpression) != nil }, tmux.shown)

        try icecast.setTitle(mount: "/view.mp3", "Second Song – Café")
        XCTAssertTrue(tmux.waitFor("♪ Second Song – Café"), tmux.shown)

        // The speaker sink plays into the sound server: one stream, whose volume the keys set.
        XCTAssertTrue(eventually(timeout: 10) { (try? pulse.sinkInputs().count) == 1 })
        let input = try XCTUnwrap(pulse.sinkInputs().first)
        XCTAssertEqual(input["application.name"], "onair")
        XCTAssertEqual(input["Corked"], "no")
        XCTAssertTrue(input["Volume"]?.contains("100%") == true, "\(input)")
        try tmux.type("-")
        XCTAssertTrue(tmux.waitFor("volume 90%"), tmux.shown)
        XCTAssertTrue(eventually(timeout: 5) { (try? pulse.sinkInputs().first?["Volume"])??.contains(" 90%") == true },
                      "\((try? pulse.sinkInputs()) ?? [])")
        try tmux.type("++")
        XCTAssertTrue(eventually(timeout: 5) { (try? pulse.sinkInputs().first?["Volume"])??.contains(" 110%") == true },
                      "\((try? pulse.sinkInputs()) ?? [])")
        try tmux.type("m")
        XCTAssertTrue(tmux.waitFor("muted"), tmux.shown)
        XCTAssertTrue(eventually(timeout: 5) { (try? pulse.sinkInputs().first?["Mute"]) == "yes" }, "\((try? pulse.sinkInputs()) ?? [])")

        try tmux.type("s")
        XCTAssertTrue(tmux.waitFor("sleep in 4:5"), tmux.shown)

        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)
        // Back at the shell: typed text echoes again and the line discipline is canonical.
        try tmux.type("stty -a > \(settings); echo typed-back\n")
        XCTAssertTrue(tmux.waitFor("echo typed-back"), "what is typed shows: \(tmux.shown)")
        XCTAssertTrue(eventually(timeout: 5) { (try? String(contentsOfFile: settings, encoding: .utf8))?.contains("echoctl") == true })
        let stty = try String(contentsOfFile: settings, encoding: .utf8)
        let flags = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
        XCTAssertTrue(flags.contains("icanon") && flags.contains("echo"), stty)
        XCTAssertTrue(eventually(timeout: 5) { (try? pulse.sinkInputs().count) == 0 }, "the stream is closed")
    }

    func testTheSleepTimerStopsPlaybackByItselfAfterFadingOut() throws {
        try icecast.startSource(mount: "/sleep.mp3", codec: .mp3, frequency: 440)
        defer { try? icecast.stopSource(mount: "/sleep.mp3") }
        let onair = try OnairBinary()
        // A catalogue station with a programme on air all day, every day: the view names it.
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "bedside", "name": "Bedside FM", "country": "GB", "language": "en",
         "timeZone": "UTC", "streams": [{"url": "\(icecast.url(mount: "/sleep.mp3").absoluteString)", "kind": "icy"}],
         "programmes": [{"id": "night-music", "name": "Night Music", "slots": [
            {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "start": "00:00", "duration": "24h"}]}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))
        // A "minute" of 0.8 s: the first setting, 5 minutes, runs out after 4 s.
        let tmux = try TmuxSession(environment: onair.environment.merging(["ONAIR_TEST_MINUTE_SECONDS": "0.8"]) { $1 })
        defer { tmux.stop() }
        let wav = onair.home.file("sleep.wav")
        try tmux.type("\(OnairBinary.path) listen bedside --sink wav:\(wav.path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("Bedside FM · Night Music"), tmux.shown)
        XCTAssertTrue(tmux.waitFor("▶ live"), tmux.shown)
        try tmux.type("s")
        XCTAssertTrue(tmux.waitFor("sleep in 0:0"), tmux.shown)
        XCTAssertTrue(tmux.waitFor("exit=0", timeout: 20), "nothing pressed, yet it stops: \(tmux.shown)")
        XCTAssertTrue(tmux.shown.contains("sleep timer: stopped"), tmux.shown)
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertGreaterThan(audio.duration, 4)
        XCTAssertLessThan(audio.duration, 15)
        let loud = audio.slice(from: audio.duration - 4.5, to: audio.duration - 3).rmsDBFS()
        let fading = audio.slice(from: audio.duration - 0.6).rmsDBFS()
        XCTAssertGreaterThan(loud - fading, 12, "the last moments fade out: \(loud) dBFS → \(fading) dBFS")
    }

    /// Failed before: the view wrote a station's name (directory data, kept in the catalogue) with its escape
    /// sequence, which moved the cursor back over the name: "XXil FM" on the screen.
    func testTheViewShowsAStationsNameWithoutObeyingItsEscapeSequence() throws {
        try icecast.startSource(mount: "/escape.mp3", codec: .mp3, frequency: 440)
        defer { try? icecast.stopSource(mount: "/escape.mp3") }
        let onair = try OnairBinary()
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "escape", "name": "Evil\\u001b[5DXX\\u202e FM", "country": "GB", "language": "en",
         "timeZone": "UTC", "streams": [{"url": "\(icecast.url(mount: "/escape.mp3").absoluteString)", "kind": "icy"}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))
        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        try tmux.type("\(OnairBinary.path) listen escape --sink wav:\(onair.home.file("escape.wav").path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("▶ live"), tmux.shown)
        XCTAssertTrue(tmux.waitFor("Evil[5DXX FM"), tmux.shown)
        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)
    }

    /// `r` records what is playing, starting with the audio already heard (up to 30 s) and its titles;
    /// `r` again stops, and the file is finalised into the recordings index.
    func testRecordKeyKeepsTheLastSecondsAlreadyHeard() throws {
        try icecast.startSource(mount: "/rec.mp3", codec: .mp3, frequency: 660, title: "Recorded Song")
        defer { try? icecast.stopSource(mount: "/rec.mp3") }
        let onair = try OnairBinary()
        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        let wav = onair.home.file("heard.wav")
        try tmux.type("\(OnairBinary.path) listen \(icecast.url(mount: "/rec.mp3").absoluteString) --sink wav:\(wav.path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("♪ Recorded Song"), tmux.shown)
        Thread.sleep(forTimeInterval: 3)
        try icecast.setTitle(mount: "/rec.mp3", "Second Song")
        XCTAssertTrue(tmux.waitFor("♪ Second Song"), tmux.shown)
        Thread.sleep(forTimeInterval: 2)
        try tmux.type("r")
        XCTAssertTrue(tmux.waitFor("recording since"), tmux.shown)
        let screen = tmux.shown
        let held = try XCTUnwrap(screen.range(of: #"with the (\d+) s before"#, options: .regularExpression).map {
            Double(screen[$0].split(separator: " ")[2])!
        }, screen)
        XCTAssertGreaterThanOrEqual(held, 3)
        Thread.sleep(forTimeInterval: 2)
        try tmux.type("r")
        XCTAssertTrue(tmux.waitFor("saved "), tmux.shown)
        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)

        let list = try onair.run(["recordings", "list", "--json"])
        let recordings = OnairBinary.events(list.stdoutText)
        XCTAssertEqual(recordings.count, 1, "\(list)")
        let recorded = try XCTUnwrap(recordings.first)
        XCTAssertGreaterThanOrEqual(recorded["duration"] as? Double ?? 0, held + 1.5, "\(recorded)")
        let file = try XCTUnwrap(recorded["file"] as? String)
        let audio = try FFprobe.decodePCM(URL(fileURLWithPath: file))
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 660, accuracy: 3)
        // The titles of the audio kept from before `r`, each where it changed: the station sent each once.
        let chapters = try RecordedFile(url: URL(fileURLWithPath: file)).chapters()
        XCTAssertEqual(chapters.map(\.title), ["Recorded Song", "Second Song"], "\(chapters)")
        XCTAssertEqual(chapters.last?.start ?? 0, held - 2, accuracy: 1.5, "the second title two seconds before r: \(chapters)")
    }

    /// `n`/`p` step through the favourites, and each station listened to goes into the history.
    func testFavouriteKeysSwitchStationsAndTheHistoryKeepsThem() throws {
        try icecast.startSource(mount: "/one.mp3", codec: .mp3, frequency: 440, title: "Song On One")
        try icecast.startSource(mount: "/two.mp3", codec: .mp3, frequency: 880, title: "Song On Two")
        defer {
            try? icecast.stopSource(mount: "/one.mp3")
            try? icecast.stopSource(mount: "/two.mp3")
        }
        let one = icecast.url(mount: "/one.mp3").absoluteString
        let two = icecast.url(mount: "/two.mp3").absoluteString
        let onair = try OnairBinary()
        XCTAssertTrue(try onair.run(["favourites", "add", one]).succeeded)
        XCTAssertTrue(try onair.run(["favourites", "add", two]).succeeded)
        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        try tmux.type("\(OnairBinary.path) listen \(one) --sink wav:\(onair.home.file("fav.wav").path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("♪ Song On One"), tmux.shown)
        try tmux.type("n")
        XCTAssertTrue(tmux.waitFor("♪ Song On Two"), tmux.shown)
        try tmux.type("p")
        XCTAssertTrue(tmux.waitFor("♪ Song On One"), tmux.shown)
        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)
        let history = OnairBinary.events(try onair.run(["history", "--json"]).stdoutText).compactMap { $0["item"] as? String }
        XCTAssertEqual(history, [one, two, one], "most recent first")
    }

    /// Space pauses a live station without losing it: it keeps buffering, plays on from where it
    /// paused (behind live by the pause), and `l` jumps back to live.
    func testPauseTimeShiftsAndLGoesBackToLive() throws {
        try icecast.startSource(mount: "/shift.mp3", codec: .mp3, frequency: 550)
        defer { try? icecast.stopSource(mount: "/shift.mp3") }
        let onair = try OnairBinary()
        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        let wav = onair.home.file("shift.wav")
        try tmux.type("\(OnairBinary.path) listen \(icecast.url(mount: "/shift.mp3").absoluteString) --sink wav:\(wav.path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("▶ live"), tmux.shown)
        Thread.sleep(forTimeInterval: 1)
        try tmux.type(" ")
        XCTAssertTrue(tmux.waitFor("⏸ paused"), tmux.shown)
        func bytesPlayed() throws -> Int { try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int ?? 0 }
        Thread.sleep(forTimeInterval: 0.5)
        let playedBeforePause = try bytesPlayed()
        Thread.sleep(forTimeInterval: 3)
        XCTAssertLessThan(try bytesPlayed() - playedBeforePause, 192_000 / 4, "nothing more is played while paused")
        try tmux.type(" ")
        XCTAssertTrue(tmux.waitUntil { $0.contains("0:03 behind live") || $0.contains("0:02 behind live") }, tmux.shown)
        try tmux.type("l")
        XCTAssertTrue(tmux.waitFor("▶ live"), tmux.shown)
        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)
    }
}
