import Foundation
import Media
import RadioModel
import StreamInput

/// How `--split-tracks` cuts.
public struct SplitOptions: Sendable {
    /// Seconds searched on each side of a title change for the quietest stretch: stations send titles
    /// a few seconds early or late.
    public var window: Double
    /// Audio before the cut repeated at the start of the next track.
    public var padBefore: Double
    /// Audio after the cut kept at the end of the previous track.
    public var padAfter: Double
    /// Titles matching this regular expression (ads, jingles) are not written.
    public var skip: String?
    /// Seconds the audio is held back for a known clip's beginning (`onair clips`), which is heard 6 to 8 s into it (Chromaprint's
    /// items come some 5 s after their audio, and the first 3 s of the clip must agree), a learned song's 3 s before that.
    public var clipLag: Double

    public init(window: Double = 4, padBefore: Double = 0, padAfter: Double = 0, skip: String? = nil, clipLag: Double = 15) {
        self.window = window; self.padBefore = padBefore; self.padAfter = padAfter; self.skip = skip; self.clipLag = clipLag
    }
}

/// Records one file per title, as streamripper does but cutting where the audio is quietest rather
/// than where the title happened to arrive.
///
/// The audio goes through a delay line as long as the search window: when a title changes, the cut is
/// placed once the decoded audio on both sides of the change has been measured, then what precedes it
/// goes to the finishing track and what follows to the next. The first and last tracks, cut off by the
/// recording's start and end, are marked as such in their tags and names.
///
/// A station that names no tracks (it sends no title, or one that never changes) is cut where known clips begin and
/// end (`clipBegan` and `clipMatched` events, from a `ClipWatch` on the same station): at the very point the
/// fingerprints place, the track named after the clip. Once the station changes its title, its titles are the marks.
///
/// It takes PCM (which makes the pipeline decode) to measure loudness; in a copy, `CopyTrackSplitter`
/// also takes the packets it writes, while re-encoding writes the PCM itself.
public class TrackSplitter: RecordingConsumer, PCMConsumer, TitleConsumer, @unchecked Sendable {  // tracks, titles and the audio held back inside `lock`
    public let label: String
    private let plan: RecordingPlan
    private let options: SplitOptions
    private let skip: NSRegularExpression?
    private let input: PCMFormat
    private let finaliser: Finaliser
    private let onEvent: @Sendable (RecordingEvent) -> Void
    let lock = NSLock()

    /// Audio held back until it is known which track it belongs to.
    struct Chunk {
        enum Content {
            case packet(RetainedPacket)
            case pcm([UInt8])
        }
        let start: Double
        let content: Content
    }

    // Guarded by `lock`.
    var chunks: [Chunk] = []
    /// Seconds of audio taken in (packets in a copy, PCM when re-encoding).
    var clock = 0.0
    private var levels: QuietStretchFinder
    /// Cuts not placed yet, in the order of their times.
    private var pendingCuts: [Cut] = []
    /// Gaps not yet written: they belong before the audio that followed them, still in the delay line.
    private var pendingGaps: [(time: Double, seconds: Double)] = []
    private var track: RecordingTrack?
    private var trackTitle: String?
    private var trackTitleDetails: TitleDetails?
    private var lastTitle: String?
    private var lastTitleDetails: TitleDetails?
    /// The station changed its title during the recording: its titles are the marks, not the clips heard.
    private var stationNamesTracks = false
    /// The clip whose beginning was cut at last, until its end is.
    private var clipOn: String?
    private var trackIsFirst = true
    /// Audio was written (or skipped) already: a cut before any of it is not one.
    private var wroteAudio = false
    private var gaps = 0
    private let connections = ConnectionInbox()
    var finished = false
    private var failed = false

    private struct Cut {
        enum Mark: Equatable {
            case title
            case clipBegins(String)
            case clipEnds(String)
        }

