import Foundation
import XCTest
import Media
import StreamInput
import TestSupport

/// An ad break as server-side ad insertion writes it: the programme's segments, a discontinuity, an
/// ad encoded on its own (its timestamps start again from zero, at another sample rate), a
/// discontinuity, and the programme again with its timestamps jumped ahead. Segments made by FFmpeg.
final class HLSAdBreakTests: XCTestCase {
    func testAnAdBreakWhoseTimestampsRestartIsContinuousAudioWithoutAGapOrAnError() throws {
        let directory = try TemporaryDirectory(prefix: "onair-adbreak")
        defer { directory.remove() }
        func segments(_ name: String, frequency: Int, seconds: Int, sampleRate: Int) throws {
            try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i",
                                             "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)",
                                             "-c:a", "aac", "-b:a", "96k", "-f", "hls", "-hls_time", "2", "-hls_list_size", "0",
                                             "-hls_segment_filename", directory.file("\(name)%d.ts").path,
                                             directory.file("\(name).m3u8").path], timeout: 60).check()
        }
        try segments("show", frequency: 440, seconds: 6, sampleRate: 44100)
        try segments("ad", frequency: 880, seconds: 2, sampleRate: 48000)
        let playlist = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:0
        #EXTINF:2.0,
        show0.ts
        #EXTINF:2.0,
        show1.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2.0,
        ad0.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2.0,
        show2.ts
        #EXT-X-ENDLIST

        """
        try Data(playlist.utf8).write(to: directory.file("break.m3u8"))
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.serveDirectory(directory.url, at: "/hls/")

        let url = server.url("/hls/break.m3u8").absoluteString
        let (log, audio) = PipelineHarness().play(seconds: nil, timeout: 30) { HLSStream(url: url, options: PipelineHarness().options, onEvent: $0) }
        XCTAssertNil(log.failure, "\(log.events)")
        XCTAssertTrue(log.gaps.isEmpty, "an ad break is not a gap: \(log.gaps)")
        XCTAssertTrue(log.warnings.isEmpty, "nor anything to warn about: \(log.warnings)")
        XCTAssertEqual(log.decodings.map(\.sampleRate), [44100, 48000, 44100], "a fresh decoder at each discontinuity")
        XCTAssertEqual(audio.duration, 8, accuracy: 0.1, "every segment's audio, back to back")
        XCTAssertEqual(audio.slice(from: 0.5, to: 3.5).dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(audio.slice(from: 4.3, to: 5.7).dominantFrequency() ?? 0, 880, accuracy: 2)
        XCTAssertEqual(audio.slice(from: 6.3, to: 7.7).dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertLessThan(audio.longestSilence(), 0.1, "no hole at either seam")
    }
}
