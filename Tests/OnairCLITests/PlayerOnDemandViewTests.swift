import Foundation
import XCTest
import TestSupport

/// `onair play` on a terminal, driven in tmux: chapters, seeking, speed and quitting, then resuming.
final class PlayerOnDemandViewTests: XCTestCase {
    func testChapterSeekAndSpeedKeysThenTheNextRunResumes() throws {
        guard ProcessRunner.which("tmux") != nil else { throw XCTSkip("tmux is missing: install it with scripts/setup") }
        let onair = try OnairBinary()
        let file = try Self.episodeWithChapters(onair)
        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        let wav = onair.home.file("view.wav")
        try tmux.type("\(OnairBinary.path) play \(file.path) --sink wav:\(wav.path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("chapter: Opening"), tmux.shown)
        XCTAssertTrue(tmux.shown.contains("/ 0:30"), tmux.shown)
        try tmux.type(".")
        XCTAssertTrue(tmux.waitFor("/ 0:30 · chapter: Middle"), tmux.shown)
        try tmux.press("Right")
        XCTAssertTrue(tmux.waitFor("chapter: Closing"), tmux.shown)
        try tmux.press("Left")
        XCTAssertTrue(tmux.waitFor("chapter: Middle"), tmux.shown)
        try tmux.type("]")
        XCTAssertTrue(tmux.waitFor("1.25×"), tmux.shown)
        try tmux.type("s")
        XCTAssertTrue(tmux.waitFor("sleep in 4:5"), tmux.shown)
        try tmux.type("q")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)

        let again = try onair.start(["play", file.path, "--sink", "wav:\(onair.home.file("again.wav").path)", "--json"])
        XCTAssertTrue(eventually(timeout: 10) { again.stdout.count > 0 })
        kill(again.pid, SIGINT)
        XCTAssertTrue(again.waitForExit(timeout: 10))
        let playing = OnairBinary.events(again.result().stdoutText).first { $0["event"] as? String == "playing" }
        let resumed = try XCTUnwrap(playing?["position"] as? Double)
        XCTAssertGreaterThan(resumed, 10, "where the view was left")
        XCTAssertLessThan(resumed, 20)
    }

    /// Ctrl-C reaches the player as SIGINT (the view leaves the terminal's signal keys alone): it stops,
    /// saves where it was, and the shell gets its terminal back as it was.
    func testCtrlCStopsThePlayerAndRestoresTheTerminal() throws {
        guard ProcessRunner.which("tmux") != nil else { throw XCTSkip("tmux is missing: install it with scripts/setup") }
        let onair = try OnairBinary()
        let file = try AudioFixtures.sine(frequency: 440, seconds: 20, codec: .mp3)
        let tmux = try TmuxSession(environment: onair.environment)
        defer { tmux.stop() }
        let settings = onair.home.file("stty.txt").path
        try tmux.type("\(OnairBinary.path) play \(file.path) --sink wav:\(onair.home.file("c.wav").path); echo exit=$?\n")
        XCTAssertTrue(tmux.waitFor("▶ 0:01"), tmux.shown)
        try tmux.press("C-c")
        XCTAssertTrue(tmux.waitFor("exit=0"), tmux.shown)
        try tmux.type("stty -a > \(settings)\n")
        XCTAssertTrue(eventually(timeout: 5) { (try? String(contentsOfFile: settings, encoding: .utf8))?.contains("echoctl") == true })
        let flags = try String(contentsOfFile: settings, encoding: .utf8).split(whereSeparator: { " \n;".contains($0) }).map(String.init)
        XCTAssertTrue(flags.contains("icanon") && flags.contains("echo"), "\(flags)")
        let history = OnairBinary.events(try onair.run(["history", "--json"]).stdoutText)
        XCTAssertGreaterThan(history.first?["seconds"] as? Double ?? 0, 1, "stopped part-way, and noted")
    }

    /// 30 s of tone with chapters at 0, 10 and 20 s (ID3 CHAP frames, as the recorder writes them).
    private static func episodeWithChapters(_ onair: OnairBinary) throws -> URL {
        let metadata = onair.home.file("chapters.txt")
        try """
        ;FFMETADATA1
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=10000
        title=Opening
        [CHAPTER]
        TIMEBASE=1/1000
        START=10000
        END=20000
        title=Middle
        [CHAPTER]
        TIMEBASE=1/1000
        START=20000
        END=30000
        title=Closing

        """.write(to: metadata, atomically: true, encoding: .utf8)
        let file = onair.home.file("episode.mp3")
        try ProcessRunner.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
                                         "sine=frequency=440:sample_rate=44100:duration=30", "-i", metadata.path,
                                         "-map_metadata", "1", "-map_chapters", "1", "-c:a", "libmp3lame", "-b:a", "128k",
                                         file.path], timeout: 30).check()
        return file
    }
}
