import Foundation
import Media
import RadioModel
import StreamInput

/// One file being recorded: its partial file, its journal, and the muxer or encoder between them.
///
/// Its clock is its own: seconds of audio written to this file (packet durations in a copy, PCM frames
/// when encoding), so titles and gaps are placed in the file whenever it was attached to the stream.
///
/// A full disk does not end it: the audio that finds no room is left out, the file stays whole, and once
/// there is room again the file goes on and its journal marks the audio left out as a gap.
/// Not thread-safe: its owner serialises calls.
final class RecordingTrack {
    /// What writes the track's container.
    enum Writer {
        case copy(StreamCopyWriter)
        case encode(PCMEncoder, input: PCMFormat)
    }

    /// How often written packets go to disk (so the partial file plays as it grows), and how often
    /// they are made durable (fsync) and the journal notes how far the file is safe.
    static let writeOutInterval: TimeInterval = 1
    static let syncInterval: TimeInterval = 5
    static let maxPendingBytes = 64 * 1024

    let partial: PartialFile
    let journal: Journal
    private let writer: Writer
    /// Seconds of audio in the file (written out or still to be).
    private(set) var mediaTime: Double = 0
    /// Seconds of audio committed but not yet written out.
    private var pendingSeconds = 0.0
    /// Since the disk was found full: where the file's audio stops, and the seconds left out since.
    private var leftOut: (at: Double, seconds: Double)?
    /// Told when the disk is found full (the write's error) and when there is room again (the seconds left out).
    private let onRoom: (RoomChange) -> Void
    private var lastWriteOut = Date()
    private var lastSync = Date()
    /// Where the latest pre-roll ends, in seconds of the file.
    private var preRollEnd = 0.0
    private var closed = false

