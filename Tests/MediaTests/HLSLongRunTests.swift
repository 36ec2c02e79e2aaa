import Foundation
import XCTest
import Media
import StreamInput
import TestSupport

/// What the HLS follower exists for: long runs far beyond the playlist's window, and outages.
/// These take minutes of real time, since FFmpeg's muxer makes its segments in real time.
final class HLSLongRunTests: XCTestCase {
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Three minutes of 1-second segments through a 5-segment window: every segment fetched once,
    /// in order, no gap, and exactly as much audio decoded as the encoder made in that time.
    func testThreeMinutesOfOneSecondSegmentsWithoutAGap() throws {
        let runSeconds = 180.0
        let encoder = try LiveHLSEncoder(frequency: 440, listSize: 5)
        let faults = HLSFaultInjector(directory: encoder.directory.url, prefix: "/hls/")
        server.route("/hls/", faults.handler)
        try encoder.waitForSegments(4)
        // The encoder ends the stream after the run; the follower plays to its last segment and stops by itself.
        onOwnThread(after: runSeconds) { encoder.stop(endingPlaylist: true) }
        let started = Date()
        let (log, audio) = Self.follow(server.url("/hls/live.m3u8").absoluteString, timeout: runSeconds + 30)
        let elapsed = Date().timeIntervalSince(started)

        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertTrue(log.gaps.isEmpty, "\(log.gaps)")
        XCTAssertEqual(log.connections, 1)
        let requests = faults.segmentRequests
        assertEachSegmentOnceInOrder(requests)
        XCTAssertGreaterThan(elapsed, runSeconds, "followed for the whole run")
        // The encoder's own wall clock (it runs at real time): the summed EXTINF of what was fetched.
        let published = try requests.map { try XCTUnwrap(faults.duration(of: $0), "segment \($0)") }.reduce(0, +)
        XCTAssertGreaterThan(published, runSeconds - 5)
        XCTAssertEqual(audio.duration, published, accuracy: published * 0.01, "decoded duration within 1% of wall time")
        XCTAssertEqual(audio.duration, published, accuracy: 0.1, "in fact, to a few AAC frames")
        XCTAssertEqual(log.programDateTimes.count, 1, "the stream's clock never drifted from the decoded audio: \(log.programDateTimes)")
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertLessThan(audio.longestSilence(), 0.1)
    }

    /// A 30-second outage (every connection reset) against two windows at once: 60 seconds holds
    /// everything the outage kept back, so nothing is lost; 10 seconds does not, so exactly one
    /// gap reports what expired.
    func testAThirtySecondOutageIsNoGapWithinTheWindowAndOneGapBeyondIt() throws {
        let outage = 30.0
        let wide = try LiveHLSEncoder(frequency: 440, listSize: 60)
        let narrow = try LiveHLSEncoder(frequency: 880, listSize: 10)
        let wideFaults = HLSFaultInjector(directory: wide.directory.url, prefix: "/wide/")
        let narrowFaults = HLSFaultInjector(directory: narrow.directory.url, prefix: "/narrow/")
        server.route("/wide/", wideFaults.handler)
        server.route("/narrow/", narrowFaults.handler)
        try wide.waitForSegments(5)
        try narrow.waitForSegments(5)

        onOwnThread(after: 5) {
            wideFaults.outage(seconds: outage)
            narrowFaults.outage(seconds: outage)
        }
        let results = Results()
        let group = DispatchGroup()
        for (name, path) in [("wide", "/wide/live.m3u8"), ("narrow", "/narrow/live.m3u8")] {
            let url = server.url(path).absoluteString
            group.enter()
            Thread {
                results.set(name, Self.follow(url, timeout: 5 + outage + 12))
                group.leave()
            }.start()
        }
        group.wait()

        let (wideLog, wideAudio) = try XCTUnwrap(results.get("wide"))
        XCTAssertNil(wideLog.failure, "\(wideLog.events)")
        XCTAssertTrue(wideLog.gaps.isEmpty, "an outage shorter than the window loses nothing: \(wideLog.gaps)")
        XCTAssertTrue(wideLog.events.contains { if case .disconnected = $0 { return true } else { return false } })
        XCTAssertEqual(wideLog.connections, 2, "connected, and connected again after the outage")
        assertEachSegmentOnceInOrder(wideFaults.segmentRequests)
        XCTAssertEqual(wideAudio.dominantFrequency() ?? 0, 440, accuracy: 2)

        let (narrowLog, narrowAudio) = try XCTUnwrap(results.get("narrow"))
        XCTAssertNil(narrowLog.failure, "\(narrowLog.events)")
        XCTAssertEqual(narrowLog.gaps.count, 1, "\(narrowLog.events)")
        let gap = try XCTUnwrap(narrowLog.gaps.first)
        let missing = try XCTUnwrap(gap.missingSequences)
        // The outage minus what the 10-second window still held when it was over.
        XCTAssertEqual(gap.seconds, outage - 10, accuracy: 2.5, "\(gap)")
        XCTAssertEqual(Double(missing.count), gap.seconds, accuracy: 1.5, "about one sequence number per second: \(missing)")
        XCTAssertNotNil(gap.programDateTime)
        XCTAssertTrue(narrowFaults.segmentRequests.allSatisfy { !missing.contains($0) })
        let requests = narrowFaults.segmentRequests
        assertEachSegmentOnceInOrder(requests, allowingGapAt: missing.lowerBound)
        XCTAssertEqual(narrowAudio.dominantFrequency() ?? 0, 880, accuracy: 2)
    }

    /// Follows until the stream ends or `timeout` passes, retrying for as long as it takes.
    private static func follow(_ url: String, timeout: Double) -> (EventLog, PCMAudio) {
        var harness = PipelineHarness()
        harness.options.reconnect.maxConsecutiveFailures = nil
        return harness.play(seconds: nil, timeout: timeout) { [options = harness.options] in
            HLSStream(url: url, options: options, onEvent: $0)
        }
    }
}

/// What two followers running side by side found.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: (EventLog, PCMAudio)] = [:]

    func set(_ name: String, _ result: (EventLog, PCMAudio)) { lock.withLock { stored[name] = result } }
    func get(_ name: String) -> (EventLog, PCMAudio)? { lock.withLock { stored[name] } }
}
