import Foundation
import TestSupport
import XCTest
@testable import StreamInput

/// What onair plays from masters offering several audios: audio-only variants first, then the DEFAULT
/// rendition (or, when it has no URI, the variants carrying it), never a rendition nobody selected,
/// stereo before surround; `--quality` still picks the bitrate.
final class HLSMasterSelectionTests: XCTestCase {
    private let base = "https://radio.example/hls/"

    private func chosen(_ fixture: String, _ quality: StreamQuality) throws -> String {
        StreamResolver(quality: quality).choose(from: try HLSQuirkFixtures.master(fixture, url: base + "master.m3u8")).url
    }

    func testTheDefaultRenditionInsideTheVariantsIsPlayedNotAnUnselectedRendition() throws {
        let variants = try HLSQuirkFixtures.master("default-rendition-in-variants.m3u8", url: base + "master.m3u8")
        XCTAssertEqual(variants.count, 5, "three renditions with a URI and two variants; the URI-less DEFAULT is no stream")
        XCTAssertEqual(try chosen("default-rendition-in-variants.m3u8", .high), base + "video-540/index.m3u8")
        XCTAssertEqual(try chosen("default-rendition-in-variants.m3u8", .low), base + "video-270/index.m3u8")
        let ranked = StreamResolver().ranked(variants).map(\.url)
        XCTAssertEqual(ranked, [base + "video-540/index.m3u8", base + "video-270/index.m3u8", base + "french/index.m3u8"],
                       "the DEFAULT audio, then the AUTOSELECT one; DEFAULT=NO,AUTOSELECT=NO renditions are never tried")
        XCTAssertEqual(variants.first { $0.url.hasSuffix("video-540/index.m3u8") }?.channels, 2, "the DEFAULT rendition's CHANNELS")
    }

    func testAnAudioOnlyVariantComesBeforeRenditionsAndVideo() throws {
        XCTAssertEqual(try chosen("audio-only-variant-beside-renditions.m3u8", .high), base + "audio-128/index.m3u8")
        XCTAssertEqual(try chosen("audio-only-variant-beside-renditions.m3u8", .low), base + "audio-48/index.m3u8")
    }

    func testStereoAACIsChosenOverSurroundAC3AtEitherQuality() throws {
        XCTAssertEqual(try chosen("stereo-aac-and-surround-ac3-groups.m3u8", .high), base + "stereo/prog_index.m3u8")
        XCTAssertEqual(try chosen("stereo-aac-and-surround-ac3-groups.m3u8", .low), base + "stereo/prog_index.m3u8")
        let ranked = StreamResolver().ranked(try HLSQuirkFixtures.master("stereo-aac-and-surround-ac3-groups.m3u8", url: base + "m.m3u8"))
        XCTAssertEqual(ranked[1].url, base + "surround/prog_index.m3u8", "the 5.1 rendition is the next to try, before any video")
    }

    func testAudioOnlyStereoBeatsAtmosAndAC3WhateverTheirBandwidth() throws {
        let variants = try HLSQuirkFixtures.master("audio-only-aac-and-eac3-joc.m3u8", url: base + "master.m3u8")
        XCTAssertEqual(variants.map(\.channels), [16, 2, 2, nil], "\"16/JOC\" and \"2/6\" read as their first count")
        XCTAssertEqual(try chosen("audio-only-aac-and-eac3-joc.m3u8", .high), base + "aac-128/index.m3u8")
        XCTAssertEqual(try chosen("audio-only-aac-and-eac3-joc.m3u8", .low), base + "he-aac-48/index.m3u8")
        XCTAssertEqual(StreamResolver(quality: .high).ranked(variants).suffix(2).map(\.url),
                       [base + "atmos/index.m3u8", base + "ac3-no-channels/index.m3u8"], "AC-3 without CHANNELS counts as surround")
    }

    func testIFramesSessionDataSubtitlesCaptionsSteeringAndImagesAreNotStreams() throws {
        let variants = try HLSQuirkFixtures.master("tags-a-radio-client-skips.m3u8", url: base + "master.m3u8")
        XCTAssertEqual(variants.map(\.url), [base + "video.m3u8", base + "audio.m3u8"])
        XCTAssertEqual(try chosen("tags-a-radio-client-skips.m3u8", .high), base + "audio.m3u8")
    }

    func testAMasterOfOnlyUnselectedRenditionsIsRefusedInOneLine() {
        let master = #"#EXTM3U\#n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Commentary",DEFAULT=NO,AUTOSELECT=NO,URI="c.m3u8"\#n"#
        XCTAssertThrowsError(try PlaylistParser.parse(Data(master.utf8), url: base + "master.m3u8")) { error in
            XCTAssertTrue("\(error)".contains("DEFAULT=NO and AUTOSELECT=NO"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    func testResolvingPlaysTheVariantCarryingTheDefaultAudio() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg1.ts\n"
        for path in ["video-540/index.m3u8", "video-270/index.m3u8", "french/index.m3u8", "described/index.m3u8", "surround/index.m3u8"] {
            server.route("/hls/" + path, FixtureHTTPServer.file(Data(media.utf8), contentType: "application/vnd.apple.mpegurl"))
        }
        server.route("/hls/master.m3u8", FixtureHTTPServer.file(try HLSQuirkFixtures.data("default-rendition-in-variants.m3u8"),
                                                               contentType: "application/vnd.apple.mpegurl"))
        let resolved = try StreamResolver(quality: .high).resolve(server.url("/hls/master.m3u8").absoluteString)
        XCTAssertEqual(resolved.url, server.url("/hls/video-540/index.m3u8").absoluteString)
        XCTAssertEqual(resolved.chosenVariant?.channels, 2)
        XCTAssertEqual(resolved.codec, "aac")
    }
}
