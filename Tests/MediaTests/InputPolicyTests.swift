import Foundation
import XCTest
@testable import Media
import TestSupport

/// libavformat reads audio only (`InputPolicy`). Before it, a stream body in one of FFmpeg's script or
/// network formats was obeyed: an ffconcat script played a file of the box's, an SDP description bound
/// UDP ports on every interface, and a file path starting `concat:` or `subfile:` was read as a protocol.
final class InputPolicyTests: XCTestCase {
    private func serve(_ body: String, as contentType: String) throws -> (FixtureHTTPServer, String) {
        let server = try FixtureHTTPServer()
        server.route("/stream") { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [("Content-Type", contentType)])
            try connection.send(body)
            try connection.sleep(20)
        }
        return (server, server.url("/stream").absoluteString)
    }

    func testAnFFconcatStreamBodyIsRefusedAndTheFileItNamesIsNeverPlayed() throws {
        let tone = try AudioFixtures.sine(frequency: 440, seconds: 10)
        let (server, url) = try serve("ffconcat version 1.0\nfile '\(tone.path)'\n", as: "audio/mpeg")
        defer { server.stop() }
        // Refused, it is asked for again and again (a station's server may recover): 4 s of that is enough.
        let (log, audio) = PipelineHarness().play(url, seconds: 3, timeout: 4)
        XCTAssertEqual(audio.duration, 0, "nothing of the box's file came out")
        XCTAssertTrue(log.warnings.contains { $0.contains("not audio onair reads") }, "\(log.warnings) \(log.failure ?? "")")
    }

    func testAnSDPStreamBodyIsRefused() throws {
        let sdp = "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=onair\r\nc=IN IP4 0.0.0.0\r\nt=0 0\r\nm=audio 45004 RTP/AVP 14\r\n"
        let (server, url) = try serve(sdp, as: "application/sdp")
        defer { server.stop() }
        // Refused, it is asked for again and again (a station's server may recover): 4 s of that is enough.
        let (log, audio) = PipelineHarness().play(url, seconds: 3, timeout: 4)
        XCTAssertEqual(audio.duration, 0)
        XCTAssertTrue(log.warnings.contains { $0.contains("not audio onair reads") }, "\(log.warnings) \(log.failure ?? "")")
    }

    func testAPlaylistSavedAsAFileIsRefusedAsAudio() throws {
        let directory = try TemporaryDirectory(prefix: "onair-input-policy")
        defer { directory.remove() }
        let tone = try AudioFixtures.sine(frequency: 440, seconds: 4)
        let playlist = directory.url.appendingPathComponent("episode.mp3")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:4,\nfile://\(tone.path)\n#EXT-X-ENDLIST\n".write(to: playlist, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try MediaFile(path: playlist.path, format: .snapcastDefault)) { error in
            XCTAssertTrue("\(error)".contains("not audio onair reads"), "\(error)")
        }
    }

    func testPathsThatSpellAProtocolAreFilesNotProtocols() throws {
        let tone = try AudioFixtures.sine(frequency: 440, seconds: 4)
        for path in ["concat:\(tone.path)|\(tone.path)", "subfile:,start,0,end,0,:\(tone.path)"] {
            XCTAssertThrowsError(try MediaFile(path: path, format: .snapcastDefault), path)
        }
        XCTAssertNoThrow(try MediaFile(path: tone.path, format: .snapcastDefault), "a real file still opens")
    }
}
