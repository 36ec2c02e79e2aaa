import CFFmpeg

/// A compressed packet kept beyond the call that handed it over: a track splitter holds packets back
/// until it knows on which side of a cut they fall.
public final class RetainedPacket: @unchecked Sendable {  // immutable; the packet is only read once kept
    private let packet: OwnedPacket
    private let timeBase: AVRational

    /// A new reference to the same data: no copy of the payload.
    public init(_ source: EncodedPacket) throws {
        packet = try OwnedPacket(referencing: source.packet)
        timeBase = source.timeBase
    }

    /// The packet, for a consumer's `consume`.
    public var encoded: EncodedPacket { EncodedPacket(packet: packet.pointer, timeBase: timeBase) }
}
