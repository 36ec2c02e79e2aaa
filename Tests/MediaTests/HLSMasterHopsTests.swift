import Foundation
import XCTest
import StreamInput
import TestSupport

/// A master playlist may name another master playlist (some CDNs add a level), but no more than
/// twice: a third master is a loop or a broken server, and the stream fails with one plain error.
final class HLSMasterHopsTests: XCTestCase {
    func testTwoMasterPlaylistsAreFollowedAndAThirdIsRefused() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let type = "application/vnd.apple.mpegurl"
        func master(pointingAt next: String) -> FixtureHTTPServer.Handler {
            FixtureHTTPServer.file(Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\n\(next)\n".utf8), contentType: type)
        }
        server.route("/m0.m3u8", master(pointingAt: "m1.m3u8"))
        server.route("/m1.m3u8", master(pointingAt: "m2.m3u8"))
        server.route("/m2.m3u8", master(pointingAt: "media.m3u8"))
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nseg0.aac\n#EXT-X-ENDLIST\n"
        server.route("/media.m3u8", FixtureHTTPServer.file(Data(media.utf8), contentType: type))
        server.route("/seg0.aac", FixtureHTTPServer.file(try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 2, codec: .aacADTS)),
                                                        contentType: "audio/aac"))

        func follow(_ path: String) -> EventLog {
            PipelineHarness().play(seconds: nil, timeout: 30) {
                HLSStream(url: server.url(path).absoluteString, options: PipelineHarness().options, onEvent: $0)
            }.events
        }
        let twoHops = follow("/m1.m3u8")
        XCTAssertFalse(twoHops.failure?.contains("not an HLS media playlist") ?? false, "\(twoHops.events)")
        XCTAssertEqual(server.requestCount("/media.m3u8") > 0, true, "the media playlist behind two masters was loaded")

        let requestsBefore = server.requestCount("/media.m3u8")
        let threeHops = follow("/m0.m3u8")
        XCTAssertTrue(threeHops.failure?.contains("m2.m3u8 is not an HLS media playlist") ?? false, "\(threeHops.events)")
        XCTAssertEqual(server.requestCount("/media.m3u8"), requestsBefore, "nothing behind the third master was loaded")
    }
}
