import CFFmpeg
import StreamInput

/// An AVIOContext that reads from a `ByteQueue`: blocking, forward-only, no seek — a live stream.
final class AVIOBridge {
    /// Small buffers keep the first packet close to the first byte received.
    private static let bufferSize: Int32 = 4096

    let context: UnsafeMutablePointer<AVIOContext>
    private let queue: Unmanaged<ByteQueue>

    init(queue: ByteQueue) throws {
        self.queue = Unmanaged.passRetained(queue)
        guard let buffer = av_malloc(Int(Self.bufferSize)),
              let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0,
                                               self.queue.toOpaque(), avioRead, nil, nil) else {
            self.queue.release()
            throw MediaError("cannot allocate the AVIO context")
        }
        context.pointee.seekable = 0
        self.context = context
    }

    deinit {
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
        queue.release()
    }
}

private let avioRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
    guard let opaque, let buffer, size > 0 else { return onair_averror_eof() }
    let queue = Unmanaged<ByteQueue>.fromOpaque(opaque).takeUnretainedValue()
    let count = queue.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
    return count == 0 ? onair_averror_eof() : Int32(count)
}
