import Foundation
import Media
import RadioModel
import StreamInput

/// Records only the audio whose wall-clock time falls in a window: attached to a station's running
/// pipeline, it passes nothing to its recorder until the first frame at or after the window's start,
/// and closes the recording at the first frame at or after its end — to within one audio frame when
/// the stream carries HLS program-date-time, which is how a scheduled episode is cut to the
/// programme's boundaries whenever the connection was opened.
///
/// Packet consumers are gated by each packet's time; a recorder that takes PCM (re-encoding, track
/// splitting) by each decoded buffer's (`PCMEpisodeWindow`), because the fan-out decodes only for
/// consumers that are `PCMConsumer`s.
public class EpisodeWindow: RecordingConsumer, PacketConsumer, TitleConsumer, ArrivalTimedConsumer, @unchecked Sendable {  // state, pending format and first sample inside `progress`
    public let window: DateInterval
    let recorder: RecordingConsumer
    let clock: StreamWallClock
    private let onClose: @Sendable (EpisodeWindow) -> Void
    private struct Progress {
        var state = State.waiting
        var pendingFormat: EncodedFormat?
        var firstSample: Date?
    }
    private let progress = Locked(Progress())

    enum State { case waiting, open, closed }

    /// `onClose` is called once, when the window has ended, the stream ended, or the recorder failed.
    /// `pcm` is the pipeline's PCM format, which a recorder taking PCM gets.
    public static func make(recorder: RecordingConsumer, window: DateInterval, clock: StreamWallClock, pcm: PCMFormat,
                            onClose: @escaping @Sendable (EpisodeWindow) -> Void) -> EpisodeWindow {
        guard recorder is PCMConsumer else { return EpisodeWindow(recorder: recorder, window: window, clock: clock, onClose: onClose) }
        return PCMEpisodeWindow(recorder: recorder, window: window, clock: clock, pcm: pcm, onClose: onClose)
    }

    init(recorder: RecordingConsumer, window: DateInterval, clock: StreamWallClock, onClose: @escaping @Sendable (EpisodeWindow) -> Void) {
        self.recorder = recorder; self.window = window; self.clock = clock; self.onClose = onClose
    }

    public var label: String { recorder.label }
    public var status: RecordingStatus { recorder.status }

    /// The wall-clock time of the first sample recorded; nil until the window opened.
    public var firstSampleAt: Date? { progress.withLock { $0.firstSample } }

    public func handle(_ event: StreamEvent) {
        recorder.handle(event)
    }

    public func titleChanged(_ change: TitleChange) throws {
        try (recorder as? TitleConsumer)?.titleChanged(change)
    }

    public func begin(_ format: EncodedFormat) throws {
        let forward = progress.withLock { progress -> Bool in
            if progress.state == .waiting { progress.pendingFormat = format }
            return progress.state == .open
        }
        if forward { try (recorder as? PacketConsumer)?.begin(format) }
    }

    public func consume(_ packet: EncodedPacket) throws {
        guard let packets = recorder as? PacketConsumer else { return }
        // A PCM-taking recorder's window is decided by the PCM; its packets follow it.
        let isOpen = self is PCMEpisodeWindow ? progress.withLock { $0.state == .open } : try pass(startingAt: clock.now)
        if isOpen { try packets.consume(packet) }
    }

    public func finish() { close() }

    /// Whether audio starting at `at` is recorded: opens the window at its first frame at or after
    /// the start (handing the recorder the run's format first), closes it at the end.
    func pass(startingAt at: Date) throws -> Bool {
        let (open, format) = progress.withLock { progress -> (Bool, EncodedFormat?) in
            if progress.state == .waiting, at >= window.start, at < window.end {
                progress.state = .open
                progress.firstSample = at
                defer { progress.pendingFormat = nil }
                return (true, progress.pendingFormat)
            }
            return (progress.state == .open && at < window.end, nil)
        }
        if let format { try (recorder as? PacketConsumer)?.begin(format) }
        if !open, at >= window.end { close() }
        return open
    }

    private func close() {
        let first = progress.withLock { progress -> Bool in
            defer { progress.state = .closed }
            return progress.state != .closed
        }
        guard first else { return }
        recorder.finish()
        onClose(self)
    }
}

/// The window of a recorder that takes decoded audio: each buffer's time decides.
final class PCMEpisodeWindow: EpisodeWindow, PCMConsumer, @unchecked Sendable {  // adds only immutable state to its base
    private let bytesPerSecond: Double

    init(recorder: RecordingConsumer, window: DateInterval, clock: StreamWallClock, pcm: PCMFormat,
         onClose: @escaping @Sendable (EpisodeWindow) -> Void) {
        bytesPerSecond = Double(pcm.bytesPerFrame * pcm.sampleRate)
        super.init(recorder: recorder, window: window, clock: clock, onClose: onClose)
    }

    func consume(_ pcm: UnsafeRawBufferPointer) throws {
        guard let recorder = recorder as? PCMConsumer else { return }
        // The clock has already moved past this buffer: it stood at its start `duration` ago.
        let duration = Double(pcm.count) / bytesPerSecond
        if try pass(startingAt: clock.now.addingTimeInterval(-duration)) { try recorder.consume(pcm) }
    }

}
