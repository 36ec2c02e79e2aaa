import Foundation
import XCTest
@testable import Media
import TestSupport

/// An ADTS stream joined mid-frame, as an Icecast server hands it to a new listener, whose first
/// bytes hold a false sync word announcing an 8 KB frame.
final class ADTSAlignmentTests: XCTestCase {
    /// A header FFmpeg's demuxer takes for a frame (12 set bits) though its layer bits rule ADTS out.
    private func falseHeader(length: Int) -> [UInt8] {
        [0xFF, 0xFA, 0x3F, 0xD0 | UInt8(length >> 11), UInt8((length >> 3) & 0xFF), UInt8((length & 7) << 5) | 0x1F, 0xFC]
    }

    private func frameStarts(_ adts: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var position = 0
        while position + 7 <= adts.count, let length = adts[position...].withUnsafeBytes({ FrameIntegrity.adtsFrameLength($0) }), length >= 7 {
            starts.append(position)
            position += length
        }
        return starts
    }

    func testTheFirstRealFrameIsFoundPastAFalseSyncAndAnID3TagIsLeftToTheDemuxer() throws {
        let adts = try [UInt8](Data(contentsOf: AudioFixtures.sine(frequency: 1000, seconds: 1, codec: .aacADTS, bitrate: 128)))
        let tail: [UInt8] = [0x12, 0x34, 0x56] + falseHeader(length: 8190)
        XCTAssertEqual(ADTSAlignment.bytesBeforeFirstFrame(Array((tail + adts).prefix(4096))), tail.count)
        XCTAssertEqual(ADTSAlignment.bytesBeforeFirstFrame(Array(adts.prefix(4096))), 0, "a stream that starts on a frame")
        XCTAssertEqual(ADTSAlignment.bytesBeforeFirstFrame(Array((Array("ID3".utf8) + [4, 0, 0, 0, 0, 10] + adts).prefix(4096))), 0)
        XCTAssertEqual(ADTSAlignment.bytesBeforeFirstFrame([UInt8](repeating: 0x55, count: 4096)), 0, "no frame at all")
    }

    /// Before the demuxer started on a real frame, it read the false frame's 8 KB, skipped to the next
    /// sync word where that ended, and the real frame across that point reached the decoder short:
    /// rejected, and a copy lost it (a `[gap 0.0 s]` chapter in recordings of AAC Icecast stations).
    func testAStreamJoinedMidFrameDecodesWithoutAGap() throws {
        let adts = try [UInt8](Data(contentsOf: AudioFixtures.sine(frequency: 1000, seconds: 4, codec: .aacADTS, bitrate: 128)))
        let starts = frameStarts(adts)
        XCTAssertGreaterThan(starts.count, 150)
        // The false frame ends 100 bytes into a real one, as it does on the air.
        let junk: [UInt8] = [0x12, 0x34, 0x56]
        let falseEnd = junk.count + 7 + starts[21] + 100
        let body = junk + falseHeader(length: falseEnd - junk.count) + adts
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        // Sent at once and then held open, like a live stream: a server that ended it would make the
        // stream reconnect, and the test is about one connection.
        server.route("/joined.aac") { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [("Content-Type", "audio/aac")])
            try connection.send(Data(body))
            try connection.sleep(30)
        }

        let (log, audio) = PipelineHarness().play(server.url("/joined.aac").absoluteString, seconds: 3.5, timeout: 20)
        XCTAssertEqual(log.gaps.count, 0, "\(log.gaps)")
        XCTAssertEqual(log.connections, 1)
        XCTAssertEqual(audio.duration, 3.5, accuracy: 0.01)
    }

    /// A saved .aac file that starts mid-frame (such a stream written to disk as it came): played and
    /// remuxed from its first real frame, as a live stream is, so no frame is lost at the false one's end.
    func testAFileCutMidFramePlaysAndRemuxesEveryFrame() throws {
        let directory = try TemporaryDirectory(prefix: "onair-adts-file")
        let adts = try [UInt8](Data(contentsOf: AudioFixtures.sine(frequency: 1000, seconds: 4, codec: .aacADTS, bitrate: 128)))
        let starts = frameStarts(adts)
        let junk: [UInt8] = [0x12, 0x34, 0x56]
        let falseEnd = junk.count + 7 + starts[21] + 100
        let cut = directory.url.appendingPathComponent("cut.aac"), whole = directory.url.appendingPathComponent("whole.aac")
        try Data(junk + falseHeader(length: falseEnd - junk.count) + adts).write(to: cut)
        try Data(adts).write(to: whole)

        XCTAssertEqual(try ContainerRemux.summary(of: cut.path).packets, starts.count, "every frame is copied")
        let remuxed = directory.url.appendingPathComponent("cut.m4a")
        _ = try ContainerRemux.remux(input: cut.path, output: remuxed.path, container: .mp4, metadata: [:], chapters: [])
        XCTAssertEqual(try FFprobe.decodeErrors(remuxed), 0)

        func decodedBytes(_ file: URL) throws -> Int {
            let media = try MediaFile(path: file.path, format: .snapcastDefault)
            var count = 0
            while try media.read({ count += $0.count }) {}
            return count
        }
        XCTAssertEqual(try decodedBytes(cut), try decodedBytes(whole), "played from its first real frame, none rejected")
    }
}
