import Foundation
import XCTest
import TestSupport

/// `onair relay` to a FIFO and a TCP receiver: PCM at exactly the wall-clock rate, silence through a
/// stall, no blocking and no backlog without a reader, reconnection to a receiver that hangs up.
final class RelayPacingTests: XCTestCase {
    private var onair: OnairBinary!

    override func setUpWithError() throws {
        onair = try OnairBinary()
    }

    /// The one long test: a minute of relay, with the station silent for 10 s in the middle.
    func testAMinuteOfRelayArrivesAtWallClockRateWithSilenceThroughATenSecondStall() throws {
        let station = try RelayStation(tones: [Tone(frequency: 1000, seconds: 80)], stall: (after: 20, seconds: 10))
        defer { station.stop() }
        let fifo = onair.home.file("snapfifo").path
        // Without a stall timeout above the stall, onair would replace the connection instead.
        let relay = try onair.start(["relay", station.url, "--to", "fifo:\(fifo)", "--stall-timeout", "30", "--json"])
        let reader = try startReader(fifo, relay: relay)
        Thread.sleep(forTimeInterval: 61)
        reader.stop()
        kill(relay.pid, SIGINT)
        XCTAssertTrue(relay.waitForExit(timeout: 10))
        XCTAssertEqual(relay.result().status, 0, relay.result().description)

        let drift = try XCTUnwrap(reader.drift(over: 60, bytesPerSecond: SnapcastFormat.bytesPerSecond))
        print(String(format: "relay pacing over 60 s: drift %+.1f ms, longest wait at the reader %.1f ms",
                     drift * 1000, reader.longestWait() * 1000))
        XCTAssertEqual(drift, 0, accuracy: 0.02, "60 s of wall clock must bring 60 s of PCM")
        // A starving reader would wait out the stall's 10 s. Paced, data comes every 10 ms tick, 0.1 s ahead in the
        // FIFO; on a machine loaded beyond its cores the writer may be scheduled late (a 0.15 s wait at load 6.4 on
        // two cores), which snapserver's 1 s buffer (its default) never lets a listener hear, so the bound is half of it.
        XCTAssertLessThan(reader.longestWait(), 0.5, "the reader never waits for data long enough to be heard, stall or not")

        let audio = try SnapcastFormat.audio(reader.data)
        XCTAssertEqual(audio.longestSilence(), 10, accuracy: 0.6, "the stall comes out as silence of its length")
        XCTAssertEqual(audio.slice(from: 2, to: 18).dominantFrequency() ?? 0, 1000, accuracy: 2)
        XCTAssertLessThan(audio.slice(from: 2, to: 18).longestSilence(), 0.01)
        XCTAssertEqual(audio.slice(from: 35, to: 58).dominantFrequency() ?? 0, 1000, accuracy: 2, "audio resumes after the stall")
        XCTAssertLessThan(audio.slice(from: 35, to: 58).longestSilence(), 0.01)

        let events = OnairBinary.events(relay.result().stdoutText)
        let filled = events.first { $0["state"] as? String == "silence-filled" }
        XCTAssertEqual(filled?["seconds"] as? Double ?? 0, 10, accuracy: 0.6, "\(events)")
        XCTAssertFalse(events.contains { $0["event"] as? String == "reconnecting" }, "the stall is bridged, not reconnected")
    }

    func testWithoutAReaderNothingBlocksOrGrowsAndAReaderThatComesBackHearsWhatPlaysNow() throws {
        let station = try RelayStation(tones: [Tone(frequency: 440, seconds: 8), Tone(frequency: 880, seconds: 30)])
        defer { station.stop() }
        let fifo = onair.home.file("snapfifo").path
        let wav = onair.home.file("alongside.wav")
        let relay = try onair.start(["relay", station.url, "--to", "fifo:\(fifo)", "--to", "wav:\(wav.path)", "--json"])
        let started = Date()

        let first = try startReader(fifo, relay: relay, after: 2)
        Thread.sleep(until: started.addingTimeInterval(4))
        first.stop()  // the reader leaves while 440 Hz plays
        Thread.sleep(until: started.addingTimeInterval(6))
        let memoryBefore = relay.residentBytes
        Thread.sleep(until: started.addingTimeInterval(20))
        let memoryAfter = relay.residentBytes
        let second = try startReader(fifo, relay: relay)  // 880 Hz has played for 12 s
        Thread.sleep(until: started.addingTimeInterval(22))
        second.stop()
        kill(relay.pid, SIGINT)
        XCTAssertTrue(relay.waitForExit(timeout: 10))
        let elapsed = Date().timeIntervalSince(started)

        let before = try SnapcastFormat.audio(first.data)
        XCTAssertEqual(before.slice(from: 0.5).dominantFrequency() ?? 0, 440, accuracy: 2)
        let after = try SnapcastFormat.audio(second.data)
        XCTAssertGreaterThan(after.duration, 1.5)
        XCTAssertEqual(after.slice(from: 0, to: 0.5).dominantFrequency() ?? 0, 880, accuracy: 2,
                       "a reader that comes back gets live audio, not what it missed")
        XCTAssertLessThan(after.longestSilence(), 0.01)
        // 14 s without a reader hold 2.7 MB of PCM: none of it may pile up.
        XCTAssertLessThan(memoryAfter - memoryBefore, 3 << 19, "resident memory grew without a reader")
        // The decoder went on in real time for the other sink all along.
        let alongside = try PCMAudio(wavFile: wav)
        XCTAssertEqual(alongside.duration, elapsed, accuracy: 1.5)

        XCTAssertEqual(Array(relay.sinkStates.prefix(4)), ["waiting", "connected", "disconnected", "connected"], "\(relay.sinkStates)")
    }

