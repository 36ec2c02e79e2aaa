import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A write to a file or pipe failed; the message names the sink and the system's reason.
public struct SinkError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    static func system(_ what: String, errno code: Int32 = errno) -> SinkError {
        SinkError("\(what): \(String(cString: strerror(code)))")
    }
}

/// Writes all bytes to a descriptor, retrying short writes and interruptions.
enum FileDescriptorWriter {
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, label: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SinkError.system(label)
            }
            offset += written
        }
    }
}
