import XCTest
@testable import StreamInput

final class ReconnectPolicyTests: XCTestCase {
    func testBackoffGrowsThenStaysBoundedWithJitter() {
        let policy = ReconnectPolicy(initialDelay: 0.5, maxDelay: 30, multiplier: 2, jitter: 0.25)
        XCTAssertEqual(policy.delay(attempt: 1, unit: 0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(attempt: 2, unit: 0.5), 1.0, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(attempt: 4, unit: 0.5), 4.0, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(attempt: 40, unit: 0.5), 30, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(attempt: 3, unit: 0), 1.5, accuracy: 1e-9, "jitter spreads by -25%")
        XCTAssertEqual(policy.delay(attempt: 3, unit: 0.999_999), 2.5, accuracy: 1e-3, "and by +25%")
        XCTAssertLessThanOrEqual(policy.delay(attempt: 1000, unit: 0.999), 30)
    }
}

final class ByteQueueTests: XCTestCase {
    func testRefusedProducerIsWokenOnceDrainedBelowHalf() {
        let queue = ByteQueue(capacity: 100)
        let woken = expectation(description: "space available")
        queue.setSpaceAvailableHandler { woken.fulfill() }
        let chunk = [UInt8](repeating: 1, count: 60)
        XCTAssertTrue(queue.hasRoom(for: 60))
        chunk.withUnsafeBytes { queue.append($0) }
        XCTAssertFalse(queue.hasRoom(for: 60), "60 + 60 exceeds the capacity")
        var buffer = [UInt8](repeating: 0, count: 20)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { queue.read(into: $0) }, 20)
        wait(for: [woken], timeout: 1)
    }

    func testPeekDoesNotConsumeAndFinishEndsReads() {
        let queue = ByteQueue()
        let bytes: [UInt8] = [1, 2, 3]
        bytes.withUnsafeBytes { queue.append($0) }
        queue.finish()
        XCTAssertEqual(queue.peek(upTo: 10), [1, 2, 3], "peek returns what there is once finished")
        var buffer = [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { queue.read(into: $0) }, 3)
        XCTAssertEqual(buffer.prefix(3), [1, 2, 3])
        XCTAssertEqual(buffer.withUnsafeMutableBytes { queue.read(into: $0) }, 0, "end of stream")
    }

    func testADrainedQueueLetsGoOfWhatABurstGrewAndKeepsOrderAcrossIt() {
        let queue = ByteQueue()
        let burst = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        burst.withUnsafeBytes { queue.append($0) }
        XCTAssertGreaterThanOrEqual(queue.heldBytes, burst.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < burst.count {
            let count = buffer.withUnsafeMutableBytes { queue.read(into: $0) }
            received += buffer.prefix(count)
        }
        XCTAssertEqual(received, burst)
        XCTAssertLessThanOrEqual(queue.heldBytes, 16 << 10, "a drained queue still holds its burst")

        // Steady small chunks, each read as it comes, keep one small buffer.
        for chunk in 0..<100 {
            let bytes = [UInt8](repeating: UInt8(chunk), count: 1400)
            bytes.withUnsafeBytes { queue.append($0) }
            XCTAssertEqual(buffer.withUnsafeMutableBytes { queue.read(into: $0) }, 1400)
            XCTAssertEqual(buffer.prefix(1400), bytes[...])
        }
        XCTAssertLessThanOrEqual(queue.heldBytes, 16 << 10)
    }

    func testAPatientReaderTakesWhatGatheredWhileItSleptInOneRead() {
        let queue = ByteQueue()
        queue.readerPatience = 0.3
        let done = expectation(description: "reader returned")
        let started = Date()
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { queue.read(into: $0) }
            XCTAssertEqual(count, 500, "every write of the last 0.3 s in one read")
            XCTAssertEqual(buffer.prefix(500), ArraySlice((0..<5).flatMap { [UInt8](repeating: UInt8($0), count: 100) }))
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25, "a write woke the reader before its time")
            done.fulfill()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        for chunk in 0..<5 {
            [UInt8](repeating: UInt8(chunk), count: 100).withUnsafeBytes { queue.append($0) }
        }
        wait(for: [done], timeout: 5)
    }

    func testAPatientReaderIsWokenAtOnceByABurstOrTheEnd() {
        for ending in [false, true] {
            let queue = ByteQueue()
            queue.readerPatience = 30
            let done = expectation(description: "reader returned")
            let size = ending ? 10 : queue.wakeThreshold
            Thread {
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                XCTAssertEqual(buffer.withUnsafeMutableBytes { queue.read(into: $0) }, size)
                done.fulfill()
            }.start()
            Thread.sleep(forTimeInterval: 0.05)
            [UInt8](repeating: 1, count: size).withUnsafeBytes { queue.append($0) }
            if ending { queue.finish() }
            wait(for: [done], timeout: 5)
        }
    }

    func testCloseWakesABlockedReader() {
        let queue = ByteQueue()
        let done = expectation(description: "reader returned")
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4)
            let count = buffer.withUnsafeMutableBytes { queue.read(into: $0) }
            XCTAssertEqual(count, 0)
            done.fulfill()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        queue.close()
        wait(for: [done], timeout: 1)
    }
}