    func testATCPReceiverThatHangsUpIsReconnectedAndPacedAgain() throws {
        let station = try RelayStation(tones: [Tone(frequency: 1000, seconds: 30)])
        defer { station.stop() }
        let receiver = try TCPPCMReceiver()
        defer { receiver.stop() }
        let relay = try onair.start(["relay", station.url, "--to", "tcp:127.0.0.1:\(receiver.port)", "--json"])
        XCTAssertTrue(receiver.waitForConnections(1, timeout: 10), relay.stderrText)
        Thread.sleep(forTimeInterval: 3)
        receiver.dropNewest()
        XCTAssertTrue(receiver.waitForConnections(2, timeout: 3), "onair reconnects within its first retry delays")
        Thread.sleep(forTimeInterval: 5)
        receiver.stop()
        kill(relay.pid, SIGINT)
        XCTAssertTrue(relay.waitForExit(timeout: 10))

        let second = receiver.connections[1]
        XCTAssertEqual(try XCTUnwrap(second.drift(over: 4.5, bytesPerSecond: SnapcastFormat.bytesPerSecond)), 0, accuracy: 0.02)
        XCTAssertLessThan(second.longestWait(), 0.1)
        let audio = try SnapcastFormat.audio(second.data)
        XCTAssertEqual(audio.slice(from: 0.5).dominantFrequency() ?? 0, 1000, accuracy: 2)
        XCTAssertLessThan(audio.slice(from: 0.5).longestSilence(), 0.01)
        XCTAssertEqual(Array(relay.sinkStates.prefix(3)), ["connected", "disconnected", "connected"], "\(relay.sinkStates)")
    }

    func testListenTakesToSinksBesideItsSink() throws {
        let station = try RelayStation(tones: [Tone(frequency: 1000, seconds: 10)])
        defer { station.stop() }
        let (main, beside) = (onair.home.file("main.wav"), onair.home.file("beside.wav"))
        let result = try onair.run(["listen", station.url, "--sink", "wav:\(main.path)", "--to", "wav:\(beside.path)",
                                    "--duration", "2"])
        XCTAssertTrue(result.succeeded, "\(result)")
        for file in [main, beside] {
            let audio = try PCMAudio(wavFile: file)
            XCTAssertEqual(audio.duration, 2, accuracy: 0.001, file.lastPathComponent)
            XCTAssertEqual(audio.dominantFrequency() ?? 0, 1000, accuracy: 2)
        }
    }

    func testASinkThatCannotBeOpenedFailsAtOnceWithExitCodeTwo() throws {
        let notAFIFO = onair.home.file("regular-file")
        try Data("x".utf8).write(to: notAFIFO)
        let result = try onair.run(["relay", "http://127.0.0.1:1/never.mp3", "--to", "fifo:\(notAFIFO.path)"])
        XCTAssertEqual(result.status, 2, "\(result)")
        XCTAssertEqual(result.stderrText.split(separator: "\n").last.map(String.init),
                       "onair: fifo:\(notAFIFO.path): \(notAFIFO.path) exists and is not a FIFO; remove it or choose another path")
    }

    /// Opens the FIFO as a reader once onair has created it, `after` seconds from now.
    private func startReader(_ fifo: String, relay: RunningProcess, after delay: Double = 0) throws -> PCMCapture {
        let deadline = Date(timeIntervalSinceNow: 10)
        while !FileManager.default.fileExists(atPath: fifo) {
            guard relay.isRunning, Date() < deadline else { throw ProcessRunnerError.failed(relay.result()) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: delay)
        return PCMCapture.fifo(at: fifo)
    }
}
