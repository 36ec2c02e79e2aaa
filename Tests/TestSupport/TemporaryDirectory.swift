import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system temporary directory, removed (with its contents)
/// on `remove()` or when the object is deallocated.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()
    private var removed = false

    /// Creates `$TMPDIR/PREFIX.XXXXXX` with `mkdtemp`, so parallel test processes never collide.
    public init(prefix: String = "onair-test") throws {
        let template = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix).XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard let created = mkdtemp(&buffer) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
        }
        url = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }

    /// The URL of `name` inside this directory (the file need not exist).
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    public func remove() {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}
