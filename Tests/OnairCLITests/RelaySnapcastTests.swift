import Foundation
import XCTest
import TestSupport

/// The whole chain a user builds: Icecast (ffmpeg playing a 1 kHz tone) → `onair relay --to fifo:` →
/// snapserver's pipe source → snapclient's file player, which writes what a speaker would play;
/// and the titles through `--meta-fifo` and the control script into Snapcast's metadata.
final class RelaySnapcastTests: XCTestCase {
    func testAToneThroughSnapcastPlaysContinuouslyAtWallClockRateWithItsTitle() throws {
        let icecast = try IcecastHarness.playing("/tone.mp3", frequency: 1000, title: "The Testers - First Light", burstSize: 65535)
        defer { icecast.stop() }
        let onair = try OnairBinary()
        let fifo = onair.home.file("snapfifo").path
        let titles = onair.home.file("snapfifo.meta").path

        // onair creates both FIFOs; snapserver only reads (mode=read), its control script follows the titles.
        let relay = try onair.start(["relay", icecast.url(mount: "/tone.mp3").absoluteString, "--to", "fifo:\(fifo)",
                                     "--meta-fifo", titles, "--json"])
        defer { relay.stop() }
        XCTAssertTrue(eventually(timeout: 10) { relay.sinkStates.contains("waiting") }, relay.stderrText)
        let snapcast = try SnapcastHarness(fifo: fifo, mode: "read", controlScript: Self.controlScript,
                                           environment: ["ONAIR_META_FIFO": titles])
        defer { snapcast.stop() }
        try snapcast.startClient()

        // Past snapserver's 1 s buffer and the start-up, then 15 s of steady play.
        XCTAssertTrue(eventually(timeout: 15) { snapcast.outputBytes > 0 }, snapcast.log)
        Thread.sleep(forTimeInterval: 3)
        let (startBytes, startTime) = (snapcast.outputBytes, PCMCapture.now())
        Thread.sleep(forTimeInterval: 15)
        let (endBytes, endTime) = (snapcast.outputBytes, PCMCapture.now())
        let metadata = try snapcast.streamMetadata()

        let played = try SnapcastFormat.audio(Data(contentsOf: snapcast.output).subdata(in: startBytes..<endBytes))
        XCTAssertEqual(played.duration, endTime - startTime, accuracy: (endTime - startTime) * 0.01,
                       "the speaker plays as much as the wall clock says")
        XCTAssertEqual(played.dominantFrequency() ?? 0, 1000, accuracy: 2)
        XCTAssertLessThan(played.longestSilence(), 0.01, "snapserver never starved:\n\(snapcast.log)")
        XCTAssertGreaterThan(played.rmsDBFS(), -40)

        XCTAssertEqual(metadata?["title"] as? String, "First Light", "\(String(describing: metadata))\n\(snapcast.log)")
        XCTAssertEqual(metadata?["artist"] as? [String], ["The Testers"])
    }

    /// The control script in the repository, as docs/relay.md tells users to configure it.
    private static var controlScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/snapcast/onair-meta.py").path
    }
}
