import Foundation
import XCTest
import TestSupport
@testable import StreamInput

/// libavutil's AES against the openssl command line as an independent oracle.
final class SegmentDecryptorTests: XCTestCase {
    private let key: [UInt8] = Array(0x10...0x1F)

    private func opensslEncrypt(_ plain: Data, iv: [UInt8]) throws -> Data {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        return try ProcessRunner.run("openssl", ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv)], timeout: 30, input: plain)
            .check().stdout
    }

    func testDecryptsWhatOpenSSLEncryptsWithEveryPaddingLength() throws {
        for length in [0, 1, 15, 16, 17, 188 * 7] {
            let plain = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let iv = SegmentEncryption.sequenceIV(1000 + length)
            let encrypted = try opensslEncrypt(plain, iv: iv)
            XCTAssertEqual(try SegmentDecryptor.decrypt(encrypted, key: key, iv: iv), plain, "length \(length)")
        }
    }

    func testTheWrongKeyOrIVIsAClearError() throws {
        let plain = Data(repeating: 0x47, count: 376)
        let encrypted = try opensslEncrypt(plain, iv: SegmentEncryption.sequenceIV(7))
        XCTAssertThrowsError(try SegmentDecryptor.decrypt(encrypted, key: Array(key.reversed()), iv: SegmentEncryption.sequenceIV(7))) {
            XCTAssertTrue("\($0)".contains("does not decrypt with its key"), "\($0)")
        }
        XCTAssertThrowsError(try SegmentDecryptor.decrypt(encrypted.dropLast(3), key: key, iv: SegmentEncryption.sequenceIV(7))) {
            XCTAssertTrue("\($0)".contains("not whole AES blocks"), "\($0)")
        }
        XCTAssertThrowsError(try SegmentDecryptor.decrypt(encrypted, key: [1, 2, 3], iv: SegmentEncryption.sequenceIV(7))) {
            XCTAssertTrue("\($0)".contains("3 bytes, not 16"), "\($0)")
        }
    }
}
