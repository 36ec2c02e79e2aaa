import Foundation
import Media
import RadioModel
import StreamInput

/// What a recording reports as it goes.
public enum RecordingEvent: Sendable {
    /// The partial file exists and audio is going into it.
    case started(partial: URL)
    /// The finished file is in place (and in the index).
    case finished(FinishedRecording)
    /// The recording stopped on an error; what was written is kept in the partial file.
    case failed(String, partial: URL?)
    /// A write found the disk full (the error's line): the recording goes on, leaving the audio out until
    /// there is room.
    case noRoom(String)
    /// There is room again: the audio left out, this many seconds, is a gap in the recording.
    case roomAgain(leftOut: Double)
    /// The partial file could not be finalised; `onair recover` can try again.
    case notFinalised(String, journal: URL)
}

extension RecordingEvent {
    /// What `noRoom` says, wherever it is shown: the write's error, then what the recording does about it.
    public static func noRoomLine(_ message: String) -> String {
        "\(message); the audio is left out until there is room"
    }

    /// What `roomAgain` says, wherever it is shown.
    public static func roomAgainLine(leftOut: Double) -> String {
        String(format: "recording again: %.1f s left out while the disk was full, marked as a gap", leftOut)
    }
}

/// Where a recording stands, for a status line.
public struct RecordingStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        case waiting, recording, failed, finished
    }

    public var state: State
    public var partial: URL?
    /// Seconds of audio recorded.
    public var mediaTime: Double
    public var bytes: Int64
    public var title: String?
    public var gaps: Int
}

/// Anything that records a stream: one file (`Recorder`) or one per title (`TrackSplitter`).
/// The stream's events that concern a recording (the server's name and URL, and gaps) come through
/// the fan-out it is attached to: gaps on the decode thread, in order with the audio.
public protocol RecordingConsumer: EventConsumer {
    var status: RecordingStatus { get }
}

/// Records one station into one file (per codec run): attached to a `LivePipeline`'s fan-out, it writes
/// the partial file and journal, and hands them to the `Finaliser` when the stream ends or it is detached.
///
/// This base class takes titles, gaps and the connection; `CopyRecorder` adds packets, `EncodingRecorder`
/// PCM. They are separate classes because the fan-out decodes only when some consumer takes PCM, and a
/// stream copy must not make it decode.
public class Recorder: RecordingConsumer, TitleConsumer, @unchecked Sendable {  // track, title, gaps and state inside `lock`
    public let label: String
    let plan: RecordingPlan
    private let finaliser: Finaliser
    private let onEvent: @Sendable (RecordingEvent) -> Void
    let lock = NSLock()
    // Guarded by `lock`.
    private var track: RecordingTrack?
    private var title: String?
    private var titleDetails: TitleDetails?
    private let connections = ConnectionInbox()
    private var gaps = 0
    private var state = RecordingStatus.State.waiting
    /// When a track could not be made for want of room, and when to try again.
    private var noRoom: (since: Date, retryAt: Date)?
    static let noRoomRetryInterval: TimeInterval = 1

    init(label: String, plan: RecordingPlan, finaliser: Finaliser, onEvent: @escaping @Sendable (RecordingEvent) -> Void) {
        self.label = label; self.plan = plan; self.finaliser = finaliser; self.onEvent = onEvent
    }

    public var status: RecordingStatus {
        lock.withLock {
            RecordingStatus(state: state, partial: track?.partial.url, mediaTime: track?.mediaTime ?? 0, bytes: track?.bytes ?? 0,
                            title: title, gaps: gaps)
        }
    }

    public func handle(_ event: StreamEvent) {
        switch event {
        case .connected(let info): connections.post(info)
        case .gap(let gap):
            // On the decode thread, in order with the audio.
            lock.withLock {
                gaps += 1
                try? track?.noteGap(seconds: gap.seconds)
            }
        case .clipMatched(let sighting):
            // On the decode thread, as the audio it was heard in reaches the file.
            lock.withLock { try? track?.noteClip(sighting) }
        default: break
        }
    }

    public func titleChanged(_ change: TitleChange) throws {
        try lock.withLock {
            guard change.title != title, state != .failed, state != .finished else { return }
            title = change.title
            titleDetails = change.details
            try writing { try track?.noteTitle(change.title, details: change.details) }
        }
    }

    public func finish() {
        lock.withLock { close(failure: nil) }
    }

    // MARK: For subclasses, inside `lock`

    private func notePreRoll(on track: RecordingTrack) throws {
        guard let seconds = plan.preRollSeconds else { return }
        try track.notePreRoll(seconds: seconds, resuming: title ?? plan.station.name)
    }

