import Foundation
import XCTest
import TestSupport

/// `onair record` against a real Icecast fed by ffmpeg: MP3, AAC and Opus recorded at once by one
/// process, titles changed through the admin URL while it runs. Each stream reaches onair through a
/// relay that keeps a copy of exactly what onair received, which is what the file is checked against.
final class RecordIcecastTests: XCTestCase {
    private var icecast: IcecastHarness!
    private var onair: OnairBinary!

    override func setUpWithError() throws {
        // No burst: the stream runs in real time from the start, so titles land where the test sets them.
        icecast = try IcecastHarness(burstSize: 0)
        onair = try OnairBinary()
    }

    override func tearDown() {
        icecast?.stop()
    }

    private struct Station {
        let codec: AudioCodec
        let mount: String
        let frequency: Double
        let capture = RelayCapture()
    }

    /// All three at once. The AAC stream starts mid-frame, often with a false sync word in front of
    /// the first frame (RELIABILITY.md, "One-frame AAC rejections at the start of an Icecast stream").
    func testMP3AACAndOpusRecordedAtOnceAreExactTaggedAndChaptered() throws {
        try recordAtOnce([Station(codec: .mp3, mount: "/rec.mp3", frequency: 440), Station(codec: .aacADTS, mount: "/rec.aac", frequency: 1000),
                          Station(codec: .oggOpus, mount: "/rec.opus", frequency: 660)])
    }

    func testMP3AndOpusRecordedAtOnceAreExactTaggedAndChaptered() throws {
        try recordAtOnce([Station(codec: .mp3, mount: "/rec.mp3", frequency: 440), Station(codec: .oggOpus, mount: "/rec.opus", frequency: 660)])
    }

    private func recordAtOnce(_ stations: [Station]) throws {
        let relay = try FixtureHTTPServer()
        defer { relay.stop() }
        for station in stations {
            try icecast.startSource(mount: station.mount, codec: station.codec, frequency: station.frequency,
                                    title: "\(station.codec.rawValue) opening")
            relay.route(station.mount, FixtureHTTPServer.relay(upstreamPort: icecast.port, capture: station.capture))
        }
        let seconds = 10.0
        let record = try onair.start(["record"] + stations.map { relay.url($0.mount).absoluteString }
                                     + ["--duration", "\(Int(seconds))", "--json"])
        // Icecast takes title updates for MP3 and AAC mounts; Opus titles can only come from the source.
        Thread.sleep(forTimeInterval: 3.5)
        let titled = stations.filter { $0.codec != .oggOpus }
        for station in titled { try icecast.setTitle(mount: station.mount, "Guns N' Roses – Café Ünïcødé") }
        Thread.sleep(forTimeInterval: 3)
        for station in titled { try icecast.setTitle(mount: station.mount, "Third Title") }
        XCTAssertTrue(record.waitForExit(timeout: 40), "onair record ends after --duration")
        let result = record.result()
        XCTAssertTrue(result.succeeded, "\(result)")

        let finished = RecordedFile.finished(result.stdoutText)
        XCTAssertEqual(finished.count, stations.count, result.stdoutText)
        for station in stations {
            guard let entry = finished.first(where: { ($0["source"] as? String)?.hasSuffix(station.mount) == true }),
                  let path = entry["file"] as? String else {
                XCTFail("\(station.codec): no finished recording in \(result.stdoutText)")
                continue
            }
            let file = URL(fileURLWithPath: path)
            XCTAssertTrue(path.hasPrefix(onair.home.url.appendingPathComponent("recordings").path), path)
            XCTAssertEqual(file.pathExtension, ["mp3": "mp3", "aacADTS": "m4a", "oggOpus": "opus"][station.codec.rawValue])
            XCTAssertEqual(try FFprobe.decodeErrors(file), 0, "\(station.codec)")
            let audio = try FFprobe.decodePCM(file)
            XCTAssertEqual(audio.duration, seconds, accuracy: seconds * 0.02, "\(station.codec)")
            XCTAssertEqual(audio.dominantFrequency() ?? 0, station.frequency, accuracy: 3, "\(station.codec)")
            let probe = try FFprobe.inspect(file)
            let tags = probe.tags.merging(probe.audio?.tags ?? [:]) { first, _ in first }
            XCTAssertEqual(tags["comment"]?.contains("Recorded by onair from http://127.0.0.1:\(relay.port)\(station.mount)"), true,
                           "\(station.codec): \(tags)")
            XCTAssertNotNil(tags["date"], "\(station.codec): \(tags)")

            try checkPacketsAreThoseReceived(file, station: station)
            if station.codec == .oggOpus {
                XCTAssertEqual(try RecordedFile(url: file).chapters().map(\.title), ["oggOpus opening"])
            } else {
                try checkChaptersFollowTheTitles(file, station: station)
            }
        }
    }

