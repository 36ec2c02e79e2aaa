import Foundation
import XCTest
import Media
import StreamInput
import TestSupport

/// The HLS follower → FFmpeg pipeline against live playlists from FFmpeg's own hls muxer (1-second
/// segments, a 5-segment window), served by a fixture server that misbehaves on purpose.
final class HLSPipelineTests: XCTestCase {
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    // MARK: Segment formats

    func testMPEGTSSegmentsDecodeWithTheirToneAndTheStreamsClock() throws {
        let encoder = try LiveHLSEncoder(frequency: 440)
        let (faults, url) = try serve(encoder)
        let (log, audio) = follow(url, seconds: 6)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 6, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(log.connections, 1)
        XCTAssertEqual(log.decodings.first?.codec, "aac")
        XCTAssertTrue(log.gaps.isEmpty, "\(log.gaps)")
        // One anchor of the stream's clock: every later segment's program-date-time followed from it.
        XCTAssertEqual(log.programDateTimes.count, 1, "\(log.programDateTimes)")
        XCTAssertEqual(log.programDateTimes.first?.mediaTime, 0)
        XCTAssertEqual(log.programDateTimes.first?.date.timeIntervalSinceNow ?? 0, -8, accuracy: 4,
                       "the first segment played was made a few seconds before the end")
        assertEachSegmentOnceInOrder(faults.segmentRequests)
    }

