import Foundation
import XCTest
import RadioModel
@testable import Outputs

/// The paced sink's writer thread against peers that misbehave on purpose.
final class PacedPCMSinkTests: XCTestCase {
    private let format = PCMFormat.snapcastDefault

    func testConsumeNeverWaitsForAPeerThatIsStuck() {
        let peer = StuckDevice()
        defer { peer.release() }
        let sink = PacedPCMSink(label: "stuck", format: format, options: PacedPCMSink.Options(), peer: peer, onStatus: { _, _ in })
        let tenSeconds = [UInt8](repeating: 1, count: format.bytesPerSecond / 10)
        let start = Date()
        for _ in 0..<100 { tenSeconds.withUnsafeBytes { try? sink.consume($0) } }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.2, "10 s of audio is taken at memory speed")
        let finishing = Date()
        sink.finish()
        XCTAssertLessThan(Date().timeIntervalSince(finishing), 2, "finish gives up on a stuck peer after the buffer's length and a second")
    }

    func testAPeerThatStopsReadingIsSkippedAheadNotFlooded() throws {
        let peer = RecordingPipe(refuseFor: 1.0)
        let sink = PacedPCMSink(label: "slow", format: format, options: PacedPCMSink.Options(), peer: peer, onStatus: { _, _ in })
        let tick = [UInt8](repeating: 1, count: format.bytesPerSecond / 100)
        let feeding = Thread {
            for _ in 0..<200 {
                tick.withUnsafeBytes { try? sink.consume($0) }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        feeding.start()
        Thread.sleep(forTimeInterval: 1.6)
        sink.finish()
        let writes = peer.writes
        let resumed = try XCTUnwrap(writes.first?.time)
        let firstTenth = writes.filter { $0.time < resumed + 0.1 }.reduce(0) { $0 + $1.bytes }
        // It may catch up on at most the buffer's target level (0.2 s), never on the whole second.
        XCTAssertLessThan(Double(firstTenth) / Double(format.bytesPerSecond), 0.1 + 0.21,
                          "after a second of refusals the peer gets the present, not a second of backlog at once")
        let total = writes.filter { $0.time < resumed + 0.5 }.reduce(0) { $0 + $1.bytes }
        XCTAssertEqual(Double(total) / Double(format.bytesPerSecond), 0.5 + 0.1, accuracy: 0.11)
    }
}

/// A self-pacing peer (like an audio device) whose first write never returns until released.
private final class StuckDevice: PCMPeer, @unchecked Sendable {
    let pacesItself = true
    private let gate = DispatchSemaphore(value: 0)
    func open() throws -> String { "stuck device" }
    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        gate.wait()
        gate.signal()
        return bytes.count
    }
    func close() {}
    func retryDelay(afterFailures failures: Int) -> Double { 1 }
    func release() { gate.signal() }
}

/// A clock-paced peer (like a FIFO) that takes nothing for a while, then records what it takes, when.
private final class RecordingPipe: PCMPeer, @unchecked Sendable {
    let pacesItself = false
    private let refuseUntil: Date
    private let lock = NSLock()
    private var log: [(time: Double, bytes: Int)] = []

    init(refuseFor seconds: Double) { refuseUntil = Date(timeIntervalSinceNow: seconds) }
    func open() throws -> String { "recording pipe" }
    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        guard Date() >= refuseUntil else { return 0 }
        lock.withLock { log.append((Date().timeIntervalSince1970, bytes.count)) }
        return bytes.count
    }
    func close() {}
    func retryDelay(afterFailures failures: Int) -> Double { 0.1 }
    var writes: [(time: Double, bytes: Int)] { lock.withLock { log } }
}
