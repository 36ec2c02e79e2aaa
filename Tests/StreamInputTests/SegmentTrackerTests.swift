import Foundation
import XCTest
@testable import StreamInput

final class SegmentTrackerTests: XCTestCase {
    private let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// A live window of 1-second segments `first..<end`, dated from `epoch` + sequence.
    private func window(_ sequences: Range<Int>, duration: Double = 1, dated: Bool = true, endList: Bool = false) -> MediaPlaylist {
        MediaPlaylist(url: "http://x/live.m3u8", targetDuration: duration, mediaSequence: sequences.lowerBound, discontinuitySequence: 0,
                      segments: sequences.map { sequence in
                          MediaSegment(sequence: sequence, url: "http://x/\(sequence).ts", duration: duration, byteRange: nil,
                                       discontinuity: false,
                                       programDateTime: dated ? epoch.addingTimeInterval(Double(sequence) * duration) : nil,
                                       encryption: nil, initSection: nil)
                      },
                      endList: endList)
    }

    private func drain(_ tracker: inout SegmentTracker) -> [Int] {
        var fetched: [Int] = []
        while let (segment, _) = tracker.next() {
            XCTAssertTrue(tracker.fetched(segment))
            fetched.append(segment.sequence)
        }
        return fetched
    }

    func testStartsThreeTargetDurationsFromTheLiveEdge() {
        var tracker = SegmentTracker()
        XCTAssertNil(tracker.begin(window(10..<20), startAt: nil, liveEdgeDistance: 3))
        XCTAssertEqual(drain(&tracker), [17, 18, 19])
        // A short window starts at its beginning; a finished playlist plays from its start.
        XCTAssertNil(tracker.begin(window(10..<12), startAt: nil, liveEdgeDistance: 3))
        XCTAssertEqual(drain(&tracker), [10, 11])
        XCTAssertNil(tracker.begin(window(10..<20, endList: true), startAt: nil, liveEdgeDistance: 3))
        XCTAssertEqual(drain(&tracker).first, 10)
        XCTAssertTrue(tracker.isFinished)
    }

    func testStartsAtAWallClockTimeTheWindowHolds() {
        var tracker = SegmentTracker()
        XCTAssertNil(tracker.begin(window(10..<20), startAt: epoch.addingTimeInterval(12.5), liveEdgeDistance: 3))
        XCTAssertEqual(tracker.next()?.segment.sequence, 12)

        let early = tracker.begin(window(10..<20), startAt: epoch.addingTimeInterval(4), liveEdgeDistance: 3)
        XCTAssertEqual(tracker.next()?.segment.sequence, 10)
        XCTAssertEqual(early, "the playlist's window begins 6.0 s after the requested start; starting there")

        let future = tracker.begin(window(10..<20), startAt: epoch.addingTimeInterval(60), liveEdgeDistance: 3)
        XCTAssertEqual(tracker.next()?.segment.sequence, 17)
        XCTAssertNotNil(future)

        let undated = tracker.begin(window(10..<20, dated: false), startAt: epoch, liveEdgeDistance: 3)
        XCTAssertEqual(tracker.next()?.segment.sequence, 17)
        XCTAssertEqual(undated?.contains("no EXT-X-PROGRAM-DATE-TIME"), true)
    }

    func testReloadsAddOnlyNewSegmentsAndAnOutageWithinTheWindowLosesNothing() {
        var tracker = SegmentTracker()
        _ = tracker.begin(window(10..<20), startAt: nil, liveEdgeDistance: 3)
        XCTAssertEqual(drain(&tracker), [17, 18, 19])
        XCTAssertEqual(tracker.update(window(12..<22), liveEdgeDistance: 3), .followed)
        XCTAssertEqual(drain(&tracker), [20, 21])
        // Away for eight segments; the window (ten) still holds the next one.
        XCTAssertEqual(tracker.update(window(20..<30), liveEdgeDistance: 3), .followed)
        let next = tracker.next()
        XCTAssertEqual(next?.segment.sequence, 22)
        XCTAssertNil(next?.hole)
    }

    func testAJumpPastUnseenSegmentsIsAHoleTimedByTheDatesAroundIt() throws {
        var tracker = SegmentTracker()
        _ = tracker.begin(window(10..<20), startAt: nil, liveEdgeDistance: 3)
        _ = drain(&tracker)
        XCTAssertEqual(tracker.update(window(25..<35, duration: 1), liveEdgeDistance: 3), .followed)
        let (segment, hole) = try XCTUnwrap(tracker.next())
        XCTAssertEqual(segment.sequence, 25)
        XCTAssertEqual(hole, MissingAudio(sequences: 20...24, seconds: 5, programDateTime: epoch.addingTimeInterval(20)))
        XCTAssertNil(tracker.next()?.hole, "a hole is reported once")

        // Without dates, each missing segment counts a target duration.
        var undated = SegmentTracker()
        _ = undated.begin(window(10..<20, duration: 2, dated: false), startAt: nil, liveEdgeDistance: 3)
        _ = drain(&undated)
        _ = undated.update(window(23..<30, duration: 2, dated: false), liveEdgeDistance: 3)
        XCTAssertEqual(undated.next()?.hole, MissingAudio(sequences: 20...22, seconds: 6, programDateTime: nil))
    }

    func testGivingUpAndMerging() throws {
        var tracker = SegmentTracker()
        _ = tracker.begin(window(10..<20), startAt: nil, liveEdgeDistance: 3)
        let (first, _) = try XCTUnwrap(tracker.next())
        var lost = try XCTUnwrap(tracker.giveUp(first))
        let (second, _) = try XCTUnwrap(tracker.next())
        lost.merge(try XCTUnwrap(tracker.giveUp(second)))
        XCTAssertEqual(lost, MissingAudio(sequences: 17...18, seconds: 2, programDateTime: epoch.addingTimeInterval(17)))
        XCTAssertNil(tracker.giveUp(second), "a segment already handled is not lost twice")
        XCTAssertTrue(tracker.isListed(19))
        XCTAssertFalse(tracker.isListed(20))
    }

    func testAServerThatStartsCountingAgainIsFollowedFromItsLiveEdge() {
        var tracker = SegmentTracker()
        _ = tracker.begin(window(5000..<5010), startAt: nil, liveEdgeDistance: 3)
        _ = drain(&tracker)
        XCTAssertEqual(tracker.update(window(5005..<5012), liveEdgeDistance: 3), .followed, "a lagging edge is no restart")
        XCTAssertEqual(tracker.update(window(0..<10), liveEdgeDistance: 3), .restarted)
        XCTAssertEqual(tracker.next()?.segment.sequence, 7)
    }
}