    func testFMP4SegmentsStartWithTheirInitSection() throws {
        let encoder = try LiveHLSEncoder(frequency: 660, sampleRate: 48000, segmentType: .fmp4)
        let (faults, url) = try serve(encoder)
        let (log, audio) = follow(url, seconds: 5)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 5, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 660, accuracy: 2)
        XCTAssertEqual(log.decodings.first?.sampleRate, 48000)
        XCTAssertEqual(server.requestCount("/hls/init.mp4"), 1, "the init section is fetched once and kept")
        assertEachSegmentOnceInOrder(faults.segmentRequests)
    }

    func testAESEncryptedSegmentsAreDecrypted() throws {
        let encoder = try LiveHLSEncoder(frequency: 880, encrypted: true)
        let (faults, url) = try serve(encoder)
        let (log, audio) = follow(url, seconds: 5)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 5, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 880, accuracy: 2)
        XCTAssertEqual(server.requestCount("/hls/live.key"), 1, "the key is fetched once and kept")
        assertEachSegmentOnceInOrder(faults.segmentRequests)
    }

    func testAMediaPlaylistImportsItsMastersVariables() throws {
        let encoder = try LiveHLSEncoder(frequency: 440)
        _ = try serve(encoder)
        // The master defines where segments are and takes the listener's token from its own query; the media
        // playlist IMPORTs the first and names every segment by it (RFC 8216bis §4.4.2.3).
        let master = """
            #EXTM3U
            #EXT-X-DEFINE:NAME="segments",VALUE="\(server.url("/hls").absoluteString)"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            media.m3u8?token={$token}
            """
        server.route("/define/master.m3u8", FixtureHTTPServer.file(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"))
        server.route("/define/media.m3u8") { request, connection in
            let live = try String(contentsOf: encoder.directory.file(LiveHLSEncoder.playlistName), encoding: .utf8)
            let lines = live.split(separator: "\n").map { line in
                line == "#EXTM3U" ? "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"segments\"" : line.hasPrefix("#") ? String(line) : "{$segments}/\(line)"
            }
            try FixtureHTTPServer.file(Data(lines.joined(separator: "\n").utf8), contentType: "application/vnd.apple.mpegurl")(request, connection)
        }
        let (log, audio) = follow(server.url("/define/master.m3u8?token=t1").absoluteString, seconds: 4)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(audio.duration, 4, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(server.requests("/define/media.m3u8").first?.query["token"], "t1", "the token reached the variant's URI")
        XCTAssertGreaterThanOrEqual(server.requests().filter { $0.path.hasPrefix("/hls/") && $0.path.hasSuffix(".ts") }.count, 2,
                                    "the segments were fetched where the imported variable says they are")
    }

    // MARK: Faults

    func testARefusedSegmentBecomesOneGapOfItsLength() throws {
        let encoder = try LiveHLSEncoder(frequency: 440)
        let (faults, url) = try serve(encoder)
        let refused = try XCTUnwrap(faults.latestSequence()) + 3
        faults.refuse(sequence: refused)
        let (log, audio) = follow(url, seconds: 10)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(log.gaps.count, 1, "\(log.events)")
        let gap = try XCTUnwrap(log.gaps.first)
        XCTAssertEqual(gap.missingSequences, refused...refused)
        XCTAssertEqual(gap.seconds, try XCTUnwrap(faults.duration(of: refused)), accuracy: 0.001)
        XCTAssertNotNil(gap.programDateTime)
        XCTAssertEqual(faults.segmentRequests.filter { $0 == refused }.count, 3, "tried three times while listed")
        XCTAssertTrue(log.warnings.contains { $0.contains("segment \(refused)") && $0.contains("HTTP 404; skipped") }, "\(log.warnings)")
        assertEachSegmentOnceInOrder(faults.segmentRequests.filter { $0 != refused }, allowingGapAt: refused)
        XCTAssertEqual(audio.duration, 10, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    func testSegmentsRefusedOneAfterAnotherAreAnOutageThatEndsWithTheReconnectLimit() throws {
        let encoder = try LiveHLSEncoder(frequency: 440)
        let (faults, url) = try serve(encoder)
        let first = try XCTUnwrap(faults.latestSequence()) + 3
        for sequence in first..<first + 40 { faults.refuse(sequence: sequence) }
        var harness = PipelineHarness()
        harness.options.reconnect.maxConsecutiveFailures = 1
        let (log, audio) = harness.play(seconds: nil, timeout: 40) { [options = harness.options] in
            HLSStream(url: url, options: options, onEvent: $0)
        }
        let failure = try XCTUnwrap(log.failure, "a stream whose segments all fail ends: \(log.events)")
        XCTAssertTrue(failure.contains("segment \(first + 2)") && failure.contains("HTTP 404"), failure)
        XCTAssertTrue(log.events.contains { "\($0)".contains("disconnected") }, "the outage is reported once it is one: \(log.events)")
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2, "what came before it played")
    }

    func testAPlaylistThatStopsUpdatingForLessThanItsWindowLosesNothing() throws {
        let encoder = try LiveHLSEncoder(frequency: 440, listSize: 8)
        let (faults, url) = try serve(encoder)
        onOwnThread(after: 1) { faults.freezePlaylist(seconds: 5) }
        let (log, audio) = follow(url, seconds: 9)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertTrue(log.gaps.isEmpty, "\(log.gaps)")
        XCTAssertTrue(log.warnings.contains { $0.contains("has not changed") }, "\(log.warnings)")
        assertEachSegmentOnceInOrder(faults.segmentRequests)
        XCTAssertEqual(audio.duration, 9, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    func testAPlaylistThatStopsUpdatingForLongerThanItsWindowIsAGap() throws {
        let encoder = try LiveHLSEncoder(frequency: 440, listSize: 5)
        let (faults, url) = try serve(encoder)
        onOwnThread(after: 1) { faults.freezePlaylist(seconds: 9) }
        let (log, _) = follow(url, seconds: nil, timeout: 16)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(log.gaps.count, 1, "\(log.events)")
        let gap = try XCTUnwrap(log.gaps.first)
        let missing = try XCTUnwrap(gap.missingSequences)
        // Nine seconds frozen, five still in the window when it moves again: about four lost.
        XCTAssertTrue((2...6).contains(missing.count), "\(missing)")
        let published = missing.compactMap { faults.duration(of: $0) }
        XCTAssertEqual(gap.seconds, published.count == missing.count ? published.reduce(0, +) : Double(missing.count),
                       accuracy: 0.05, "the gap's length comes from the program-date-times around it")
        XCTAssertTrue(faults.segmentRequests.allSatisfy { !missing.contains($0) })
    }

    func testASequenceJumpIsAGapOfTheSkippedSegments() throws {
        let encoder = try LiveHLSEncoder(frequency: 440)
        let (faults, url) = try serve(encoder)
        let first = try XCTUnwrap(faults.latestSequence()) + 3
        faults.skipPublishing(first...first + 2)
        let (log, audio) = follow(url, seconds: 9)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(log.gaps.count, 1, "\(log.events)")
        let gap = try XCTUnwrap(log.gaps.first)
        XCTAssertEqual(gap.missingSequences, first...first + 2)
        let published = try (first...first + 2).map { try XCTUnwrap(faults.duration(of: $0)) }.reduce(0, +)
        XCTAssertEqual(gap.seconds, published, accuracy: 0.01)
        XCTAssertEqual(gap.mediaTime ?? 0, Double(first - faults.segmentRequests[0]), accuracy: 0.3,
                       "the gap sits where the skipped segments would have played")
        assertEachSegmentOnceInOrder(faults.segmentRequests, allowingGapAt: first + 1)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    func testADiscontinuityResetsTheDecoderWithoutAGapOrAStop() throws {
        let encoder = try LiveHLSEncoder(frequency: 440, sampleRate: 44100, listSize: 8)
        let (faults, url) = try serve(encoder)
        let started = Date()
        let restarted = Counter()
        onOwnThread(after: 3) {
            try? encoder.restart(frequency: 880, sampleRate: 48000)
            restarted.add(Int(Date().timeIntervalSince(started) * 1000))
        }
        let (log, audio) = follow(url, seconds: 12, timeout: 40)
        // What tells the possible causes apart if the seam is missing: a late restart, a new encoder
        // that made nothing (too little audio), or a discontinuity decoded as the old encoding.
        let seen = "restart done \(restarted.total) ms in (0: not done); \(audio.duration) s of audio, its last second at "
            + "\(audio.slice(from: audio.duration - 1).dominantFrequency() ?? 0) Hz; segments \(faults.segmentRequests); \(log.events)"
        XCTAssertNil(log.failure, seen)
        XCTAssertTrue(log.gaps.isEmpty, "\(log.gaps)")
        XCTAssertEqual(log.decodings.map(\.sampleRate), [44100, 48000], "a fresh decoder for the new encoding: \(seen)")
        // The seam: the first quarter second of the second encoder's tone.
        let seam = try XCTUnwrap(stride(from: 0.0, to: audio.duration - 0.25, by: 0.1).first { start in
            abs((audio.slice(from: start, to: start + 0.25).dominantFrequency() ?? 0) - 880) < 20
        }, "the second encoder's tone never came: \(seen)")
        XCTAssertGreaterThan(seam, 1)
        XCTAssertEqual(audio.slice(from: 0.5, to: seam - 0.3).dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(audio.slice(from: seam + 0.3).dominantFrequency() ?? 0, 880, accuracy: 2)
        XCTAssertLessThan(audio.longestSilence(), 0.1, "no stop at the seam")
        XCTAssertEqual(audio.duration, 12, accuracy: 0.001)
        assertEachSegmentOnceInOrder(faults.segmentRequests)
    }

    func testASlowSegmentIsWaitedForNotSkipped() throws {
        let encoder = try LiveHLSEncoder(frequency: 440)
        let (faults, url) = try serve(encoder)
        let slow = try XCTUnwrap(faults.latestSequence()) + 2
        faults.delay(sequence: slow, seconds: 2.5)
        let (log, audio) = follow(url, seconds: 9)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertTrue(log.gaps.isEmpty, "\(log.gaps)")
        XCTAssertEqual(faults.segmentRequests.filter { $0 == slow }.count, 1)
        assertEachSegmentOnceInOrder(faults.segmentRequests)
        XCTAssertEqual(audio.duration, 9, accuracy: 0.001)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    // MARK: Helpers

    /// Serves the encoder's directory with faults on demand, once it has a few segments.
    private func serve(_ encoder: LiveHLSEncoder) throws -> (HLSFaultInjector, String) {
        let faults = HLSFaultInjector(directory: encoder.directory.url, prefix: "/hls/")
        server.route("/hls/", faults.handler)
        try encoder.waitForSegments(4)
        return (faults, server.url("/hls/\(encoder.playlistPath)").absoluteString)
    }

    /// Plays an HLS URL the way `onair listen` does, retrying for as long as it takes.
    private func follow(_ url: String, seconds: Double?, timeout: Double = 30) -> (EventLog, PCMAudio) {
        var harness = PipelineHarness()
        harness.options.reconnect.maxConsecutiveFailures = nil
        return harness.play(seconds: seconds, timeout: timeout) { [options = harness.options] in
            HLSStream(url: url, options: options, onEvent: $0)
        }
    }
}

/// Each segment fetched once, in order of media sequence, with no holes (but the one a test made).
func assertEachSegmentOnceInOrder(_ requests: [Int], allowingGapAt gap: Int? = nil,
                                  file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(requests.isEmpty, "no segment was fetched", file: file, line: line)
    for (previous, next) in zip(requests, requests.dropFirst()) where next != previous + 1 {
        guard let gap, previous < gap, next > gap else {
            return XCTFail("segment \(next) came after \(previous): \(requests)", file: file, line: line)
        }
    }
}
