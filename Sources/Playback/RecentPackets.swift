import Foundation
import Media
import RadioModel
import StreamInput

/// Keeps the last seconds of a live station's compressed packets, so that a recording started from
/// the player (`r`) begins with what was heard just before the key was pressed. While a recorder is
/// attached it gets those first, then every packet and title as they come; all on the decode thread,
/// so nothing is missed or doubled between the kept packets and the live ones.
public final class RecentPackets: PacketConsumer, TitleConsumer, @unchecked Sendable {  // kept packets and the recorder in `state`
    public typealias Recorder = PacketConsumer & TitleConsumer

    public let label = "recent-audio"
    private let seconds: Double
    private let onRecorderFailure: @Sendable (Error) -> Void
    private struct State {
        var format: EncodedFormat?
        /// The kept audio, with the titles that changed within it at their places.
        var kept: [Kept] = []
        var keptPackets = 0
        var keptSeconds = 0.0
        /// The title on air at the oldest kept packet: a recorder starts with it (a station sends its
        /// title once, when it changes).
        var titleBeforeKept: TitleChange?
        var recorder: Recorder?
        var recorderBegun = false

        /// The newest title kept or, before it, the one on air at the oldest kept packet.
        var lastTitle: TitleChange? {
            for entry in kept.reversed() { if case .title(let change) = entry { return change } }
            return titleBeforeKept
        }

        /// Drops the oldest packets while the rest still cover `seconds` (at least one packet stays); a
        /// title that falls off with them becomes the one on air at the start.
        mutating func dropBeyondTheBound(seconds: Double) {
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
    }
    private let state = Locked(State())

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
    public var heldSeconds: Double { state.withLock { $0.keptSeconds } }

    /// Attaches a recorder: it gets the kept packets with the next packet that arrives.
    public func startRecording(_ recorder: Recorder) {
        state.withLock { state in
            state.recorder = recorder
            state.recorderBegun = false
        }
    }

    /// Detaches the recorder, for the caller to finish.
    public func stopRecording() -> Recorder? {
        state.withLock { state in
            defer { state.recorder = nil }
            return state.recorder
        }
    }

    public var isRecording: Bool { state.withLock { $0.recorder != nil } }

    public func begin(_ format: EncodedFormat) throws {
        state.withLock { state in
            state.format = format
            // A new run: what was kept stays out of a recording begun now, the title on air stays on.
            state.titleBeforeKept = state.lastTitle
            state.kept = []
            state.keptPackets = 0
            state.keptSeconds = 0
            if state.recorderBegun { feeding(&state) { try $0.begin(format) } }
        }
    }

    public func consume(_ packet: EncodedPacket) throws {
        try state.withLock { state in
            state.kept.append(.packet(try RetainedPacket(packet), duration: packet.duration))
            state.keptPackets += 1
            state.keptSeconds += packet.duration
            state.dropBeyondTheBound(seconds: seconds)
            guard state.recorder != nil else { return }
            if state.recorderBegun {
                feeding(&state) { try $0.consume(packet) }
            } else if let format = state.format {
                state.recorderBegun = true
                // Taken out first: `feeding` has `state` to itself while the body runs.
                let (titleBeforeKept, kept) = (state.titleBeforeKept, state.kept)
                feeding(&state) { recorder in
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
        state.withLock { state in
            // Kept audio starts with a packet: a title before any (a reconnect's, resent) is the one on air.
            if state.keptPackets == 0 { state.titleBeforeKept = change } else { state.kept.append(.title(change)) }
            if state.recorderBegun { feeding(&state) { try $0.titleChanged(change) } }
        }
    }

    public func finish() {
        let left = state.withLock { (state) -> Recorder? in
            defer { state.recorder = nil }
            return state.recorder
        }
        left?.finish()
    }

    /// Runs `body` on the recorder (lock held); a failing recorder is dropped and reported, the station plays on.
    private func feeding(_ state: inout State, _ body: (Recorder) throws -> Void) {
        guard let recorder = state.recorder else { return }
        do {
            try body(recorder)
        } catch {
            state.recorder = nil
            state.recorderBegun = false
            recorder.finish()
            onRecorderFailure(error)
        }
    }
}
