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
    /// The kept audio, with the titles that changed within it at their places.
    private var kept: [Kept] = []
    private var keptPackets = 0
    private var keptSeconds = 0.0
    /// The title on air at the oldest kept packet: a recorder starts with it (a station sends its
    /// title once, when it changes).
    private var titleBeforeKept: TitleChange?
    private var recorder: Recorder?
    private var recorderBegun = false

    private enum Kept {
        case packet(RetainedPacket, duration: Double)
        case title(TitleChange)
    }

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
            // A new run: what was kept stays out of a recording begun now, the title on air stays on.
            titleBeforeKept = lastTitle
            kept = []
            keptPackets = 0
            keptSeconds = 0
            if recorderBegun { feeding { try $0.begin(format) } }
        }
    }

    public func consume(_ packet: EncodedPacket) throws {
        try lock.withLock {
            kept.append(.packet(try RetainedPacket(packet), duration: packet.duration))
            keptPackets += 1
            keptSeconds += packet.duration
            dropBeyondTheBound()
            guard recorder != nil else { return }
            if recorderBegun {
                feeding { try $0.consume(packet) }
            } else if let format {
                recorderBegun = true
                feeding { recorder in
                    if let titleBeforeKept { try recorder.titleChanged(titleBeforeKept) }
                    try recorder.begin(format)
                    for entry in kept {
                        switch entry {
                        case .packet(let old, _): try recorder.consume(old.encoded)
                        case .title(let change): try recorder.titleChanged(change)
                        }
                    }
                }
            }
        }
    }

    public func titleChanged(_ change: TitleChange) throws {
        lock.withLock {
            // Kept audio starts with a packet: a title before any (a reconnect's, resent) is the one on air.
            if keptPackets == 0 { titleBeforeKept = change } else { kept.append(.title(change)) }
            if recorderBegun { feeding { try $0.titleChanged(change) } }
        }
    }

    /// The newest title kept or, before it, the one on air at the oldest kept packet.
    private var lastTitle: TitleChange? {
        for entry in kept.reversed() { if case .title(let change) = entry { return change } }
        return titleBeforeKept
    }

    /// Drops the oldest packets while the rest still cover `seconds` (at least one packet stays); a
    /// title that falls off with them becomes the one on air at the start.
    private func dropBeyondTheBound() {
        while let oldest = kept.first {
            switch oldest {
            case .title(let change):
                titleBeforeKept = change
            case .packet(_, let duration):
                guard keptPackets > 1, keptSeconds - duration >= seconds else { return }
                keptPackets -= 1
                keptSeconds -= duration
            }
            kept.removeFirst()
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
