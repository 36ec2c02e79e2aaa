import Foundation
import Media
import RadioModel
import TestSupport
import XCTest
@testable import Recording

/// A recording split into tracks on known clips (a station without titles), fed the events a `ClipWatch` publishes as
/// it would: where each track ends when a clip's airing is never told whole, when one clip begins before the last one's
/// end, and when a clip is already on as the recording begins. FLAC's frames (0.096 s at 48 kHz) round each track's
/// length: cuts are checked to 0.15 s.
final class TrackSplitterClipTests: XCTestCase {
    private final class Finished: @unchecked Sendable {  // `stored` inside `lock`
        private let lock = NSLock()
        private var stored: [FinishedRecording] = []
        func add(_ event: RecordingEvent) { if case .finished(let recording) = event { lock.withLock { stored.append(recording) } } }
        /// In the order they were finished: the order of the stream (the audio is fed faster than it plays, so their
        /// wall-clock starts do not tell it).
        var all: [FinishedRecording] { lock.withLock { stored } }
    }

    private let format = PCMFormat.snapcastDefault

    /// Records `seconds` of a tone in tenths of a second; `events` are handed in once the audio reaches their second.
    private func split(seconds: Int, events: [(at: Double, event: StreamEvent)]) throws -> [FinishedRecording] {
        let directory = try TemporaryDirectory(prefix: "onair-split-clips")
        let plan = RecordingPlan(station: StationLabel(id: "tones", name: "Tone FM"), programme: nil, source: "http://tones.invalid/",
                                 timeZone: TimeZone(identifier: "UTC")!, template: .tracks, base: directory.url, format: .flac)
        let finished = Finished()
        let finaliser = Finaliser(index: nil)
        let splitter = try TrackSplitter.make(plan: plan, input: format, options: SplitOptions(), finaliser: finaliser, onEvent: finished.add)
        let tenth = (0..<format.sampleRate / 10).flatMap { frame -> [Int16] in
            let sample = Int16(6000 * sin(2 * Double.pi * 440 * Double(frame) / Double(format.sampleRate)))
            return [sample, sample]
        }
        var pending = events
        for step in 0..<(seconds * 10) {
            try tenth.withUnsafeBytes { try splitter.consume($0) }
            let now = Double(step + 1) / 10
            while let next = pending.first, next.at <= now + 0.001 {
                splitter.handle(next.event)
                pending.removeFirst()
            }
        }
        splitter.finish()
        finaliser.waitUntilIdle()
        return finished.all
    }

    private func began(_ clip: String, at start: Double, heardAt: Double, seconds: Double) -> (Double, StreamEvent) {
        (heardAt, .clipBegan(ClipOnset(clip: clip, kind: "song", station: "tones", start: Date(), mediaTime: start, seconds: seconds,
                                       toldAfter: heardAt - start)))
    }

    private func ended(_ clip: String, at start: Double, seconds: Double, toldAt: Double) -> (Double, StreamEvent) {
        (toldAt, .clipMatched(ClipSighting(clip: clip, kind: "song", station: "tones", start: Date(timeIntervalSince1970: 0),
                                           end: Date(timeIntervalSince1970: seconds), mediaTime: start, offset: 0, score: 0.95,
                                           partial: false, toldAfter: toldAt - start)))
    }

    func testAClipNeverToldWholeEndsWhereItWouldHaveEnded() throws {
        let tracks = try split(seconds: 45, events: [began("Band - Song", at: 10, heardAt: 17, seconds: 20)])
        XCTAssertEqual(tracks.map { $0.titles.first?.title }, [nil, "Band - Song", nil], "\(tracks)")
        XCTAssertEqual(tracks.map(\.duration), [10, 20, 15].map(Double.init), accuracy: 0.15)
    }

    func testAClipBeginningBeforeTheLastOnesEndEndsItThere() throws {
        // One's airing is told to end at 25.5 s (a crossfade); Two began at 24 s.
        let tracks = try split(seconds: 50, events: [began("Band - One", at: 5, heardAt: 12, seconds: 20.5), ended("Band - One", at: 5, seconds: 20.5, toldAt: 27),
                                                     began("Band - Two", at: 24, heardAt: 31, seconds: 15), ended("Band - Two", at: 24, seconds: 15, toldAt: 41)])
        XCTAssertEqual(tracks.map { $0.titles.first?.title }, [nil, "Band - One", "Band - Two", nil], "\(tracks)")
        XCTAssertEqual(tracks.map(\.duration), [5, 19, 15, 11].map(Double.init), accuracy: 0.15)
    }

    func testAClipOnAsTheRecordingBeginsNamesTheFirstTrackCutAtItsStart() throws {
        // Heard 6 s in, begun 2 s before the recording.
        let tracks = try split(seconds: 30, events: [began("Band - Already", at: -2, heardAt: 6, seconds: 18), ended("Band - Already", at: -2, seconds: 18, toldAt: 18)])
        XCTAssertEqual(tracks.map { $0.titles.first?.title }, ["Band - Already", nil], "\(tracks)")
        XCTAssertEqual(tracks.map(\.duration), [16, 14].map(Double.init), accuracy: 0.15)
        XCTAssertEqual(tracks.first?.track?.completeness, .cutAtStart)
    }
}

private func XCTAssertEqual(_ values: [Double], _ expected: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(values.count, expected.count, "\(values)", file: file, line: line)
    for (value, wanted) in zip(values, expected) { XCTAssertEqual(value, wanted, accuracy: accuracy, "\(values)", file: file, line: line) }
}
