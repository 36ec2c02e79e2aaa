import Foundation
import XCTest
import TestSupport

/// The speaker sinks through libavdevice, against a private PulseAudio with a null sink (no sound
/// card needed) and ALSA's null device.
final class RelayAudioDeviceTests: XCTestCase {
    func testPulseLocalAndRemoteSpeakerAndALSAPlayTheStation() throws {
        let pulse: PulseAudioHarness
        do { pulse = try PulseAudioHarness() } catch { throw XCTSkip("pulseaudio could not start: \(error)") }
        defer { pulse.stop() }
        let station = try RelayStation(tones: [Tone(frequency: 1000, seconds: 30)])
        defer { station.stop() }
        let onair = try OnairBinary()
        // `speaker` finds the server the way every PulseAudio client does: $PULSE_SERVER here.
        let relay = try ProcessRunner.start(OnairBinary.path, [
            "relay", station.url, "--json",
            "--to", "pulse:\(pulse.server)",                   // a local server by its socket
            "--to", "pulse:\(pulse.tcpServer)/\(pulse.sinkName)",  // a server over the network, and a sink by name
            "--to", "speaker",
            "--to", "alsa:null",
        ], environment: onair.environment.merging(["PULSE_SERVER": pulse.server]) { $1 })
        defer { relay.stop() }
        XCTAssertTrue(eventually(timeout: 10) { relay.sinkStates.filter { $0 == "connected" }.count == 4 },
                      "\(relay.sinkStates)\n\(relay.stderrText)")
        Thread.sleep(forTimeInterval: 1)

        let inputs = try pulse.sinkInputs()
        XCTAssertEqual(inputs.count, 3, "\(inputs)")
        for input in inputs {
            XCTAssertEqual(input["application.name"], "onair")
            XCTAssertEqual(input["media.name"], station.url, "the mixer shows the station")
            XCTAssertEqual(input["Corked"], "no", "playing")
            XCTAssertEqual(input["Sample Specification"], "s16le 2ch 48000Hz")
            // PulseAudio holds about the --buffer default, 0.4 s (more while the sink's own queue fills): not the
            // 3.5 ms it held while libavdevice was not told the sample format, which woke the player some
            // 1,700 times a second.
            let buffered = try XCTUnwrap(input["Buffer Latency"].flatMap { Int($0.split(separator: " ")[0]) })
            XCTAssertGreaterThan(buffered, 100_000, "PulseAudio buffers what onair asks for, in microseconds")
        }
        let recorded = try SnapcastFormat.audio(pulse.record(seconds: 2))
        XCTAssertGreaterThan(recorded.duration, 1)
        // Three streams at their own latencies add up on the sink, and the pitch measured from the
        // monitor has come out a few hertz off (997 Hz once in a loaded run): this shows the tone is
        // there; the pacing tests measure pitch and rate.
        XCTAssertEqual(recorded.slice(from: 0.3).dominantFrequency() ?? 0, 1000, accuracy: 10)
        XCTAssertGreaterThan(recorded.slice(from: 0.3).rmsDBFS(), -40, "the null sink's monitor hears the tone")

        kill(relay.pid, SIGTERM)
        XCTAssertTrue(relay.waitForExit(timeout: 10))
        XCTAssertEqual(relay.result().status, 0, relay.result().description)
        let peers = OnairBinary.events(relay.result().stdoutText).compactMap { $0["peer"] as? String }
        XCTAssertTrue(peers.contains("ALSA device null"), "\(peers)")
        XCTAssertTrue(peers.contains("PulseAudio \(pulse.tcpServer), sink \(pulse.sinkName)"), "\(peers)")
    }

    func testASoundServerThatIsNotThereIsWaitedForWithoutStoppingTheRelay() throws {
        let station = try RelayStation(tones: [Tone(frequency: 1000, seconds: 30)])
        defer { station.stop() }
        let onair = try OnairBinary()
        let wav = onair.home.file("meanwhile.wav")
        let relay = try onair.start(["relay", station.url, "--to", "pulse:unix:/nonexistent/native", "--to", "wav:\(wav.path)",
                                     "--json"])
        Thread.sleep(forTimeInterval: 3)
        kill(relay.pid, SIGINT)
        XCTAssertTrue(relay.waitForExit(timeout: 10))
        let result = relay.result()
        XCTAssertEqual(result.status, 0, "\(result)")
        let waiting = OnairBinary.events(result.stdoutText).filter { $0["state"] as? String == "waiting" }
        XCTAssertEqual(waiting.count, 1, "one message per outage, not one per retry: \(result.stdoutText)")
        XCTAssertTrue((waiting.first?["reason"] as? String ?? "").hasPrefix("PulseAudio unix:/nonexistent/native did not take the stream"))
        XCTAssertFalse(result.stderrText.contains("ALSA lib"), "alsa-lib's own chatter stays quiet")
        XCTAssertGreaterThan(try PCMAudio(wavFile: wav).duration, 2)
    }
}
