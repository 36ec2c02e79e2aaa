import Foundation
import XCTest
import Media
import RadioModel
import StreamInput
import TestSupport

/// HLS that FFmpeg's muxer does not write, built here segment by segment: packed audio (ADTS
/// segments led by ID3 tags), timed ID3 in MPEG-TS, and byte ranges of one file encrypted with
/// sequence-number IVs.
final class HLSHandmadeSegmentsTests: XCTestCase {
    private var server: FixtureHTTPServer!
    private var directory: TemporaryDirectory!
    private let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    override func setUpWithError() throws {
        server = try FixtureHTTPServer()
        directory = try TemporaryDirectory(prefix: "onair-packed")
        server.serveDirectory(directory.url, at: "/packed/")
    }

    override func tearDown() {
        server.stop()
    }

    /// 44.1 kHz AAC: 43 frames of 1024 samples make a segment of 0.9985 s.
    private static let framesPerSegment = 43
    private static let segmentSeconds = Double(framesPerSegment * 1024) / 44100

    private func segments(_ tones: [Tone]) throws -> [[Data]] {
        let frames = PackedAudio.adtsFrames(try Data(contentsOf: AudioFixtures.tones(tones, codec: .aacADTS, sampleRate: 44100)))
        return stride(from: 0, to: frames.count, by: Self.framesPerSegment).map {
            Array(frames[$0..<min(frames.count, $0 + Self.framesPerSegment)])
        }
    }

