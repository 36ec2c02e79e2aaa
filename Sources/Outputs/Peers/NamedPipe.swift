#if canImport(Glibc)
import Glibc
#endif

/// The FIFO a reader such as snapserver opens, made ready by whichever side comes first.
enum NamedPipe {
    /// Creates a FIFO at `path` when nothing is there (readable by all, so a reader running as another
    /// user, like snapserver's, may open it); refuses anything else found there.
    static func ensure(at path: String, label: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFIFO else {
                throw SinkError("\(label): \(path) exists and is not a FIFO; remove it or choose another path")
            }
        } else if mkfifo(path, 0o644) != 0 && errno != EEXIST {
            throw SinkError.system("\(label): cannot create the FIFO \(path)")
        }
    }
}
