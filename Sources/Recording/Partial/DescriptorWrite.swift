#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to `descriptor`, going on after short writes and interruptions; stops at the
/// first error. Returns how many bytes were written, and the error's errno if one stopped it.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> (written: Int, errno: Int32?) {
    var offset = 0
    while offset < bytes.count {
        let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0 {
            if errno == EINTR { continue }
            return (offset, errno)
        }
        offset += count
    }
    return (offset, nil)
}
