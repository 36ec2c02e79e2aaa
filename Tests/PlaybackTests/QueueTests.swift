import Foundation
import Library
import Media
import Outputs
import RadioModel
import Store
import TestSupport
import XCTest
@testable import Playback
import Sinks

/// The queue's order, shuffle and repeat, and a real queue of encoded files played into a WAV file.
final class QueueTests: XCTestCase {
    private let items = (1...5).map { PlayableItem(path: "/r/\($0).mp3", title: "Episode \($0)") }

    private func played(_ queue: inout PlayQueue, endings: Int) -> [String] {
        var titles: [String] = []
        for _ in 0..<endings {
            guard let item = queue.current else { break }
            titles.append(item.title)
            queue.advanceAfterEnd()
        }
        return titles
    }

    func testInOrderThenStopsRepeatOneAndRepeatAll() {
        var plain = PlayQueue(items: Array(items.prefix(3)), shuffle: false, repeatMode: .off)
        XCTAssertEqual(played(&plain, endings: 10), ["Episode 1", "Episode 2", "Episode 3"])
        var one = PlayQueue(items: Array(items.prefix(3)), shuffle: false, repeatMode: .one)
        XCTAssertEqual(played(&one, endings: 3), ["Episode 1", "Episode 1", "Episode 1"])
        var all = PlayQueue(items: Array(items.prefix(2)), shuffle: false, repeatMode: .all)
        XCTAssertEqual(played(&all, endings: 5), ["Episode 1", "Episode 2", "Episode 1", "Episode 2", "Episode 1"])
    }

    func testShufflePlaysEachEpisodeOnceAndSkipsBothWays() {
        var shuffled = PlayQueue(items: items, shuffle: true, repeatMode: .off)
        let order = played(&shuffled, endings: 10)
        XCTAssertEqual(Set(order), Set(items.map(\.title)))
        XCTAssertEqual(order.count, 5)
        var queue = PlayQueue(items: items, shuffle: false, repeatMode: .off)
        queue.skip(by: 1)
        queue.skip(by: 1)
        XCTAssertEqual(queue.current?.title, "Episode 3")
        queue.skip(by: -1)
        XCTAssertEqual(queue.current?.title, "Episode 2")
        queue.skip(by: -5)
        XCTAssertEqual(queue.current?.title, "Episode 1", "< at the first stays there")
    }

    /// Two episodes, repeat all: A, B, A … comes out of the sink, each tone in its turn, and the
    /// database marks both as heard.
    func testAQueueWithRepeatAllPlaysItsEpisodesInTurn() throws {
        let first = try AudioFixtures.sine(frequency: 440, seconds: 1, codec: .mp3)
        let second = try AudioFixtures.sine(frequency: 880, seconds: 1, codec: .oggVorbis)
        let home = try TemporaryDirectory(prefix: "onair-queue")
        defer { home.remove() }
        let store = try PlayerStore(database: try OnairDatabase(directory: home.url))
        let format = PCMFormat.snapcastDefault
        let wav = home.file("queue.wav")
        let sink = try XCTUnwrap(try SinkFactory.make(.wav(path: wav.path), format: format) as? PCMConsumer)
        let controls = PlayerControls(sleepTimer: SleepTimer(offersEndOfEpisode: true), deviceVolume: nil)
        let stage = PlayerStage(format: format, controls: controls, sinks: [sink], timeShiftSeconds: nil)
        let queue = PlayQueue(items: [PlayableItem(path: first.path, title: "A"), PlayableItem(path: second.path, title: "B")],
                              shuffle: false, repeatMode: .all)
        let started = StartedTitles()
        let player = OnDemandPlayer(queue: queue, format: format, controls: controls, stage: stage, speed: 1, start: nil,
                                    positions: store) { event in
            if case .started(let item, _, _) = event { started.append(item.title) }
        }
        player.start()
        Thread.sleep(forTimeInterval: 2.6)
        player.stop()
        XCTAssertTrue(player.waitUntilFinished(timeout: 5))
        XCTAssertEqual(started.titles, ["A", "B", "A"])
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.slice(from: 0.2, to: 0.8).dominantFrequency() ?? 0, 440, accuracy: 3)
        XCTAssertEqual(audio.slice(from: 1.2, to: 1.8).dominantFrequency() ?? 0, 880, accuracy: 3)
        XCTAssertEqual(audio.slice(from: 2.1, to: 2.4).dominantFrequency() ?? 0, 440, accuracy: 5)
        XCTAssertEqual(try store.position(of: second.path)?.heard, true)
    }
}

extension QueueTests {
    /// The sleep timer's "end of this episode": the episode fades out to its end and the queue stops
    /// there, repeat or not.
    func testEndOfEpisodeSleepFadesOutAndStopsTheQueueAfterTheEpisode() throws {
        let first = try AudioFixtures.sine(frequency: 440, seconds: 2, codec: .mp3)
        let second = try AudioFixtures.sine(frequency: 880, seconds: 2, codec: .mp3)
        let home = try TemporaryDirectory(prefix: "onair-sleep")
        defer { home.remove() }
        let format = PCMFormat.snapcastDefault
        let wav = home.file("sleep.wav")
        let sink = try XCTUnwrap(try SinkFactory.make(.wav(path: wav.path), format: format) as? PCMConsumer)
        let controls = PlayerControls(sleepTimer: SleepTimer(offersEndOfEpisode: true), deviceVolume: nil)
        for _ in 0..<7 { controls.cycleSleepTimer() }
        XCTAssertEqual(controls.sleepTimer.setting, .endOfEpisode)
        let stage = PlayerStage(format: format, controls: controls, sinks: [sink], timeShiftSeconds: nil)
        let queue = PlayQueue(items: [PlayableItem(path: first.path, title: "A"), PlayableItem(path: second.path, title: "B")],
                              shuffle: false, repeatMode: .all)
        let started = StartedTitles()
        let player = OnDemandPlayer(queue: queue, format: format, controls: controls, stage: stage, speed: 1, start: nil,
                                    positions: nil) { event in
            if case .started(let item, _, _) = event { started.append(item.title) }
        }
        player.start()
        XCTAssertTrue(player.waitUntilFinished(timeout: 10), "it stops by itself")
        XCTAssertEqual(started.titles, ["A"])
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 2, accuracy: 0.1)
        let early = audio.slice(from: 0.1, to: 0.5).rmsDBFS()
        let last = audio.slice(from: audio.duration - 0.15).rmsDBFS()
        XCTAssertGreaterThan(early - last, 12, "faded out: \(early) dBFS → \(last) dBFS")
    }
}

private final class StartedTitles: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ title: String) { lock.withLock { stored.append(title) } }
    var titles: [String] { lock.withLock { stored } }
}
