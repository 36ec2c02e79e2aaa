import CFFmpeg
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

/// An AVIOContext over a `RemoteFile`: seekable, each read a range request when it leaves the piece at
/// hand — how a podcast episode plays from its server through the same demuxer as a file on disk.
final class RemoteFileIO {
    private static let bufferSize: Int32 = 32 * 1024

    let context: UnsafeMutablePointer<AVIOContext>
    private let reader: Unmanaged<Reader>

    /// The file and where the demuxer is in it; the player's thread alone touches it.
    final class Reader {
        let file: RemoteFile
        var position: Int64 = 0
        var failure: TransferError?
        init(file: RemoteFile) { self.file = file }
    }

    init(file: RemoteFile) throws {
        reader = Unmanaged.passRetained(Reader(file: file))
        guard let buffer = av_malloc(Int(Self.bufferSize)),
              let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0,
                                               reader.toOpaque(), remoteRead, nil, remoteSeek) else {
            reader.release()
            throw MediaError("cannot allocate the AVIO context")
        }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        self.context = context
    }

    /// Why the last read failed (the server's answer), for the error the demuxer's failure becomes.
    var failure: TransferError? { reader.takeUnretainedValue().failure }

    deinit {
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
        reader.release()
    }
}

private let remoteRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
    guard let opaque, let buffer, size > 0 else { return onair_averror_eof() }
    let reader = Unmanaged<RemoteFileIO.Reader>.fromOpaque(opaque).takeUnretainedValue()
    do throws(TransferError) {
        let count = try reader.file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)), at: reader.position)
        reader.position += Int64(count)
        return count == 0 ? onair_averror_eof() : Int32(count)
    } catch {
        reader.failure = error
        return onair_averror(EIO)
    }
}

private let remoteSeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    let reader = Unmanaged<RemoteFileIO.Reader>.fromOpaque(opaque).takeUnretainedValue()
    switch whence & ~AVSEEK_FORCE {
    case AVSEEK_SIZE: return reader.file.size
    case SEEK_SET: reader.position = offset
    case SEEK_CUR: reader.position += offset
    case SEEK_END: reader.position = reader.file.size + offset
    default: return -1
    }
    return reader.position
}