    /// A finished playlist with a program-date-time on every segment.
    private func playlist(_ entries: [(name: String, frames: Int, extra: [String])], mediaSequence: Int = 0,
                          header: [String] = []) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)"] + header
        for (index, entry) in entries.enumerated() {
            let date = epoch.addingTimeInterval(Double(index) * Self.segmentSeconds)
            lines += entry.extra + ["#EXT-X-PROGRAM-DATE-TIME:\(Timestamp.format(date))",
                                    String(format: "#EXTINF:%.5f,", Double(entry.frames * 1024) / 44100), entry.name]
        }
        return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    func testTimedID3TitlesBecomeMetadataEventsPlacedAtTheirSegment() throws {
        let audio = try segments([Tone(frequency: 440, seconds: 3), Tone(frequency: 660, seconds: 3)])
        var entries: [(String, Int, [String])] = []
        for (index, frames) in audio.enumerated() {
            let pts = UInt64(index * Self.framesPerSegment * 1024) * 90_000 / 44100
            let tag: Data
            switch index {
            case 0: tag = PackedAudio.id3(timestamp90kHz: pts)
            case 1, 2: tag = PackedAudio.id3(timestamp90kHz: pts, title: "Song One", artist: "Artist A")
            default: tag = PackedAudio.id3(timestamp90kHz: pts, userText: [("title", "Ärzte – Westerland ☀")])
            }
            try (tag + frames.reduce(Data(), +)).write(to: directory.file("seg\(index).aac"))
            entries.append(("seg\(index).aac", frames.count, []))
        }
        try Data(playlist(entries).utf8).write(to: directory.file("packed.m3u8"))

        let (log, pcm) = follow(server.url("/packed/packed.m3u8").absoluteString)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(log.titles.map(\.title), ["Artist A - Song One", "Ärzte – Westerland ☀"])
        XCTAssertEqual(log.titles.map { $0.mediaTime ?? -1 }[0], Self.segmentSeconds, accuracy: 0.06)
        XCTAssertEqual(log.titles.map { $0.mediaTime ?? -1 }[1], 3 * Self.segmentSeconds, accuracy: 0.06)
        // A title carries its segment's program-date-time (the playlist writes milliseconds).
        for (title, segment) in zip(log.titles, [1.0, 3.0]) {
            XCTAssertEqual(title.programDateTime?.timeIntervalSince(epoch) ?? 0, segment * Self.segmentSeconds, accuracy: 0.001)
        }
        // The tags were taken out: the decoder saw clean ADTS and plays every frame.
        let frameCount = audio.map(\.count).reduce(0, +)
        XCTAssertEqual(pcm.duration, Double(frameCount * 1024) / 44100, accuracy: 0.03)
        XCTAssertEqual(pcm.slice(from: 0.3, to: 2.7).dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(pcm.slice(from: 3.3, to: 5.7).dominantFrequency() ?? 0, 660, accuracy: 2)
        XCTAssertTrue(log.gaps.isEmpty)
    }

    /// Some packagers send the artist (TPE1) and the title (TIT2) in ID3 tags of their own, one after
    /// the other: they make one title, in a packed-audio segment and in a timed-ID3 packet alike.
    func testArtistAndTitleInSeparateTagsMakeOneTitle() throws {
        let audio = try segments([Tone(frequency: 440, seconds: 2)])
        let tags = PackedAudio.id3(timestamp90kHz: 0, artist: "Artist A") + PackedAudio.id3(timestamp90kHz: 0, title: "Song One")
        try (tags + audio[0].reduce(Data(), +)).write(to: directory.file("split0.aac"))
        try Data(playlist([("split0.aac", audio[0].count, [])]).utf8).write(to: directory.file("split.m3u8"))
        let (packed, _) = follow(server.url("/packed/split.m3u8").absoluteString)
        XCTAssertNil(packed.failure, "\(packed.events)")
        XCTAssertEqual(packed.titles.map(\.title), ["Artist A - Song One"])

        let frames = audio.flatMap { $0 }
        let transport = TimedID3TransportStream.make(adtsFrames: frames, sampleRate: 44100, tags: [
            (0, PackedAudio.id3(timestamp90kHz: 90_000, artist: "Artist B") + PackedAudio.id3(timestamp90kHz: 90_000, title: "Song Two")),
        ])
        try transport.write(to: directory.file("split0.ts"))
        try Data(playlist([("split0.ts", frames.count, [])]).utf8).write(to: directory.file("split-ts.m3u8"))
        let (timed, _) = follow(server.url("/packed/split-ts.m3u8").absoluteString)
        XCTAssertNil(timed.failure, "\(timed.events)")
        XCTAssertEqual(timed.titles.map(\.title), ["Artist B - Song Two"])
    }

    func testTimedID3InMPEGTSBecomesMetadataEventsOnTheStreamsClock() throws {
        let frames = PackedAudio.adtsFrames(try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 4, codec: .aacADTS,
                                                                                    sampleRate: 44100)))
        let transport = TimedID3TransportStream.make(adtsFrames: frames, sampleRate: 44100, tags: [
            (0, PackedAudio.id3(timestamp90kHz: 90_000, title: "One", artist: "Artist A")),
            (43, PackedAudio.id3(timestamp90kHz: 90_000 + 90_000, title: "One", artist: "Artist A")),
            (86, PackedAudio.id3(timestamp90kHz: 90_000 + 180_000, userText: [("title", "Two")])),
        ])
        // Four segments cut at packet boundaries: one continuous stream, as a segmenter writes it.
        let packets = transport.count / 188
        var entries: [(String, Int, [String])] = []
        for index in 0..<4 {
            let range = (index * packets / 4 * 188)..<((index + 1) * packets / 4 * 188)
            try transport[range].write(to: directory.file("ts\(index).ts"))
            entries.append(("ts\(index).ts", Self.framesPerSegment, []))
        }
        try Data(playlist(entries).utf8).write(to: directory.file("timed.m3u8"))

        let (log, pcm) = follow(server.url("/packed/timed.m3u8").absoluteString)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(log.titles.map(\.title), ["Artist A - One", "Two"], "a repeated title is reported once")
        XCTAssertEqual(log.titles.first?.mediaTime ?? -1, 0, accuracy: 0.05)
        XCTAssertEqual(log.titles.last?.mediaTime ?? -1, 86 * 1024 / 44100, accuracy: 0.1)
        // Placed on the stream's clock by extrapolating from the first segment's program-date-time.
        XCTAssertEqual(log.titles.last?.programDateTime?.timeIntervalSince(epoch) ?? -1, log.titles.last?.mediaTime ?? 0, accuracy: 0.01)
        XCTAssertEqual(pcm.duration, Double(frames.count * 1024) / 44100, accuracy: 0.05)
        XCTAssertEqual(pcm.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    /// A segment that arrives as a good 200 reply but holds no decodable audio (the soak's garbage on HLS):
    /// the stream's clock jumps by its length, and that is reported as one gap where it sits.
    /// (MPEG-TS, as the soak serves it. Packed ADTS is not asserted: after garbage, FFmpeg's ADTS parser
    /// hands the next segment's first frames the garbage's byte positions, so its clock mark lands up to
    /// 0.3 s late and only that much less is reported.)
    func testASegmentOfGarbageServedAsAGoodReplyIsAGapOfItsLength() throws {
        let audio = try segments([Tone(frequency: 440, seconds: 6)])
        var generator = SplitMix(seed: 8)
        var entries: [(String, Int, [String])] = []
        for (index, frames) in audio.prefix(6).enumerated() {
            var body = TimedID3TransportStream.make(adtsFrames: frames, sampleRate: 44100, tags: [])
            if index == 3 { body = Data((0..<body.count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }) }
            try body.write(to: directory.file("garbage\(index).ts"))
            entries.append(("garbage\(index).ts", frames.count, []))
        }
        try Data(playlist(entries).utf8).write(to: directory.file("garbage.m3u8"))
        let url = server.url("/packed/garbage.m3u8").absoluteString

        let (log, pcm) = follow(url)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(log.gaps.count, 1, "one loss, one gap: \(log.gaps)")
        XCTAssertEqual(log.gaps.first?.seconds ?? 0, Self.segmentSeconds, accuracy: 0.1, "\(log.gaps)")
        XCTAssertEqual(log.gaps.first?.mediaTime ?? -1, 3 * Self.segmentSeconds, accuracy: 0.1, "\(log.gaps)")
        // Where it begins on the stream's clock, the garbage segment's program-date-time (the daemon's
        // stream-gap line is placed there, not when the loss was noticed: the soak saw a recording
        // blamed for a gap that ended before its first audio).
        XCTAssertEqual(log.gaps.first?.programDateTime?.timeIntervalSince(epoch) ?? -1, 3 * Self.segmentSeconds,
                       accuracy: 0.1, "\(log.gaps)")
        XCTAssertEqual(pcm.duration, 5 * Self.segmentSeconds, accuracy: 0.05)

        // A stream copy (a recording, nobody taking PCM) decodes nothing, and reports the same gap.
        let copyLog = EventLog()
        let source = HLSStream(url: url, options: PipelineHarness().options, onEvent: copyLog.record)
        let pipeline = LivePipeline(source: source, format: .snapcastDefault, onEvent: copyLog.record)
        pipeline.start()
        XCTAssertTrue(pipeline.waitUntilFinished(timeout: 30))
        XCTAssertEqual(copyLog.gaps.count, 1, "\(copyLog.gaps)")
        XCTAssertEqual(copyLog.gaps.first?.seconds ?? 0, Self.segmentSeconds, accuracy: 0.1, "\(copyLog.gaps)")
        XCTAssertEqual(copyLog.gaps.first?.programDateTime?.timeIntervalSince(epoch) ?? -1, 3 * Self.segmentSeconds,
                       accuracy: 0.1, "\(copyLog.gaps)")
    }


    func testByteRangesOfOneFileEncryptedWithSequenceNumberIVs() throws {
        let key: [UInt8] = (0..<16).map { UInt8($0 * 7 + 3) }
        try Data(key).write(to: directory.file("k.key"))
        let mediaSequence = 42
        var file = Data()
        var entries: [(String, Int, [String])] = []
        for (index, frames) in try segments([Tone(frequency: 1000, seconds: 4)]).enumerated() {
            let encrypted = try encrypt(frames.reduce(Data(), +), key: key, iv: SegmentEncryption.sequenceIV(mediaSequence + index))
            // The first range names its offset; the others follow on from the one before.
            let range = index == 0 ? "#EXT-X-BYTERANGE:\(encrypted.count)@0" : "#EXT-X-BYTERANGE:\(encrypted.count)"
            entries.append(("all.aac", frames.count, [range]))
            file += encrypted
        }
        let rangedFile = file
        server.route("/ranged/all.aac") { request, connection in
            try Self.serveRange(of: rangedFile, request: request, connection: connection)
        }
        let text = playlist(entries, mediaSequence: mediaSequence, header: ["#EXT-X-KEY:METHOD=AES-128,URI=\"../packed/k.key\""])
        server.route("/ranged/index.m3u8", FixtureHTTPServer.file(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"))

        let (log, pcm) = follow(server.url("/ranged/index.m3u8").absoluteString)
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertEqual(pcm.duration, 4, accuracy: 0.1)
        XCTAssertEqual(pcm.dominantFrequency() ?? 0, 1000, accuracy: 2)
        let ranges = server.requests("/ranged/all.aac").compactMap { $0.headers["Range"] }
        XCTAssertEqual(ranges.count, entries.count, "one range request per segment")
        XCTAssertEqual(ranges.first?.hasPrefix("bytes=0-"), true, "\(ranges)")
        XCTAssertEqual(server.requestCount("/packed/k.key"), 1)
    }

    // MARK: Helpers

    private func follow(_ url: String) -> (EventLog, PCMAudio) {
        PipelineHarness().play(seconds: nil, timeout: 30) { HLSStream(url: url, options: PipelineHarness().options, onEvent: $0) }
    }

    private func encrypt(_ plain: Data, key: [UInt8], iv: [UInt8]) throws -> Data {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        return try ProcessRunner.run("openssl", ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv)], timeout: 30, input: plain)
            .check().stdout
    }

    /// `206 Partial Content` for a `Range: bytes=a-b` request, as CDNs answer byte-range segments.
    private static func serveRange(of data: Data, request: FixtureRequest, connection: FixtureConnection) throws {
        guard let range = request.headers["Range"], range.hasPrefix("bytes="),
              case let bounds = range.dropFirst(6).split(separator: "-").compactMap({ Int($0) }), bounds.count == 2,
              bounds[0] <= bounds[1], bounds[1] < data.count else {
            return try FixtureHTTPServer.status(400)(request, connection)
        }
        try connection.sendStatus(line: "HTTP/1.0 206 Partial Content", headers: [
            ("Content-Type", "audio/aac"), ("Content-Length", "\(bounds[1] - bounds[0] + 1)"),
            ("Content-Range", "bytes \(bounds[0])-\(bounds[1])/\(data.count)"), ("Connection", "close"),
        ])
        try connection.send(data[bounds[0]...bounds[1]])
    }

    /// Reproducible noise for garbage segments.
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
