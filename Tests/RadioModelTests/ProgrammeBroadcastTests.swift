import Foundation
import XCTest
@testable import RadioModel

final class ProgrammeBroadcastTests: XCTestCase {
    private let paris = TimeZone(identifier: "Europe/Paris")!

    private func date(_ text: String) -> Date { Timestamp.parse(text, timeZone: paris)! }

    func testTheBroadcastOnAirIsFoundInTheStationsTimeZone() {
        // Sunday 2026-11-22; the slot is weekdays 06:00–09:00 and Sundays 10:00–11:30, Paris time.
        let programme = Programme(id: "matin", name: "Le matin", slots: [
            BroadcastSlot(days: [.mon, .tue, .wed, .thu, .fri], start: ClockTime(hour: 6, minute: 0), duration: TimeSpan(seconds: 10800)),
            BroadcastSlot(days: [.sun], start: ClockTime(hour: 10, minute: 0), duration: TimeSpan(seconds: 5400)),
        ])
        XCTAssertEqual(programme.broadcast(containing: date("2026-11-22T10:45"), timeZone: paris),
                       DateInterval(start: date("2026-11-22T10:00"), end: date("2026-11-22T11:30")))
        XCTAssertNil(programme.broadcast(containing: date("2026-11-22T07:00"), timeZone: paris), "not on Sundays at 7")
        XCTAssertEqual(programme.broadcast(containing: date("2026-11-23T08:59"), timeZone: paris)?.end, date("2026-11-23T09:00"))
        XCTAssertNil(programme.broadcast(containing: date("2026-11-23T09:00"), timeZone: paris), "the end is not part of it")
    }

    func testASlotPastMidnightBelongsToTheDayItStarts() {
        let night = Programme(id: "nuit", name: "La nuit", slots: [
            BroadcastSlot(days: [.sat], start: ClockTime(hour: 23, minute: 0), duration: TimeSpan(seconds: 7200)),
        ])
        XCTAssertEqual(night.broadcast(containing: date("2026-11-22T00:30"), timeZone: paris)?.start, date("2026-11-21T23:00"))
        XCTAssertNil(night.broadcast(containing: date("2026-11-23T00:30"), timeZone: paris), "Sunday night has no slot")
    }
}
