import ClipDetection
import Foundation
import RadioModel
import TestSupport
import XCTest

/// A station's named songs learned as it plays: only a song seen whole (from its title's start to the next title,
/// no gap) under a title that reads like one, as long as a song is, with its edges left out; found again by its sound.
final class TrackLearnerTests: XCTestCase {
    private let rate = Fingerprint.sampleRate

    func testOnlyASongSeenWholeUnderASongsTitleIsLearnedAndItIsFoundAgainByItsSound() throws {
        let learned = Locked<[LearnedTrack]>([])
        let learner = try TrackLearner(station: "fip", format: PCMFormat(sampleRate: rate, bitsPerSample: 16, channels: 1)) { track in
            learned.withLock { $0.append(track) }
        }
        func play(_ seconds: Double, seed: UInt64) throws {
            let audio = ChordMusic(seed: seed).samples(seconds: seconds)
            for start in stride(from: 0, to: audio.count, by: rate) {
                try Array(audio[start..<min(start + rate, audio.count)]).withUnsafeBytes { try learner.consume($0) }
            }
        }
        func title(_ text: String, kind: TitleDetails.Kind? = nil) throws {
            try learner.titleChanged(TitleChange(title: text, url: nil, audioByteOffset: 0, details: kind.map { TitleDetails(kind: $0) }))
        }
        // On air when the learner began: not seen from its start.
        try title("Already - On")
        try play(40, seed: 90)
        try title("The Band - Song")
        try play(40, seed: 91)
        // A gap inside: not the same audio as a whole airing.
        try title("Other - Gapped")
        try play(20, seed: 92)
        learner.handle(.gap(Gap(start: Date(), seconds: 2)))
        try play(20, seed: 93)
        try title("Morning Show")          // not a song's title
        try play(40, seed: 94)
        try title("Short - One")           // too short
        try play(20, seed: 95)
        try title("Station News", kind: .stationMessage)
        try play(40, seed: 96)
        try title("Said - Message", kind: .stationMessage)
        try play(40, seed: 97)
        try title("Last - Cut")            // the stream ends during it
        try play(40, seed: 98)
        learner.finish()

        XCTAssertEqual(learned.current.map(\.title), ["The Band - Song"])
        let song = try XCTUnwrap(learned.current.first)
        XCTAssertEqual(song.seconds, 34, accuracy: 0.1, "three seconds left out at each end")

        // The song on another station, without a title: found by its sound, under the learned name.
        var matcher = ClipMatcher(index: ClipIndex([ReferenceClip(id: 1, name: song.title, kind: .song, seconds: song.seconds,
                                                                  fingerprint: song.fingerprint, learned: true)]))
        let printer = try Chromaprinter()
        let elsewhere = ChordMusic(seed: 99).samples(seconds: 15) + ChordMusic(seed: 91).samples(seconds: 40) + ChordMusic(seed: 99).samples(seconds: 5)
        let found = matcher.append(printer.feed(elsewhere) + printer.finish()) + matcher.finish()
        XCTAssertEqual(found.map(\.clip.name), ["The Band - Song"])
        XCTAssertEqual(try XCTUnwrap(found.first).streamSeconds, 15, accuracy: 0.5, "where the song began, before the seconds its clip leaves out")
        XCTAssertEqual(try XCTUnwrap(found.first).airedSeconds, 40, accuracy: 0.5, "the whole song")
        XCTAssertEqual(found.first?.isPartial, false)
    }
}