        let time: Double
        /// The next track's; nil for no title.
        let title: String?
        let details: TitleDetails?
        let mark: Mark
    }

    /// A clip's end and the next one's beginning this close are one cut: back to back.
    private static let backToBack = 2.0

    init(plan: RecordingPlan, input: PCMFormat, options: SplitOptions, finaliser: Finaliser,
         onEvent: @escaping @Sendable (RecordingEvent) -> Void) throws(RecordingError) {
        label = "record:\(plan.station.id)"
        self.plan = plan; self.input = input; self.options = options; self.finaliser = finaliser; self.onEvent = onEvent
        levels = QuietStretchFinder(format: input)
        do {
            skip = try options.skip.map { try NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }
        } catch {
            throw RecordingError("invalid --skip pattern '\(options.skip ?? "")': \(error.localizedDescription)")
        }
    }

    /// A splitter for the plan's format: packets copied, or PCM re-encoded.
    public static func make(plan: RecordingPlan, input: PCMFormat, options: SplitOptions, finaliser: Finaliser,
                            onEvent: @escaping @Sendable (RecordingEvent) -> Void) throws(RecordingError) -> TrackSplitter {
        plan.format == .copy
            ? try CopyTrackSplitter(plan: plan, input: input, options: options, finaliser: finaliser, onEvent: onEvent)
            : try TrackSplitter(plan: plan, input: input, options: options, finaliser: finaliser, onEvent: onEvent)
    }

    public var status: RecordingStatus {
        lock.withLock {
            RecordingStatus(state: failed ? .failed : finished ? .finished : track == nil ? .waiting : .recording,
                            partial: track?.partial.url, mediaTime: clock, bytes: track?.bytes ?? 0, title: lastTitle, gaps: gaps)
        }
    }

    public func handle(_ event: StreamEvent) {
        switch event {
        case .connected(let info): connections.post(info)
        case .gap(let gap):
            // On the decode thread, in order with the audio: it goes into the file with the audio after it.
            lock.withLock {
                gaps += 1
                pendingGaps.append((clock, gap.seconds))
            }
        case .clipBegan(let onset):
            lock.withLock {
                let start = clock - onset.toldAfter
                placeClipCut(Cut(time: start, title: onset.trackTitle, details: nil, mark: .clipBegins(onset.clip)))
                // Where it ends if it airs to its end: the airing, once told, moves it; told never, it stands.
                if clipOn == onset.clip { insert(Cut(time: start + onset.seconds, title: lastTitle, details: lastTitleDetails, mark: .clipEnds(onset.clip))) }
            }
        case .clipMatched(let sighting):
            lock.withLock {
                let end = clock - sighting.toldAfter + sighting.end.timeIntervalSince(sighting.start)
                placeClipCut(Cut(time: end, title: lastTitle, details: lastTitleDetails, mark: .clipEnds(sighting.clip)))
            }
        default: break
        }
    }

    public func titleChanged(_ change: TitleChange) throws {
        lock.withLock {
            guard change.title != lastTitle, !finished else { return }
            lastTitle = change.title
            lastTitleDetails = change.details
            // The first title names what was on air when the recording began, unless it came late.
            if trackIsFirst, track == nil, pendingCuts.isEmpty, clock < options.window {
                trackTitle = change.title
                trackTitleDetails = change.details
            } else {
                stationNamesTracks = true
                insert(Cut(time: clock, title: change.title, details: change.details, mark: .title))
            }
        }
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        try lock.withLock {
            guard !finished else { return }
            levels.add(pcm)
            if plan.format != .copy {
                chunks.append(Chunk(start: clock, content: .pcm(Array(pcm))))
                clock += Double(pcm.count / input.bytesPerFrame) / Double(input.sampleRate)
            }
            try writing { try advance(force: false) }
        }
    }