    /// The file holds exactly the packets the server sent, in order: a contiguous run of them.
    private func checkPacketsAreThoseReceived(_ file: URL, station: Station) throws {
        let received = onair.home.file("received-\(station.codec.rawValue).\(station.codec.fileExtension)")
        let body = station.capture.body
        let audio = station.capture.metaint.map { ICYReceivedStream(interleaved: body, metaint: $0).audio } ?? body
        try audio.dropFirst(bytesBeforeTheFirstFrame(audio, station: station)).write(to: received)
        let sent = try RecordedFile.packetPayloads(received, adtsToASC: station.codec == .aacADTS)
        let kept = try RecordedFile.packetPayloads(file)
        XCTAssertGreaterThan(kept.count, 50_000, "\(station.codec)")
        XCTAssertNotNil(sent.range(of: kept), "\(station.codec): the recording's packets are not a run of those received")
    }

    /// Icecast starts a listener mid-frame. ffmpeg, reading such an ADTS file from its first byte, may
    /// take a false sync word there for a frame of up to 8 KB and lose the bytes where that ends: the
    /// received frames are read from the first one that the next two follow header to header.
    private func bytesBeforeTheFirstFrame(_ audio: Data, station: Station) -> Int {
        guard station.codec == .aacADTS else { return 0 }
        let bytes = [UInt8](audio.prefix(8192))
        func frameLength(at offset: Int) -> Int? {
            guard offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF6 == 0xF0 else { return nil }
            let length = Int(bytes[offset + 3] & 0x3) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            return length >= 7 ? length : nil
        }
        return bytes.indices.first { start in
            guard let first = frameLength(at: start), let second = frameLength(at: start + first) else { return false }
            return frameLength(at: start + first + second) != nil
        } ?? 0
    }

    /// Each title change is a chapter (and a cue sheet entry) within 0.5 s of where the title block
    /// arrived in the audio, timed from the received frames' own timestamps.
    private func checkChaptersFollowTheTitles(_ file: URL, station: Station) throws {
        let metaint = try XCTUnwrap(station.capture.metaint, "\(station.codec): no icy-metaint")
        let stream = ICYReceivedStream(interleaved: station.capture.body, metaint: metaint)
        let received = onair.home.file("titles-\(station.codec.rawValue).\(station.codec.fileExtension)")
        let skipped = bytesBeforeTheFirstFrame(stream.audio, station: station)
        try stream.audio.dropFirst(skipped).write(to: received)
        let packets = try RecordedFile.packetTimes(received).map { (position: $0.position + skipped, time: $0.time) }
        let origin = try XCTUnwrap(packets.first).time
        var expected: [RecordedFile.Chapter] = []
        for block in stream.blocks {
            guard let title = block.streamTitleText, title != expected.last?.title else { continue }
            guard let packet = packets.first(where: { $0.position >= block.audioOffset }) else { break }
            let time = expected.isEmpty ? 0 : packet.time - origin
            guard time < 10 else { break }
            expected.append(RecordedFile.Chapter(start: time, title: title))
        }
        XCTAssertEqual(expected.map(\.title), ["\(station.codec.rawValue) opening", "Guns N' Roses – Café Ünïcødé", "Third Title"],
                       "\(station.codec): the titles the server sent")
        let recorded = RecordedFile(url: file)
        for (name, chapters) in [("chapters", try recorded.chapters()), ("cue sheet", try recorded.cueSheet())] {
            XCTAssertEqual(chapters.count, expected.count, "\(station.codec) \(name): \(chapters)")
            for (chapter, truth) in zip(chapters, expected) {
                XCTAssertEqual(chapter.start, truth.start, accuracy: 0.5, "\(station.codec) \(name): \(chapter.title)")
                // The cue sheet splits "Artist - Title"; these titles have no " - ".
                XCTAssertEqual(chapter.title, truth.title, "\(station.codec) \(name)")
            }
        }
    }
}
