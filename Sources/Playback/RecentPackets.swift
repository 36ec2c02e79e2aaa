import Foundation
import Media
import RadioModel
import StreamInput

/// Keeps the last seconds of a live station's compressed packets, so that a recording started from
/// the player (`r`) begins with what was heard just before the key was pressed. While a recorder is
/// attached it gets those first, then every packet and title as they come; all on the decode thread,
/// so nothing is missed or doubled between the kept packets and the live ones.
public final class RecentPackets: PacketConsumer, TitleConsumer, @unchecked Sendable {  // kept packets and the recorder inside `lock`
    public typealias Recorder = PacketConsumer & TitleConsumer

    public let label = "recent-audio"
    private let seconds: Double
    private let onRecorderFailure: @Sendable (Error) -> Void
    private let lock = NSLock()
    private var format: EncodedFormat?
    private var kept: [RetainedPacket] = []
    private var keptDurations: [Double] = []
    private var keptSeconds = 0.0
    private var recorder: Recorder?
    private var recorderBegun = false
    /// The title on air: a recorder starts with it (a station sends its title once, when it changes).
    private var onAir: TitleChange?

    /// `seconds`: how much is kept (30 s by default); `onRecorderFailure`: a recorder failed and was dropped.
    public init(seconds: Double = 30, onRecorderFailure: @escaping @Sendable (Error) -> Void) {
        self.seconds = seconds
        self.onRecorderFailure = onRecorderFailure
    }

    /// Seconds of audio held now (up to the bound).
    public var heldSeconds: Double { lock.withLock { keptSeconds } }

    /// Attaches a recorder: it gets the kept packets with the next packet that arrives.
    public func startRecording(_ recorder: Recorder) {
        lock.withLock {
            self.recorder = recorder
            recorderBegun = false
        }
    }

    /// Detaches the recorder, for the caller to finish.
    public func stopRecording() -> Recorder? {
        lock.withLock {
            defer { recorder = nil }
            return recorder
        }
    }

    public var isRecording: Bool { lock.withLock { recorder != nil } }

    public func begin(_ format: EncodedFormat) throws {
        lock.withLock {
            self.format = format
            kept = []
            keptDurations = []
            keptSeconds = 0
            if recorderBegun { feeding { try $0.begin(format) } }
        }
    }

    public func consume(_ packet: EncodedPacket) throws {
        try lock.withLock {
            kept.append(try RetainedPacket(packet))
            keptDurations.append(packet.duration)
            keptSeconds += packet.duration
            while keptDurations.count > 1, keptSeconds - keptDurations[0] >= seconds {
                keptSeconds -= keptDurations.removeFirst()
                kept.removeFirst()
            }
            guard recorder != nil else { return }
            if recorderBegun {
                feeding { try $0.consume(packet) }
            } else if let format {
                recorderBegun = true
                feeding { recorder in
                    if let onAir { try recorder.titleChanged(onAir) }
                    try recorder.begin(format)
                    for old in kept { try recorder.consume(old.encoded) }
                }
            }
        }
    }

    public func titleChanged(_ change: TitleChange) throws {
        lock.withLock {
            onAir = change
            if recorderBegun { feeding { try $0.titleChanged(change) } }
        }
    }

    public func finish() {
        let left = lock.withLock { () -> Recorder? in
            defer { recorder = nil }
            return recorder
        }
        left?.finish()
    }

    /// Runs `body` on the recorder (lock held); a failing recorder is dropped and reported, the station plays on.
    private func feeding(_ body: (Recorder) throws -> Void) {
        guard let recorder else { return }
        do {
            try body(recorder)
        } catch {
            self.recorder = nil
            recorderBegun = false
            recorder.finish()
            onRecorderFailure(error)
        }
    }
}
