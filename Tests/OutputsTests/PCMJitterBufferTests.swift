import XCTest
import RadioModel
@testable import Outputs

/// The jitter buffer between the decoder and a paced sink, on 16-bit mono frames numbered 0, 1, 2…
final class PCMJitterBufferTests: XCTestCase {
    /// 8 kHz mono 16-bit: 0.1 s holds 800 frames, the target level is 400.
    private let format = PCMFormat(sampleRate: 8000, bitsPerSample: 16, channels: 1)

    func testABurstBeyondTheCapacityKeepsTheNewestAudioDownToTheTargetLevel() {
        let buffer = PCMJitterBuffer(format: format, capacity: 0.1)
        push(buffer, frames: 0..<300)
        push(buffer, frames: 300..<1000)
        XCTAssertEqual(buffer.bufferedFrames, 400)
        XCTAssertEqual(buffer.totalDroppedFrames, 600)
        XCTAssertEqual(pull(buffer, 400).samples, Array(600..<1000).map(Int16.init))
    }

    func testItGivesSilenceUntilTheTargetLevelAndAgainAfterRunningDry() {
        let buffer = PCMJitterBuffer(format: format, capacity: 0.1)
        push(buffer, frames: 0..<100)
        XCTAssertEqual(pull(buffer, 50).audioFrames, 0, "below the target level: silence, and nothing taken")
        push(buffer, frames: 100..<400)
        let resumed = pull(buffer, 50)
        XCTAssertEqual(resumed.audioFrames, 50)
        XCTAssertEqual(resumed.samples, Array(0..<50).map(Int16.init))

        let dry = pull(buffer, 400)
        XCTAssertEqual(dry.audioFrames, 350, "what is left, then silence")
        XCTAssertEqual(Array(dry.samples.suffix(50)), Array(repeating: 0, count: 50))
        push(buffer, frames: 400..<500)
        XCTAssertEqual(pull(buffer, 50).audioFrames, 0, "after running dry it refills to the target first")
    }

    func testDiscardingTakesAudioTheWayPullingDoes() {
        let buffer = PCMJitterBuffer(format: format, capacity: 0.1)
        push(buffer, frames: 0..<100)
        buffer.discard(frames: 50)
        XCTAssertEqual(buffer.bufferedFrames, 100, "nothing is taken while refilling")
        push(buffer, frames: 100..<450)
        buffer.discard(frames: 200)
        XCTAssertEqual(pull(buffer, 10).samples, Array(200..<210).map(Int16.init))
    }

    func testAtTheEndWhatIsLeftBelowTheTargetIsPlayedOut() {
        let buffer = PCMJitterBuffer(format: format, capacity: 0.1)
        push(buffer, frames: 0..<100)
        buffer.end()
        XCTAssertEqual(pull(buffer, 200).audioFrames, 100)
        XCTAssertTrue(buffer.isDrained)
        push(buffer, frames: 100..<200)
        XCTAssertEqual(buffer.bufferedFrames, 0, "nothing is taken after the end")
    }

    private func push(_ buffer: PCMJitterBuffer, frames: Range<Int>) {
        let samples = frames.map { Int16($0) }
        samples.withUnsafeBytes { buffer.push($0) }
    }

    private func pull(_ buffer: PCMJitterBuffer, _ frames: Int) -> (audioFrames: Int, samples: [Int16]) {
        var samples = [Int16](repeating: -1, count: frames)
        let pulled = samples.withUnsafeMutableBytes { buffer.pull(into: $0) }
        return (pulled.audioFrames, samples)
    }
}
