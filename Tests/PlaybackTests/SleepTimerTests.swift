import Foundation
import XCTest
@testable import Playback

/// The sleep timer's settings and fade, as `s` cycles them.
final class SleepTimerTests: XCTestCase {
    func testCyclesThroughTheMinutesAndEndOfEpisodeOnlyOnDemand() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var live = SleepTimer(minuteSeconds: 60, offersEndOfEpisode: false)
        var seen: [SleepTimer.Setting] = []
        for _ in 0..<7 {
            live.cycle(now: start)
            seen.append(live.setting)
        }
        XCTAssertEqual(seen, [.minutes(5), .minutes(10), .minutes(15), .minutes(30), .minutes(45), .minutes(60), .off])
        var onDemand = SleepTimer(minuteSeconds: 60, offersEndOfEpisode: true)
        for _ in 0..<7 { onDemand.cycle(now: start) }
        XCTAssertEqual(onDemand.setting, .endOfEpisode)
    }

    func testFadesOutOverTheLastSecondsAndExpires() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var timer = SleepTimer(minuteSeconds: 60, offersEndOfEpisode: false)
        timer.cycle(now: start)  // 5 minutes
        XCTAssertEqual(timer.label(now: start), "sleep in 5:00")
        XCTAssertEqual(timer.gain(now: start.addingTimeInterval(200)), 1)
        XCTAssertEqual(timer.gain(now: start.addingTimeInterval(300 - 2.5)), 0.5, accuracy: 0.01)
        XCTAssertFalse(timer.hasExpired(now: start.addingTimeInterval(299)))
        XCTAssertTrue(timer.hasExpired(now: start.addingTimeInterval(300)))
        XCTAssertEqual(timer.gain(now: start.addingTimeInterval(300)), 0)
    }
}
