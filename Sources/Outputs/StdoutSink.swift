import Media
#if canImport(Glibc)
import Glibc
#endif

/// Raw interleaved PCM on standard output, for piping into another program.
public final class StdoutSink: PCMConsumer, Sendable {
    public let label = "stdout"

    public init() {}

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try FileDescriptorWriter.writeAll(STDOUT_FILENO, pcm, label: label)
    }

    public func finish() {}
}
