import Foundation
import XCTest
import TestSupport

/// `onair listen` against a real Icecast fed by ffmpeg.
final class ListenIcecastTests: XCTestCase {
    /// One Icecast for the whole class: XCTest runs its tests one after another.
    /// Started once for the class; a failure to start fails each test with its reason.
    nonisolated(unsafe) private static var started: Result<IcecastHarness, Error>?
    private var icecast: IcecastHarness!
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
        onair = try OnairBinary()
    }

    /// N seconds of a tone in, N seconds (±5%) of that tone out, for each codec Icecast carries.
    func testEachCodecGivesAWAVOfTheRequestedLengthAndTone() throws {
        let cases: [(AudioCodec, Double)] = [(.mp3, 440), (.aacADTS, 1000), (.oggOpus, 660), (.oggVorbis, 880)]
        for (codec, frequency) in cases {
            let mount = "/tone-\(codec.rawValue).\(codec.fileExtension)"
            try icecast.startSource(mount: mount, codec: codec, frequency: frequency)
            let wav = onair.home.file("\(codec.rawValue).wav")
            let result = try onair.run(["listen", icecast.url(mount: mount).absoluteString, "--sink", "wav:\(wav.path)",
                                        "--duration", "4", "--json"])
            XCTAssertTrue(result.succeeded, "\(codec): \(result)")
            let audio = try PCMAudio(wavFile: wav)
            XCTAssertEqual(audio.sampleRate, 48000)
            XCTAssertEqual(audio.channels, 2)
            XCTAssertEqual(audio.duration, 4, accuracy: 0.2, "\(codec)")
            XCTAssertEqual(audio.dominantFrequency() ?? 0, frequency, accuracy: 2, "\(codec)")
            let events = OnairBinary.events(result.stdoutText).compactMap { $0["event"] as? String }
            XCTAssertEqual(events.first, "connected", "\(codec): \(events)")
            XCTAssertTrue(events.contains("decoding"), "\(codec): \(events)")
            try icecast.stopSource(mount: mount)
        }
    }

    func testATitleChangedAtTheSourceArrivesAsAnEvent() throws {
        try icecast.startSource(mount: "/titles.mp3", codec: .mp3, title: "First Song")
        let wav = onair.home.file("titles.wav")
        let listen = try onair.start(["listen", icecast.url(mount: "/titles.mp3").absoluteString, "--sink", "wav:\(wav.path)",
                                      "--duration", "8", "--json"])
        Thread.sleep(forTimeInterval: 3)
        let title = "Guns N' Roses – Café Ünïcødé"
        try icecast.setTitle(mount: "/titles.mp3", title)
        XCTAssertTrue(listen.waitForExit(timeout: 30))
        let result = listen.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        let titles = OnairBinary.events(result.stdoutText).filter { $0["event"] as? String == "metadata" }
            .compactMap { $0["title"] as? String }
        XCTAssertEqual(titles.first, "First Song", "\(result.stdoutText)")
        XCTAssertEqual(titles.last, title, "\(result.stdoutText)")
        let change = OnairBinary.events(result.stdoutText).last { $0["title"] as? String == title }
        XCTAssertGreaterThan(change?["mediaTime"] as? Double ?? 0, 1, "the change is placed in the audio, after the start")
        try icecast.stopSource(mount: "/titles.mp3")
    }

    func testInterruptFinalisesTheWAV() throws {
        try icecast.startSource(mount: "/interrupt.mp3", codec: .mp3)
        let wav = onair.home.file("interrupt.wav")
        let listen = try onair.start(["listen", icecast.url(mount: "/interrupt.mp3").absoluteString, "--sink", "wav:\(wav.path)"])
        Thread.sleep(forTimeInterval: 3)
        kill(listen.pid, SIGINT)
        XCTAssertTrue(listen.waitForExit(timeout: 10), "Ctrl-C stops onair")
        let result = listen.result()
        XCTAssertEqual(result.status, 0, "\(result)")
        // The header's sizes match the data: ffprobe's duration and our own parse agree.
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertGreaterThan(audio.duration, 1)
        XCTAssertEqual(try FFprobe.inspect(wav).duration ?? 0, audio.duration, accuracy: 0.01)
        XCTAssertEqual(try FFprobe.decodeErrors(wav), 0)
        try icecast.stopSource(mount: "/interrupt.mp3")
    }

    func testADeadURLIsOnePlainLineAndExitCodeOne() throws {
        let result = try onair.run(["listen", "http://127.0.0.1:1/nothing.mp3", "--sink", "wav:\(onair.home.file("x.wav").path)"])
        XCTAssertEqual(result.status, 1, "\(result)")
        let lines = result.stderrText.split(separator: "\n")
        XCTAssertEqual(lines.last?.hasPrefix("onair: "), true, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("127.0.0.1:1"), result.stderrText)
    }

    func testAMissingMountIsReportedAsHTTP404() throws {
        let result = try onair.run(["listen", icecast.url(mount: "/not-there.mp3").absoluteString, "--sink", "stdout"])
        XCTAssertEqual(result.status, 1, "\(result)")
        XCTAssertTrue(result.stderrText.contains("HTTP 404"), result.stderrText)
        XCTAssertTrue(result.stdout.isEmpty)
    }
}