    /// The track to write to, opened on first use.
    func currentTrack(containers: RecordingContainers,
                      makeWriter: (ContainerOutput) throws -> RecordingTrack.Writer) throws -> RecordingTrack? {
        guard state == .waiting || state == .recording else { return nil }
        if let track {
            if let connection = connections.take() {
                try track.noteConnection(connection)
                try notePreRoll(on: track)
            }
            return track
        }
        let now = Date()
        if let noRoom, now < noRoom.retryAt { return nil }
        let fresh = connections.take() != nil
        let opened: RecordingTrack
        do {
            opened = try RecordingTrack(plan: plan, containers: containers, title: title, titleDetails: titleDetails, track: nil,
                                        startedAt: plan.now, connection: connections.current, onRoom: { [weak self] in self?.noteRoom($0) },
                                        makeWriter: makeWriter)
        } catch {
            guard error.isNoRoom else { throw error }
            // No room to begin the file: the audio is left out, as in a file that found the disk full.
            if noRoom == nil { onEvent(.noRoom(error.description)) }
            noRoom = (since: noRoom?.since ?? now, retryAt: now + Self.noRoomRetryInterval)
            state = .recording
            return nil
        }
        // A recording that begins with its connection begins with the station's pre-roll.
        if fresh { try notePreRoll(on: opened) }
        track = opened
        state = .recording
        onEvent(.started(partial: opened.partial.url))
        if let since = noRoom?.since {
            noRoom = nil
            let leftOut = now.timeIntervalSince(since)
            try opened.noteGap(seconds: leftOut)
            noteRoom(.again(leftOut: leftOut))
        }
        return opened
    }

    private func noteRoom(_ change: RecordingTrack.RoomChange) {
        if case .again = change { gaps += 1 }
        onEvent(change.event)
    }

    /// Runs a write; a failure (other than a full disk, which the track rides out) ends the recording,
    /// keeping what was written, and is rethrown so the
    /// fan-out detaches this consumer and reports it.
    func writing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let failure = error as? RecordingError ?? RecordingError("\(error)")
            close(failure: failure)
            throw failure
        }
    }

    /// Ends the current file (a codec change starts the next one, which gets its own name).
    func closeTrackForNewCodec() {
        close(failure: nil)
        state = .waiting
    }

    /// Closes the current file and hands it to the finaliser. A failure, given or met while closing,
    /// ends the recording and is reported.
    private func close(failure: RecordingError?) {
        var outcome = failure
        var partial: URL?
        if let track {
            self.track = nil
            partial = track.partial.url
            outcome = track.close(failure: failure)
            finaliser.enqueue(track.journal.url, reportingTo: onEvent)
        }
        if let outcome { onEvent(.failed(outcome.description, partial: partial)) }
        state = outcome == nil ? .finished : .failed
    }
}

/// Records the packets as they came: no decoding, no re-encoding.
public final class CopyRecorder: Recorder, PacketConsumer, @unchecked Sendable {  // `format` inside the base class's `lock`
    public init(plan: RecordingPlan, finaliser: Finaliser, onEvent: @escaping @Sendable (RecordingEvent) -> Void) {
        super.init(label: "record:\(plan.station.id)", plan: plan, finaliser: finaliser, onEvent: onEvent)
    }

    private var format: EncodedFormat?

    public func begin(_ format: EncodedFormat) throws {
        try lock.withLock {
            if let current = self.format, current.codecName != format.codecName || current.sampleRate != format.sampleRate
                || current.channels != format.channels {
                closeTrackForNewCodec()
            }
            self.format = format
            try writing { try track(for: format)?.begin(format) }
        }
    }

    public func consume(_ packet: EncodedPacket) throws {
        try lock.withLock {
            guard let format else { return }
            try writing { try track(for: format)?.write(packet) }
        }
    }

    private func track(for format: EncodedFormat) throws -> RecordingTrack? {
        let containers = RecordingContainers(copying: format)
        return try currentTrack(containers: containers) { output in
            .copy(StreamCopyWriter(label: label, container: containers.partial, output: output))
        }
    }
}

/// Records the decoded audio re-encoded (`--format mp3|m4a|opus|flac`).
public final class EncodingRecorder: Recorder, PCMConsumer, @unchecked Sendable {  // adds only immutable state; writes inside the base class's `lock`
    private let input: PCMFormat
    private let encoding: AudioEncoding

    public init(plan: RecordingPlan, input: PCMFormat, finaliser: Finaliser, onEvent: @escaping @Sendable (RecordingEvent) -> Void) {
        precondition(plan.format.encoding != nil, "an encoding recorder needs a format to encode to")
        self.input = input
        encoding = plan.format.encoding!
        super.init(label: "record:\(plan.station.id)", plan: plan, finaliser: finaliser, onEvent: onEvent)
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try lock.withLock {
            try writing {
                let containers = RecordingContainers(encoding: encoding)
                let track = try currentTrack(containers: containers) { output in
                    .encode(try PCMEncoder(label: label, input: input, encoding: encoding, container: containers.partial, output: output),
                            input: input)
                }
                try track?.write(pcm)
            }
        }
    }
}
