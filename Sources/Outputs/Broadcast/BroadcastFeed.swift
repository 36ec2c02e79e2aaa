import Media
import RadioModel
import StreamInput

/// A sink others listen to (an HTTP relay mount): how many do now.
public protocol ListenedSink: StreamConsumer {
    var listeners: Int { get }
}

/// The consumer a relay attaches to a station: it turns the station into the container bytes of an
/// `AudioBroadcast`, once, however many readers the broadcast has.
///
/// A copy takes packets and an encoding takes PCM; the pipeline decodes only when some consumer is a
/// `PCMConsumer`, so the two are separate types and a copy relay costs no decoding.
package enum BroadcastFeed {
    package static func make(_ format: RelayFormat, input: PCMFormat, label: String, into broadcast: AudioBroadcast) throws -> StreamConsumer {
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
package final class CopyFeed: PacketConsumer, TitleConsumer, ListenedSink, @unchecked Sendable {  // immutable; its writer and broadcast guard themselves
    private let writer: StreamCopyWriter
    private let broadcast: AudioBroadcast

    package init(writer: StreamCopyWriter, broadcast: AudioBroadcast) {
        self.writer = writer
        self.broadcast = broadcast
    }

    package var label: String { writer.label }

    package var listeners: Int { broadcast.listeners }

    package func begin(_ format: EncodedFormat) throws {
        try writer.begin(format)
        try broadcast.commit()
    }

    package func consume(_ packet: EncodedPacket) throws {
        try writer.consume(packet)
        try broadcast.commit()
    }

    package func titleChanged(_ change: TitleChange) throws { try broadcast.publish(change) }

    package func finish() {
        writer.finish()
        try? broadcast.commit()
        broadcast.end()
    }
}

/// The station's PCM, encoded once for every reader.
package final class EncodingFeed: PCMConsumer, TitleConsumer, ListenedSink, @unchecked Sendable {  // immutable; its writer and broadcast guard themselves
    private let encoder: PCMEncoder
    private let broadcast: AudioBroadcast

    package init(encoder: PCMEncoder, broadcast: AudioBroadcast) {
        self.encoder = encoder
        self.broadcast = broadcast
    }

    package var label: String { encoder.label }

    package var listeners: Int { broadcast.listeners }

    package func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try encoder.consume(pcm)
        try broadcast.commit()
    }

    package func titleChanged(_ change: TitleChange) throws { try broadcast.publish(change) }

    package func finish() {
        encoder.finish()
        try? broadcast.commit()
        broadcast.end()
    }
}