    public func finish() {
        lock.withLock {
            guard !finished else { return }
            try? writing {
                try advance(force: true)
                for chunk in chunks { try write(chunk) }
                chunks.removeAll()
                try closeTrack(last: true)
            }
            finished = true
        }
    }

    // MARK: Inside `lock`

    /// A clip's beginning or end, kept in time order with the other cuts while the station names no tracks itself. A
    /// beginning ends the clip before it there at the latest (back to back, or that one cut short); an end is cut only
    /// while its clip is the track (no other began since), and replaces the end expected when it began.
    private func placeClipCut(_ cut: Cut) {
        guard !finished, !stationNamesTracks else { return }
        switch cut.mark {
        case .clipBegins(let clip):
            pendingCuts.removeAll { if case .clipEnds = $0.mark { $0.time > cut.time - Self.backToBack } else { false } }
            clipOn = clip
        case .clipEnds(let clip):
            guard clipOn == clip else { return }
            pendingCuts.removeAll { $0.mark == .clipEnds(clip) }
        case .title:
            break
        }
        insert(cut)
    }

    private func insert(_ cut: Cut) {
        pendingCuts.insert(cut, at: pendingCuts.firstIndex { $0.time > cut.time } ?? pendingCuts.count)
    }

    /// Places every cut whose window has been measured (all of them when the stream ends), then writes
    /// what no later cut can claim. A title's cut goes to the quietest point near it; a clip's, where its
    /// fingerprints place it, once a back-to-back clip's beginning can no longer replace it.
    func advance(force: Bool) throws {
        while let cut = pendingCuts.first, force || levels.measured >= cut.time + (cut.mark == .title ? options.window : options.clipLag) {
            pendingCuts.removeFirst()
            // Past the audio taken in: a clip's end still to come when the recording stops.
            guard cut.time < clock else { continue }
            let earliest = max(0, chunks.first?.start ?? 0, cut.time - options.window)
            let point = cut.mark == .title
                ? levels.quietestPoint(in: earliest...max(earliest, cut.time + options.window), preferred: cut.time)
                : max(chunks.first?.start ?? 0, cut.time)
            try cutTrack(at: point, nextTitle: cut.title, details: cut.details)
        }
        // A title not yet received, or a clip's beginning not yet heard, may still move a cut this far back.
        let settled = (pendingCuts.first?.time ?? clock) - max(options.window, options.clipLag) - options.padBefore
        while let chunk = chunks.first, chunk.start < settled {
            try write(chunk)
            chunks.removeFirst()
        }
        levels.discard(before: settled - options.window)
    }

    /// Ends the current track at `point` (plus the padding after it) and starts the next one there
    /// (less the padding before it).
    private func cutTrack(at point: Double, nextTitle: String?, details: TitleDetails?) throws {
        // Before anything was written (a clip on air when the recording began): the first track is named, not cut.
        if !wroteAudio, point <= (chunks.first?.start ?? 0) {
            (trackTitle, trackTitleDetails) = (nextTitle, details)
            return
        }
        for chunk in chunks where chunk.start < point + options.padAfter { try write(chunk) }
        try closeTrack(last: false)
        chunks.removeAll { $0.start < point - options.padBefore }
        trackTitle = nextTitle
        trackTitleDetails = details
        trackIsFirst = false
    }

    private func write(_ chunk: Chunk) throws {
        wroteAudio = true
        let gaps = pendingGaps.prefix { $0.time <= chunk.start }
        pendingGaps.removeFirst(gaps.count)
        if let title = trackTitle, let skip, skip.firstMatch(in: title, range: NSRange(title.startIndex..., in: title)) != nil {
            return
        }
        let track = try currentTrack(startingAt: chunk.start)
        for gap in gaps { try track.noteGap(seconds: gap.seconds) }
        switch chunk.content {
        case .packet(let packet): try track.write(packet.encoded)
        case .pcm(let bytes): try bytes.withUnsafeBytes { try track.write($0) }
        }
    }

