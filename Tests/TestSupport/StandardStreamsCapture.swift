import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a body printed on this process's stdout and stderr: both descriptors are pointed at files
/// while it runs, so in-process tests of the commands see exactly what a user's terminal would.
public struct CapturedOutput {
    public var standardOutput: String
    public var standardError: String
}

public enum StandardStreamsCapture {
    private static let lock = NSLock()

    /// Runs `body` with fds 1 and 2 redirected; returns what it wrote and what it returned or threw.
    public static func run<T>(_ body: () throws -> T) throws -> (CapturedOutput, Result<T, Error>) {
        lock.lock()
        defer { lock.unlock() }
        let directory = try TemporaryDirectory(prefix: "onair-capture")
        let outputs = [directory.file("stdout"), directory.file("stderr")]
        var saved: [Int32] = []
        for (descriptor, url) in zip([STDOUT_FILENO, STDERR_FILENO], outputs) {
            fflush(nil)
            let file = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard file >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            saved.append(dup(descriptor))
            dup2(file, descriptor)
            close(file)
        }
        let result = Result { try body() }
        fflush(nil)
        for (descriptor, original) in zip([STDOUT_FILENO, STDERR_FILENO], saved) {
            dup2(original, descriptor)
            close(original)
        }
        let texts = try outputs.map { try String(contentsOf: $0, encoding: .utf8) }
        return (CapturedOutput(standardOutput: texts[0], standardError: texts[1]), result)
    }
}
