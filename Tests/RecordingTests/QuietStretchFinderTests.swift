import Foundation
import XCTest
import RadioModel
@testable import Recording

final class QuietStretchFinderTests: XCTestCase {
    /// 48 kHz 16-bit stereo: a tone, then silence, then a tone.
    private func pcm(_ parts: [(amplitude: Double, seconds: Double)]) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = 0
        for part in parts {
            for _ in 0..<Int(part.seconds * 48000) {
                let sample = Int16(part.amplitude * 32767 * sin(2 * Double.pi * 440 * Double(index) / 48000))
                index += 1
                for _ in 0..<2 { withUnsafeBytes(of: sample.littleEndian) { bytes += $0 } }
            }
        }
        return bytes
    }

    func testTheCutGoesToTheMiddleOfTheSilence() {
        var finder = QuietStretchFinder(format: .snapcastDefault)
        pcm([(0.3, 4), (0, 1.5), (0.3, 4)]).withUnsafeBytes { finder.add($0) }
        XCTAssertEqual(finder.measured, 9.5, accuracy: 0.001)
        XCTAssertEqual(finder.quietestPoint(in: 1...9, preferred: 8), 4.75, accuracy: 0.02)
    }

    func testWithoutSilenceTheQuietestPartWinsAndNearerIsBetter() {
        var finder = QuietStretchFinder(format: .snapcastDefault)
        pcm([(0.5, 2), (0.05, 0.5), (0.5, 2), (0.05, 0.5), (0.5, 2)]).withUnsafeBytes { finder.add($0) }
        XCTAssertEqual(finder.quietestPoint(in: 0...7, preferred: 5), 4.75, accuracy: 0.05, "two equal dips: the nearer one")
        XCTAssertEqual(finder.quietestPoint(in: 0...7, preferred: 1), 2.25, accuracy: 0.05)
    }

    func testOutsideWhatWasMeasuredThePreferredPointStands() {
        var finder = QuietStretchFinder(format: .snapcastDefault)
        pcm([(0.3, 1)]).withUnsafeBytes { finder.add($0) }
        finder.discard(before: 0.5)
        XCTAssertEqual(finder.quietestPoint(in: 2...3, preferred: 2.5), 2.5)
    }
}
