import Foundation
import Media
import RadioModel
import StreamInput
import TestSupport
import XCTest
@testable import Recording

/// A recorder on a live pipeline, finalised, with no CLI in between: what a daemon would do.
final class RecorderPipelineTests: XCTestCase {
    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [RecordingEvent] = []
        func add(_ event: RecordingEvent) { lock.withLock { stored.append(event) } }
        var all: [RecordingEvent] { lock.withLock { stored } }
        var finished: [FinishedRecording] {
            lock.withLock { stored.compactMap { if case .finished(let recording) = $0 { return recording } else { return nil } } }
        }
    }

    func testAReconnectBecomesAGapChapterAndTagAndTheAACCopyEndsInMP4() throws {
        let directory = try TemporaryDirectory(prefix: "onair-recorder")
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 6, codec: .aacADTS, bitrate: 128))
        let writer = ICYStreamWriter(audio: audio, metaint: 16_000, schedule: [.title("Artist - Song", atAudioByte: 0)])
        let attempts = AttemptCounter()
        server.route("/drop.aac") { request, connection in
            if attempts.next() == 1 {
                try connection.sendStatus(line: "ICY 200 OK", headers: [("Content-Type", "audio/aac"), ("icy-metaint", "16000")])
                try connection.send(writer.interleaved().prefix(writer.interleaved().count / 2))
                connection.close()
            } else {
                try FixtureHTTPServer.icyStream(writer, contentType: "audio/aac")(request, connection)
            }
        }
        var options = LiveStreamOptions()
        options.reconnect.initialDelay = 0.3
        options.reconnect.maxDelay = 0.3
        let index = try RecordingsIndex(directory: directory.url.appendingPathComponent("data"))
        let recording = try record(server.url("/drop.aac"), seconds: 8, options: options, into: directory, index: index, episode: 42)
        XCTAssertEqual(recording.episode, 42, "the episode the journal named, so that a part finished after a crash finds its episode")
        XCTAssertEqual(recording.container, "mp4")
        XCTAssertTrue(recording.file.hasSuffix(".m4a"), recording.file)
        XCTAssertEqual(recording.duration, 8, accuracy: 0.1)
        XCTAssertEqual(recording.gaps.count, 1)
        XCTAssertEqual(recording.gaps.first?.at ?? 0, 3, accuracy: 0.3, "the drop came after half of the 6 s")
        XCTAssertEqual(try index.all().map(\.file), [recording.file])
        let file = URL(fileURLWithPath: recording.file)
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
        let probe = try FFprobe.inspect(file)
        XCTAssertEqual(probe.tags["artist"], "Test FM")
        XCTAssertTrue(probe.tags["comment"]?.contains("1 gap, ") == true, "\(probe.tags)")
        // The audio stays as sent; its loudness is a ReplayGain tag, in the iTunes freeform atom MP4 players read.
        let loudness = try XCTUnwrap(recording.loudness)
        XCTAssertEqual(probe.tags["replaygain_track_gain"], String(format: "%.2f dB", -18 - loudness), "\(probe.tags)")
        let chapters = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv=p=0", file.path], timeout: 30)
            .check().stdoutText
        XCTAssertTrue(chapters.contains("Artist - Song") && chapters.contains("[gap "), chapters)
        XCTAssertEqual(LeftoverRecordings.journals(under: directory.url), [], "nothing is left partial")
    }

    /// Found by scripts/soak: garbage inside well-framed ADTS frames was copied into the file, which
    /// then failed to decode. Such frames are now left out, and the audio they held is a gap.
    func testGarbledFramesNeverReachTheFileAndTheirAudioIsAGap() throws {
        let directory = try TemporaryDirectory(prefix: "onair-recorder")
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        var audio = [UInt8](try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 6, codec: .aacADTS, bitrate: 128)))
        // Overwrite the payload of the frames between 3 s and 3.5 s (their ADTS headers stay intact)
        // with a fixed pseudo-random pattern, as a broken encoder or network gear would.
        var offset = 0
        var frame = 0
        var state: UInt32 = 0x9E37_79B9
        while offset + 7 <= audio.count {
            let length = Int(audio[offset + 3] & 0x3) << 11 | Int(audio[offset + 4]) << 3 | Int(audio[offset + 5]) >> 5
            guard length > 7 else { break }
            let seconds = Double(frame) * 1024 / 44100
            if (3.0..<3.5).contains(seconds) {
                for index in offset + 7..<min(audio.count, offset + length) {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    audio[index] = UInt8(truncatingIfNeeded: state >> 24)
                }
            }
            offset += length
            frame += 1
        }
        let writer = ICYStreamWriter(audio: Data(audio), metaint: 16_000, schedule: [.title("Artist - Song", atAudioByte: 0)])
        server.route("/garbled.aac", FixtureHTTPServer.icyStream(writer, contentType: "audio/aac"))
        let index = try RecordingsIndex(directory: directory.url.appendingPathComponent("data"))
        let recording = try record(server.url("/garbled.aac"), seconds: 5, options: LiveStreamOptions(), into: directory, index: index)
        XCTAssertEqual(try FFprobe.decodeErrors(URL(fileURLWithPath: recording.file)), 0)
        XCTAssertEqual(recording.gaps.count, 1, "\(recording.gaps)")
        XCTAssertEqual(recording.gaps.first?.at ?? 0, 3, accuracy: 0.1)
        XCTAssertEqual(recording.gaps.first?.seconds ?? 0, 0.5, accuracy: 0.1, "the garbled half second")
    }

    /// Failed before: a station's name (directory data) went into the tags and the cue sheet with its escape
    /// sequence and bidi override, and a title's override into the chapters and the cue sheet.
    func testAStationsNameAndTitlesReachTheTagsChaptersAndCueSheetWithoutEscapesOrBidiOverrides() throws {
        let directory = try TemporaryDirectory(prefix: "onair-recorder")
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 6, codec: .aacADTS, bitrate: 128))
        let writer = ICYStreamWriter(audio: audio, metaint: 16_000, schedule: [.title("Art\u{202E}ist - So&#x9B;2Jng", atAudioByte: 0)])
        server.route("/evil.aac", FixtureHTTPServer.icyStream(writer, contentType: "audio/aac"))
        let index = try RecordingsIndex(directory: directory.url.appendingPathComponent("data"))
        let recording = try record(server.url("/evil.aac"), seconds: 4, options: LiveStreamOptions(), into: directory, index: index,
                                   station: "Evil\u{1B}]0;pwned\u{07} FM\r\n\u{202E}")
        let file = URL(fileURLWithPath: recording.file)
        let tags = try FFprobe.inspect(file).tags
        XCTAssertEqual(tags["artist"], "Evil]0;pwned FM ", "\(tags)")
        let chapters = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv=p=0", file.path], timeout: 30)
            .check().stdoutText
        XCTAssertTrue(chapters.contains("Artist - So2Jng"), chapters)
        let cue = try String(contentsOfFile: try XCTUnwrap(recording.cueSheet), encoding: .utf8)
        XCTAssertTrue(cue.contains("PERFORMER \"Evil]0;pwned FM \"\n") && cue.contains("TITLE \"So2Jng\"\n")
                      && cue.contains("PERFORMER \"Artist\"\n"), cue)
        for text in [tags.values.joined(), chapters, cue] {
            XCTAssertFalse(text.unicodeScalars.contains { [0x07, 0x1B, 0x9B, 0x202E].contains($0.value) }, text.debugDescription)
        }
    }

    /// Records `url` by stream copy for `seconds` of audio, finalised into `index`.
    private func record(_ url: URL, seconds: Double, options: LiveStreamOptions, into directory: TemporaryDirectory,
                        index: RecordingsIndex, station: String = "Test FM", episode: Int64? = nil) throws -> FinishedRecording {
        var plan = RecordingPlan(station: StationLabel(id: "test", name: station), programme: nil, source: url.absoluteString,
                                 timeZone: TimeZone(identifier: "UTC")!, template: .standard, base: directory.url, format: .copy)
        plan.episode = episode
        let outcomes = Outcomes()
        let finaliser = Finaliser(index: index, measuresLoudness: true)
        let recorder = CopyRecorder(plan: plan, finaliser: finaliser, onEvent: outcomes.add)
        let route = PipelineRoute()
        let stream = LiveStream(url: url.absoluteString, options: options) { route.pipeline?.publish($0) }
        let pipeline = LivePipeline(source: stream, format: .snapcastDefault, stopAfter: seconds)
        route.pipeline = pipeline
        // The recorder hears the stream's events through the fan-out, as it does in onair.
        pipeline.fanOut.attach(recorder)
        pipeline.start()
        pipeline.waitUntilFinished()
        finaliser.waitUntilIdle()
        return try XCTUnwrap(outcomes.finished.first, "\(outcomes.all)")
    }
}

private final class AttemptCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int { lock.withLock { count += 1; return count } }
}

/// The source's events into the pipeline made after it (set before the stream starts).
private final class PipelineRoute: @unchecked Sendable {  // `pipeline` is set once, before the stream starts
    weak var pipeline: LivePipeline?
}
