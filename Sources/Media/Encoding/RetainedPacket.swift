import CFFmpeg

/// A compressed packet kept beyond the call that handed it over: a track splitter holds packets back
/// until it knows on which side of a cut they fall.
public final class RetainedPacket: @unchecked Sendable {
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let timeBase: AVRational

    /// A new reference to the same data: no copy of the payload.
    public init(_ source: EncodedPacket) throws {
        guard let packet = av_packet_clone(source.packet) else { throw MediaError("cannot keep a packet") }
        self.packet = packet
        timeBase = source.timeBase
    }

    deinit { av_packet_free(&packet) }

    /// The packet, for a consumer's `consume`.
    public var encoded: EncodedPacket { EncodedPacket(packet: packet!, timeBase: timeBase) }
}
