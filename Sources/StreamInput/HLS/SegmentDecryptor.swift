import CFFmpeg
import Foundation

/// AES-128-CBC with PKCS#7 padding, the way RFC 8216 §4.3.2.4 encrypts whole segments, done by
/// libavutil's AES. Each call has its own AES context, so any thread may decrypt. The context is memory
/// of `av_aes_size` bytes that this function owns (libavutil exports the size for callers that place
/// the context themselves), so no FFmpeg alloc/free pair lives outside Media's owning wrappers.
enum SegmentDecryptor {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func decrypt(_ data: Data, key: [UInt8], iv: [UInt8]) throws -> Data {
        guard key.count == 16 else { throw Failure(description: "the key is \(key.count) bytes, not 16") }
        precondition(iv.count == 16, "the playlist parser makes 16-byte IVs")
        guard !data.isEmpty, data.count % 16 == 0 else {
            throw Failure(description: "\(data.count) encrypted bytes are not whole AES blocks")
        }
        let context = UnsafeMutableRawPointer.allocate(byteCount: Int(av_aes_size), alignment: 16)
        context.initializeMemory(as: UInt8.self, repeating: 0, count: Int(av_aes_size))  // zeroed, as libavutil's own allocator would
        defer { context.deallocate() }
        let aes = OpaquePointer(context)
        var output = Data(count: data.count)
        var chain = iv
        _ = key.withUnsafeBufferPointer { av_aes_init(aes, $0.baseAddress, 128, 1) }
        output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                av_aes_crypt(aes, out.bindMemory(to: UInt8.self).baseAddress, input.bindMemory(to: UInt8.self).baseAddress,
                             Int32(data.count / 16), &chain, 1)
            }
        }
        // PKCS#7: the last byte says how many padding bytes, each of that value, end the plain text.
        let padding = Int(output[output.count - 1])
        guard (1...16).contains(padding), output.suffix(padding).allSatisfy({ Int($0) == padding }) else {
            throw Failure(description: "the segment does not decrypt with its key (bad padding)")
        }
        return output.prefix(output.count - padding)
    }
}