    /// Creates the partial file and its journal in the directory the finished file will go to, under
    /// names starting with a dot: `.NAME.partial.EXT` and `.NAME.partial.journal`.
    init(plan: RecordingPlan, containers: RecordingContainers, title: String?, titleDetails: TitleDetails? = nil, track: TrackMark?, startedAt: Date,
         connection: ConnectionInfo?, onRoom: @escaping (RoomChange) -> Void = { _ in },
         makeWriter: (ContainerOutput) throws -> Writer) throws(RecordingError) {
        self.onRoom = onRoom
        let station = plan.station.displayName(serverName: connection?.name)
        let values = FileNameTemplate.Values(station: station, programme: plan.programme?.name, title: title,
                                             start: startedAt, timeZone: plan.timeZone, fileExtension: containers.fileExtension)
        let desired = plan.template.path(for: values, base: plan.base)
        let directory = desired.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw RecordingError("cannot create \(directory.path): \(error.localizedDescription)",
                                 isNoRoom: (error as? CocoaError)?.code == .fileWriteOutOfSpace)
        }
        (partial, journal) = try Self.createFiles(like: desired, partialExtension: containers.partial.fileExtension)
        let start = RecordingStart(
            version: RecordingStart.currentVersion, station: plan.station, programme: plan.programme, source: plan.source,
            startedAt: startedAt, timeZone: plan.timeZone.identifier, template: plan.template.text, base: plan.base.path,
            partialFile: partial.url.lastPathComponent, container: containers.final.rawValue,
            fileExtension: containers.fileExtension, format: plan.format.rawValue, track: track, episode: plan.episode)
        let file = partial
        let output = ContainerOutput.stream { bytes in file.append(bytes) }
        do {
            try journal.append(.start(start))
            if let connection { try journal.append(.connected(name: connection.name, url: connection.url, at: Date())) }
            if let title { try journal.append(.title(title, mediaTime: 0, at: Date(), details: titleDetails)) }
            try journal.sync()
            writer = try makeWriter(output)
            // An encoder writes its container's header as it is made.
            partial.commitHeader()
        } catch {
            partial.close()
            journal.close()
            try? FileManager.default.removeItem(at: partial.url)
            try? FileManager.default.removeItem(at: journal.url)
            throw error as? RecordingError ?? RecordingError("cannot start \(partial.url.path): \(error)")
        }
    }

    /// Bytes in the file, written out or not.
    var bytes: Int64 { partial.bytesOnDisk + Int64(partial.bytesPending) }

    /// A new run of the stream (after a reconnect): the copy continues with continuous timestamps.
    func begin(_ format: EncodedFormat) throws {
        guard case .copy(let copy) = writer else { return }
        try copy.begin(format)
        partial.commitHeader()
    }

    func write(_ packet: EncodedPacket) throws {
        guard case .copy(let copy) = writer else { return }
        try copy.consume(packet)
        partial.commitPacket()
        mediaTime += packet.duration
        pendingSeconds += packet.duration
        try writeOutIfDue()
    }

    func write(_ pcm: UnsafeRawBufferPointer) throws {
        guard case .encode(let encoder, let input) = writer else { return }
        try encoder.consume(pcm)
        partial.commitPacket()
        let seconds = Double(pcm.count / input.bytesPerFrame) / Double(input.sampleRate)
        mediaTime += seconds
        pendingSeconds += seconds
        try writeOutIfDue()
    }

    /// The pre-roll of a fresh connection: a `[pre-roll]` title from now for `seconds`, then `resuming`
    /// (the title on air) again.
    func notePreRoll(seconds: Double, resuming title: String) throws(RecordingError) {
        try journal.append(.title(Self.preRollTitle, mediaTime: mediaTime, at: Date(), details: TitleDetails(kind: .preRoll)))
        preRollEnd = mediaTime + seconds
        try journal.append(.title(title, mediaTime: preRollEnd, at: Date()))
    }

    static let preRollTitle = "[pre-roll]"

    /// A title that arrives during a pre-roll (servers send theirs with the connection) takes effect after it.
    func noteTitle(_ title: String, details: TitleDetails?) throws(RecordingError) {
        try journal.append(.title(title, mediaTime: max(mediaTime, preRollEnd), at: Date(), details: details))
    }

    func noteGap(seconds: Double) throws(RecordingError) {
        try journal.append(.gap(seconds: seconds, mediaTime: mediaTime, at: Date()))
    }

    /// A clip, told once it ended: its aired part began `toldAfter` seconds of audio before what is written now.
    func noteClip(_ sighting: ClipSighting) throws(RecordingError) {
        let clip = TimedClip(clip: sighting.clip, kind: sighting.kind, at: max(0, mediaTime - sighting.toldAfter),
                             seconds: sighting.end.timeIntervalSince(sighting.start), partial: sighting.partial)
        try journal.append(.clip(clip, at: Date()))
    }

    func noteCompleteness(_ mark: TrackMark) throws(RecordingError) {
        try journal.append(.track(mark))
    }

    func noteConnection(_ info: ConnectionInfo) throws(RecordingError) {
        try journal.append(.connected(name: info.name, url: info.url, at: Date()))
    }

    /// Completes the container, writes everything out and notes the end (or the failure) in the
    /// journal. The files stay for the finaliser; the journal's lock is released. Returns the failure,
    /// given or met on the way (the last write-out may find the disk full).
    func close(failure: RecordingError?) -> RecordingError? {
        guard !closed else { return failure }
        closed = true
        var problem = failure
        if problem == nil {
            switch writer {
            case .copy(let copy): copy.finish()
            case .encode(let encoder, _):
                do { try encoder.close() } catch { problem = RecordingError("cannot complete \(partial.url.path): \(error)") }
            }
            partial.commitPacket()
            do {
                if try writeOut() { try partial.sync() }
            } catch {
                problem = error
            }
            // Still no room at the end: the audio left out is a gap at the file's end.
            if problem == nil, let leftOut { try? journal.append(.gap(seconds: leftOut.seconds, mediaTime: leftOut.at, at: Date())) }
        }
        let at = Date()
        try? journal.append(problem.map { .failed($0.description, at: at) } ?? .end(bytes: partial.bytesOnDisk, mediaTime: mediaTime, at: at))
        try? journal.sync()
        partial.close()
        journal.close()
        return problem
    }

    private func writeOutIfDue() throws(RecordingError) {
        let now = Date()
        guard now.timeIntervalSince(lastWriteOut) >= Self.writeOutInterval || partial.bytesPending >= Self.maxPendingBytes else { return }
        lastWriteOut = now
        guard try writeOut(), now.timeIntervalSince(lastSync) >= Self.syncInterval else { return }
        lastSync = now
        try partial.sync()
        try journal.append(.flush(bytes: partial.bytesOnDisk, mediaTime: mediaTime, at: now))
        try journal.sync()
    }

    /// What a track tells its owner about room on the disk.
    enum RoomChange {
        /// A write found the disk full: audio is left out from here until there is room.
        case full(RecordingError)
        /// Written again, after leaving out this many seconds (marked in the journal as a gap).
        case again(leftOut: Double)

        var event: RecordingEvent {
            switch self {
            case .full(let error): .noRoom(error.description)
            case .again(let leftOut): .roomAgain(leftOut: leftOut)
            }
        }
    }

    /// Writes out the committed audio. When the disk has no room, the audio is left out instead (the file
    /// keeps every whole packet it has) and this returns false; other failures are thrown.
    private func writeOut() throws(RecordingError) -> Bool {
        // The muxer's held-back audio goes too, so what is written, or left out, is the audio taken so far.
        do {
            switch writer {
            case .copy(let copy): try copy.flush()
            case .encode(let encoder, _): try encoder.flushContainer()
            }
        } catch {
            throw RecordingError("cannot write \(partial.url.path): \(error)")
        }
        partial.commitPacket()
        do {
            try partial.writeOut()
        } catch where error.isNoRoom {
            partial.dropCommitted()
            mediaTime -= pendingSeconds
            if leftOut == nil {
                leftOut = (at: mediaTime, seconds: 0)
                onRoom(.full(error))
            }
            leftOut?.seconds += pendingSeconds
            pendingSeconds = 0
            return false
        }
        pendingSeconds = 0
        guard let stretch = leftOut else { return true }
        leftOut = nil
        try journal.append(.gap(seconds: stretch.seconds, mediaTime: stretch.at, at: Date()))
        onRoom(.again(leftOut: stretch.seconds))
        return true
    }

    /// The partial file and journal for `desired`, with " (2)" etc. should a namesake be recording too
    /// (several stations starting in the same minute race for the same names) or left over from a crash.
    private static func createFiles(like desired: URL, partialExtension: String) throws(RecordingError) -> (PartialFile, Journal) {
        let directory = desired.deletingLastPathComponent()
        let files = try UniquePath.firstFree(desired, purpose: "partial") { candidate throws(RecordingError) -> (PartialFile, Journal)? in
            let stem = candidate.deletingPathExtension().lastPathComponent
            let journalURL = directory.appendingPathComponent(".\(stem)\(Journal.suffix)")
            let partialURL = directory.appendingPathComponent(".\(stem).partial.\(partialExtension)")
            let journal: Journal
            do throws(RecordingError) {
                journal = try Journal(url: journalURL, create: true)
            } catch {
                if FileManager.default.fileExists(atPath: journalURL.path) { return nil }
                throw error
            }
            do throws(RecordingError) {
                return (try PartialFile(url: partialURL), journal)
            } catch {
                journal.close()
                try? FileManager.default.removeItem(at: journalURL)
                if FileManager.default.fileExists(atPath: partialURL.path) { return nil }
                throw error
            }
        }
        if let files { return files }
        throw RecordingError("cannot find a free name for a partial file like \(desired.path)")
    }
}
