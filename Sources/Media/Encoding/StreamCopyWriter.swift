import CFFmpeg
import Foundation
import RadioModel

/// Writes a station's packets as they came — no decoding, no re-encoding — into one container:
/// the stream copy that recordings and "copy" relays use. Runs after reconnects continue the same
/// container with continuous timestamps.
public final class StreamCopyWriter: PacketConsumer, @unchecked Sendable {  // `state`: Locked; the rest are lets set in init
    public let label: String
    private let container: AudioContainer?
    private let metadata: [String: String]
    private let output: ContainerOutput
    private struct State {
        var writer: ContainerWriter?
        var format: EncodedFormat?
        var finished = false
    }
    private let state = Locked(State())
    private let onContainer: @Sendable (AudioContainer) -> Void

    /// `container` nil picks the codec's natural one; `onContainer` learns which, once the codec is known.
    public init(label: String, container: AudioContainer? = nil, metadata: [String: String] = [:], output: ContainerOutput,
                onContainer: @escaping @Sendable (AudioContainer) -> Void = { _ in }) {
        self.label = label; self.container = container; self.metadata = metadata; self.output = output
        self.onContainer = onContainer
    }

    public func begin(_ format: EncodedFormat) throws {
        try state.withLock { state in
            guard !state.finished else { return }
            if let current = state.format, let writer = state.writer {
                guard current.codecName == format.codecName, current.sampleRate == format.sampleRate,
                      current.channels == format.channels else {
                    throw MediaError("the station changed from \(current.codecName) to \(format.codecName); a stream copy cannot follow")
                }
                writer.beginRun()
                return
            }
            let isFile: Bool
            if case .file = output { isFile = true } else { isFile = false }
            let chosen = container ?? format.naturalContainer(forFile: isFile)
            state.writer = try ContainerWriter(container: chosen, parameters: format.parameters, timeBase: format.timeBase,
                                               metadata: metadata, output: output)
            state.format = format
            onContainer(chosen)
        }
    }

    public func consume(_ packet: EncodedPacket) throws {
        try state.withLock { state in
            guard !state.finished else { return }
            try state.writer?.write(packet)
        }
    }

    /// Sends on what the container holds back: the output then holds every packet consumed.
    public func flush() throws {
        try state.withLock { try $0.writer?.flush() }
    }

    public func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            try? state.writer?.finish()
            state.writer = nil
        }
    }
}