    private func currentTrack(startingAt start: Double) throws -> RecordingTrack {
        if let track {
            if let connection = connections.take() { try track.noteConnection(connection) }
            return track
        }
        _ = connections.take()
        let containers: RecordingContainers
        let makeWriter: (ContainerOutput) throws -> RecordingTrack.Writer
        if let encoding = plan.format.encoding {
            containers = RecordingContainers(encoding: encoding)
            let partial = containers.partial
            makeWriter = { [input, label] output in
                .encode(try PCMEncoder(label: label, input: input, encoding: encoding, container: partial, output: output), input: input)
            }
        } else {
            guard let format = copyFormat else { throw RecordingError("no audio format yet") }
            containers = RecordingContainers(copying: format)
            let partial = containers.partial
            makeWriter = { [label] output in .copy(StreamCopyWriter(label: label, container: partial, output: output)) }
        }
        let opened = try RecordingTrack(plan: plan, containers: containers, title: trackTitle, titleDetails: trackTitleDetails,
                                        track: TrackMark(trackIsFirst ? .cutAtStart : .whole),
                                        startedAt: plan.now.addingTimeInterval(start - clock), connection: connections.current,
                                        onRoom: { [weak self] change in self?.noteRoom(change) }, makeWriter: makeWriter)
        if let format = copyFormat { try opened.begin(format) }
        track = opened
        onEvent(.started(partial: opened.partial.url))
        return opened
    }

    /// A full disk leaves audio out of the track (a gap once there is room) and does not end the recording.
    private func noteRoom(_ change: RecordingTrack.RoomChange) {
        if case .again = change { gaps += 1 }
        onEvent(change.event)
    }

    private func closeTrack(last: Bool) throws {
        guard let track else { return }
        if last { try track.noteCompleteness(TrackMark(trackIsFirst ? .cutAtBothEnds : .cutAtEnd)) }
        if let failure = close(failure: nil) { throw failure }
    }

    /// Closes the current track and hands it to the finaliser; a failure, given or met while closing,
    /// ends the recording and is reported (once) and returned.
    private func close(failure: RecordingError?) -> RecordingError? {
        var outcome = failure
        var partial: URL?
        if let track {
            self.track = nil
            partial = track.partial.url
            outcome = track.close(failure: failure)
            finaliser.enqueue(track.journal.url, reportingTo: onEvent)
        }
        if let outcome {
            failed = true
            finished = true
            onEvent(.failed(outcome.description, partial: partial))
        }
        return outcome
    }

    /// A write failure ends the recording, keeping what was written.
    func writing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let failure = error as? RecordingError ?? RecordingError("\(error)")
            if !failed { _ = close(failure: failure) }
            throw failure
        }
    }

    /// The copy's current format; nil when re-encoding.
    var copyFormat: EncodedFormat? { nil }

    /// A new run in a copy: later tracks begin with its format.
    func beginRun(_ format: EncodedFormat) throws {
        try track?.begin(format)
    }
}

/// Splits a stream copy: the packets are written, the PCM only measured.
public final class CopyTrackSplitter: TrackSplitter, PacketConsumer, @unchecked Sendable {  // `format` inside the base class's `lock`
    private var format: EncodedFormat?

    override var copyFormat: EncodedFormat? { format }

    public func begin(_ format: EncodedFormat) throws {
        try lock.withLock {
            if let current = self.format, current.codecName != format.codecName {
                throw RecordingError("the station changed from \(current.codecName) to \(format.codecName); "
                                     + "split tracks need one codec (use --format to re-encode)")
            }
            self.format = format
            try writing { try beginRun(format) }
        }
    }

    public func consume(_ packet: EncodedPacket) throws {
        try lock.withLock {
            guard format != nil, !finished else { return }
            try writing {
                chunks.append(Chunk(start: clock, content: .packet(try RetainedPacket(packet))))
                clock += packet.duration
            }
        }
    }
}
