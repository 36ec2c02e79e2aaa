import Engine
import Foundation

/// One daemon per data directory: an exclusive lock on `daemon.lock`, released when the process ends
/// (however it ends), so a restarted daemon knows the previous one is gone.
public final class DaemonLock {
    private let descriptor: Int32

    public init(directory: URL) throws {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("daemon.lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw EngineError("cannot open \(path): \(String(cString: strerror(errno)))", kind: .configuration)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw EngineError("another onair daemon is running (it holds \(path))", kind: .configuration)
        }
    }

    deinit { close(descriptor) }
}
