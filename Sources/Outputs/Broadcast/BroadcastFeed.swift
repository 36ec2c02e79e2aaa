import Media
import RadioModel
import StreamInput

/// The consumer a relay attaches to a station: it turns the station into the container bytes of an
/// `AudioBroadcast`, once, however many readers the broadcast has.
///
/// A copy takes packets and an encoding takes PCM; the pipeline decodes only when some consumer is a
/// `PCMConsumer`, so the two are separate types and a copy relay costs no decoding.
/// A sink others listen to (an HTTP relay mount): how many do now.
public protocol ListenedSink: StreamConsumer {
    var listeners: Int { get }
}

enum BroadcastFeed {
    static func make(_ format: RelayFormat, input: PCMFormat, label: String, into broadcast: AudioBroadcast) throws -> StreamConsumer {
        let output = ContainerOutput.stream { broadcast.write($0) }
        switch format {
        case .copy:
            let writer = StreamCopyWriter(label: label, output: output) { container in
                broadcast.setContentType(container.contentType)
            }
            return CopyFeed(writer: writer, broadcast: broadcast)
        case .encode(let encoding):
            broadcast.setContentType(encoding.streamContainer.contentType)
            let encoder = try PCMEncoder(label: label, input: input, encoding: encoding, output: output)
            try broadcast.commit()  // the container header, written as the encoder opened
            return EncodingFeed(encoder: encoder, broadcast: broadcast)
        }
    }
}

/// The station's packets, copied into their natural container (no decoding).
final class CopyFeed: PacketConsumer, TitleConsumer, ListenedSink, @unchecked Sendable {  // immutable; its writer and broadcast guard themselves
    private let writer: StreamCopyWriter
    private let broadcast: AudioBroadcast

    init(writer: StreamCopyWriter, broadcast: AudioBroadcast) {
        self.writer = writer
        self.broadcast = broadcast
    }

    var label: String { writer.label }

    var listeners: Int { broadcast.listeners }

    func begin(_ format: EncodedFormat) throws {
        try writer.begin(format)
        try broadcast.commit()
    }

    func consume(_ packet: EncodedPacket) throws {
        try writer.consume(packet)
        try broadcast.commit()
    }

    func titleChanged(_ change: TitleChange) throws { try broadcast.publish(change) }

    func finish() {
        writer.finish()
        try? broadcast.commit()
        broadcast.end()
    }
}

/// The station's PCM, encoded once for every reader.
final class EncodingFeed: PCMConsumer, TitleConsumer, ListenedSink, @unchecked Sendable {  // immutable; its writer and broadcast guard themselves
    private let encoder: PCMEncoder
    private let broadcast: AudioBroadcast

    init(encoder: PCMEncoder, broadcast: AudioBroadcast) {
        self.encoder = encoder
        self.broadcast = broadcast
    }

    var label: String { encoder.label }

    var listeners: Int { broadcast.listeners }

    func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try encoder.consume(pcm)
        try broadcast.commit()
    }

    func titleChanged(_ change: TitleChange) throws { try broadcast.publish(change) }

    func finish() {
        encoder.finish()
        try? broadcast.commit()
        broadcast.end()
    }
}
