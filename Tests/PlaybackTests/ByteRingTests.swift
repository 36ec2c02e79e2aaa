import XCTest
@testable import Playback

/// The time-shift ring: what goes in comes out in order, the oldest dropped at the bound.
final class ByteRingTests: XCTestCase {
    func testKeepsOrderAcrossTheWrapAndDropsTheOldestWhenFull() {
        let ring = ByteRing(capacity: 8)
        [UInt8]([1, 2, 3, 4, 5, 6]).withUnsafeBytes { ring.append($0) }
        XCTAssertEqual(ring.take(4), [1, 2, 3, 4])
        [UInt8]([7, 8, 9, 10, 11]).withUnsafeBytes { ring.append($0) }
        XCTAssertEqual(ring.count, 7)
        [UInt8]([12, 13]).withUnsafeBytes { ring.append($0) }
        XCTAssertEqual(ring.count, 8)
        XCTAssertEqual(ring.take(100), [6, 7, 8, 9, 10, 11, 12, 13], "5 was the oldest and made room")
        XCTAssertEqual(ring.free, 8)
    }
}
