import Foundation
import Media
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// PCM into a WAV file. The header's sizes are rewritten every few seconds and at the end, so a
/// file whose writer was killed still opens, missing at most the last few seconds' header update.
public final class WAVFileSink: PCMConsumer, Sendable {
    public let label: String
    private let format: PCMFormat
    private struct State {
        var fd: Int32
        var dataBytes: UInt64 = 0
        var bytesSinceHeader: UInt64 = 0
    }
    private let state: Locked<State>
    private let headerInterval: UInt64

    public init(path: String, format: PCMFormat) throws {
        label = "wav:\(path)"
        self.format = format
        headerInterval = UInt64(format.bytesPerSecond * 2)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SinkError.system("cannot create \(path)") }
        state = Locked(State(fd: fd))
        do {
            // The first header goes through write(), so the data that follows starts after it;
            // later updates rewrite it in place with pwrite().
            try header(dataBytes: 0).withUnsafeBytes { try FileDescriptorWriter.writeAll(fd, $0, label: label) }
        } catch {
            close(fd)
            throw error
        }
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            guard state.fd >= 0 else { return }
            try FileDescriptorWriter.writeAll(state.fd, pcm, label: label)
            state.dataBytes += UInt64(pcm.count)
            state.bytesSinceHeader += UInt64(pcm.count)
            if state.bytesSinceHeader >= headerInterval {
                state.bytesSinceHeader = 0
                try writeHeader(state)
            }
        }
    }

    public func finish() {
        state.withLock { state in
            guard state.fd >= 0 else { return }
            try? writeHeader(state)
            fsync(state.fd)
            close(state.fd)
            state.fd = -1
        }
    }

    private func writeHeader(_ state: State) throws {
        let bytes = header(dataBytes: state.dataBytes)
        let written = bytes.withUnsafeBytes { pwrite(state.fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { throw SinkError.system("\(label): cannot write the header") }
    }

    /// The canonical 44-byte header; sizes saturate at 4 GiB, which readers treat as "to the end".
    private func header(dataBytes: UInt64) -> [UInt8] {
        let data = UInt32(clamping: dataBytes)
        let riff = UInt32(clamping: dataBytes + 36)
        var header = [UInt8]()
        header.reserveCapacity(44)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: Array("RIFF".utf8)); append(riff)
        header.append(contentsOf: Array("WAVE".utf8))
        header.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16))
        append(UInt16(1)) // integer PCM
        append(UInt16(format.channels))
        append(UInt32(format.sampleRate))
        append(UInt32(format.bytesPerSecond))
        append(UInt16(format.bytesPerFrame))
        append(UInt16(format.bitsPerSample))
        header.append(contentsOf: Array("data".utf8)); append(data)
        return header
    }
}
