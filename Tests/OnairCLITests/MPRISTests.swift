import Foundation
import XCTest
import TestSupport

/// `onair listen` and `onair play` as MPRIS players on a private session bus, driven and read with
/// `playerctl` as a desktop's media keys and widgets would.
final class MPRISTests: XCTestCase {
    /// Started once for the class; a failure to start fails each test with its reason.
    nonisolated(unsafe) private static var started: Result<IcecastHarness, Error>?
    private var icecast: IcecastHarness!
    private var bus: SessionBusHarness!
    private var onair: OnairBinary!

    override class func setUp() {
        started = Result { try IcecastHarness() }
    }

    override class func tearDown() {
        try? started?.get().stop()
        started = nil
    }

    override func setUpWithError() throws {
        icecast = try Self.started?.get()
        guard ProcessRunner.which("playerctl") != nil else { throw XCTSkip("playerctl is missing: install it with scripts/setup") }
        bus = try SessionBusHarness()
        onair = try OnairBinary()
    }

    override func tearDown() {
        bus?.stop()
    }

    func testPlayerctlShowsTheLiveTitlePausesWithTimeShiftAndFollowsTitleChanges() throws {
        try icecast.startSource(mount: "/mpris.mp3", codec: .mp3, title: "First Artist - First Song")
        defer { try? icecast.stopSource(mount: "/mpris.mp3") }
        let wav = onair.home.file("mpris.wav")
        let listen = try onair.start(["listen", icecast.url(mount: "/mpris.mp3").absoluteString, "--sink", "wav:\(wav.path)",
                                      "--duration", "14"], extraEnvironment: bus.environment)
        XCTAssertTrue(eventually(timeout: 10) { bus.playerctl(["metadata", "title"]) == "First Song" },
                      "title: \(bus.playerctl(["metadata"]) ?? "no player")\n\(listen.stderrText)")
        XCTAssertEqual(bus.playerctl(["metadata", "artist"]), "First Artist")
        XCTAssertEqual(bus.playerctl(["status"]), "Playing")

        bus.playerctl(["play-pause"])
        let paused = Date()
        XCTAssertEqual(bus.playerctl(["status"]), "Paused")
        Thread.sleep(forTimeInterval: 3)
        bus.playerctl(["play-pause"])
        let pausedFor = Date().timeIntervalSince(paused)
        XCTAssertEqual(bus.playerctl(["status"]), "Playing")

        try icecast.setTitle(mount: "/mpris.mp3", "Second Artist - Second Song")
        XCTAssertTrue(eventually(timeout: 10) { bus.playerctl(["metadata", "title"]) == "Second Song" },
                      "title: \(bus.playerctl(["metadata"]) ?? "no player")")
        XCTAssertEqual(bus.playerctl(["metadata", "artist"]), "Second Artist")

        XCTAssertTrue(listen.waitForExit(timeout: 30))
        let result = listen.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        // The pause held the audio back (time-shift), so the file is short by the pause: what arrived
        // after 14 s of the station was still waiting to be played when the duration ran out.
        XCTAssertEqual(try PCMAudio(wavFile: wav).duration, 14 - pausedFor, accuracy: 1)
        XCTAssertNil(bus.playerctl(["status"]), "the player leaves the bus when onair ends")
    }

    func testPlayerctlSeeksSetsTheVolumeAndStopsARecordingPlaying() throws {
        let file = try AudioFixtures.sine(frequency: 440, seconds: 30, codec: .mp3)
        let wav = onair.home.file("play.wav")
        let play = try onair.start(["play", file.path, "--sink", "wav:\(wav.path)", "--json"], extraEnvironment: bus.environment)
        XCTAssertTrue(eventually(timeout: 10) { bus.playerctl(["status"]) == "Playing" }, play.stderrText)
        XCTAssertEqual(bus.playerctl(["metadata", "title"]), file.deletingPathExtension().lastPathComponent)
        let length = Double(bus.playerctl(["metadata", "mpris:length"]) ?? "") ?? 0
        XCTAssertEqual(length / 1_000_000, 30, accuracy: 0.1)

        bus.playerctl(["position", "20"])
        XCTAssertTrue(eventually(timeout: 5) { (Double(bus.playerctl(["position"]) ?? "") ?? 0) >= 20 },
                      "position \(bus.playerctl(["position"]) ?? "none")")
        bus.playerctl(["volume", "0.5"])
        XCTAssertEqual(Double(bus.playerctl(["volume"]) ?? "") ?? 0, 0.5, accuracy: 0.001)
        bus.playerctl(["stop"])

        XCTAssertTrue(play.waitForExit(timeout: 10), "stop ends onair play")
        let result = play.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        let ended = OnairBinary.events(result.stdoutText).first { $0["event"] as? String == "ended" }
        XCTAssertEqual(ended?["heard"] as? Bool, false)
        XCTAssertEqual(ended?["position"] as? Double ?? 0, 20, accuracy: 2, "stopped soon after the seek to 20 s")
        // Seeking skipped most of the file: far less than 30 s was written.
        XCTAssertLessThan(try PCMAudio(wavFile: wav).duration, 10)
    }

    func testABusThatCannotBeReachedLeavesListenAsItWas() throws {
        try icecast.startSource(mount: "/nobus.mp3", codec: .mp3)
        defer { try? icecast.stopSource(mount: "/nobus.mp3") }
        let wav = onair.home.file("nobus.wav")
        let listen = try onair.start(["listen", icecast.url(mount: "/nobus.mp3").absoluteString, "--sink", "wav:\(wav.path)",
                                      "--duration", "3"], extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(onair.home.url.path)/no-bus"])
        XCTAssertTrue(listen.waitForExit(timeout: 30))
        let result = listen.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertFalse(result.stderrText.contains("error"), result.stderrText)
        XCTAssertEqual(try PCMAudio(wavFile: wav).duration, 3, accuracy: 0.2)
    }
}
