import Foundation
import Media
import RadioModel

/// Watches one station's decoded audio for the clips of an index: a consumer of its pipeline, fingerprinting
/// the PCM as it arrives and matching the items, which reports each airing as a `clip-matched` event, with when
/// it aired on the station's wall clock. `report` is called directly, not through the pipeline's fan-out: the
/// airings still on when the stream ends are told from `finish()`, after the fan-out has let its consumers go.
public final class ClipWatch: PCMConsumer, @unchecked Sendable {  // `state` (the fingerprinter, a C context, and the matcher) inside its lock
    public let label: String
    private let station: String
    private let format: PCMFormat
    /// Where the station's audio stood when the watch began, and the wall clock of the audio delivered now.
    private let startMediaTime: Double
    private let clock: @Sendable () -> Date
    private let report: @Sendable (ClipSighting) -> Void
    private let began: @Sendable (ClipOnset) -> Void
    private let state: Locked<State>

    private struct State {
        let printer: Chromaprinter
        var matcher: ClipMatcher
        var samplesFed = 0
        var finished = false
        /// Where each clip's last airing told ended, in the station's audio (seconds fed).
        var lastEnds: [Int64: Double] = [:]
    }

    /// - Parameters:
    ///   - format: the pipeline's PCM (16-bit); Chromaprint mixes it down and resamples it.
    ///   - clock: the wall-clock time of the audio being delivered (the station's `StreamWallClock`).
    ///   - began: told each airing's beginning, a few seconds into it, on the thread that feeds the watch.
    ///   - report: told each airing, on the thread that feeds the watch or finishes it.
    public init(index: ClipIndex, station: String, format: PCMFormat, startMediaTime: Double = 0,
                clock: @escaping @Sendable () -> Date, began: @escaping @Sendable (ClipOnset) -> Void = { _ in },
                report: @escaping @Sendable (ClipSighting) -> Void) throws(ClipError) {
        guard format.bitsPerSample == 16 else { throw ClipError("clips are matched in 16-bit audio, not \(format.bitsPerSample)-bit") }
        label = "clips:\(station)"
        self.station = station
        self.format = format
        self.startMediaTime = startMediaTime
        self.clock = clock
        self.report = report
        self.began = began
        state = Locked(State(printer: try Chromaprinter(sampleRate: format.sampleRate, channels: format.channels), matcher: ClipMatcher(index: index)))
    }

    /// A watch on `pipeline` that publishes each beginning and airing into it, for the station's recordings (chapters,
    /// tracks split at clips), and hands each airing to `heard` as well.
    public static func publishing(into pipeline: LivePipeline, index: ClipIndex, station: String, clock: @escaping @Sendable () -> Date,
                                  heard: @escaping @Sendable (ClipSighting) -> Void) throws(ClipError) -> ClipWatch {
        // Weak: the pipeline holds the watch.
        try ClipWatch(index: index, station: station, format: pipeline.format, startMediaTime: pipeline.mediaTime, clock: clock,
                      began: { [weak pipeline] in pipeline?.publish(.clipBegan($0)) }) { [weak pipeline] sighting in
            pipeline?.publish(.clipMatched(sighting))
            heard(sighting)
        }
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        let (beginnings, matches, fed) = state.withLock { state -> ([ClipBeginning], [ClipMatch], Int) in
            guard !state.finished else { return ([], [], state.samplesFed) }
            let items = pcm.withMemoryRebound(to: Int16.self) { state.printer.feed($0) }
            state.samplesFed += pcm.count / format.bytesPerFrame
            let matches = state.matcher.append(items)
            return (state.matcher.takeBeginnings(), matches, state.samplesFed)
        }
        announce(beginnings, fed: fed)
        announce(matches, fed: fed)
    }

    /// Listens for the clips of `index` from now on (the library changed), without losing an airing under way.
    public func use(_ index: ClipIndex) {
        state.withLock { $0.matcher.use(index) }
    }

    public func finish() {
        let (matches, fed) = state.withLock { state -> ([ClipMatch], Int) in
            guard !state.finished else { return ([], state.samplesFed) }
            state.finished = true
            return (state.matcher.append(state.printer.finish()) + state.matcher.finish(), state.samplesFed)
        }
        announce(matches, fed: fed)
    }

    /// Each beginning began as long before the audio fed so far as the audio since it lasts.
    private func announce(_ beginnings: [ClipBeginning], fed samples: Int) {
        guard !beginnings.isEmpty else { return }
        let fedSeconds = Double(samples) / Double(format.sampleRate)
        let now = clock()
        for beginning in beginnings {
            began(ClipOnset(clip: beginning.clip.name, kind: beginning.clip.kind.rawValue, station: station,
                            start: now.addingTimeInterval(beginning.streamSeconds - fedSeconds), mediaTime: startMediaTime + beginning.streamSeconds,
                            seconds: beginning.seconds, toldAfter: fedSeconds - beginning.streamSeconds))
        }
    }

    /// The audio fed so far ends now on the station's clock: each match began as long before that as the audio since it
    /// lasts. An airing that overlaps, in the station's audio, the last one told of the same clip is part of that one, and
    /// not told again.
    private func announce(_ matches: [ClipMatch], fed samples: Int) {
        guard !matches.isEmpty else { return }
        let fedSeconds = Double(samples) / Double(format.sampleRate)
        let now = clock()
        let sightings = matches.map { match in
            let start = now.addingTimeInterval(match.streamSeconds - fedSeconds)
            return (match, ClipSighting(clip: match.clip.name, kind: match.clip.kind.rawValue, station: station, start: start,
                                                end: start.addingTimeInterval(match.airedSeconds), mediaTime: startMediaTime + match.streamSeconds,
                                                offset: match.clipOffset, score: match.score, partial: match.isPartial,
                                                toldAfter: fedSeconds - match.streamSeconds))
        }
        let told = state.withLock { state in
            sightings.filter { match, _ in
                if let lastEnd = state.lastEnds[match.clip.id], match.streamSeconds < lastEnd { return false }
                state.lastEnds[match.clip.id] = match.streamSeconds + match.airedSeconds
                return true
            }
        }
        told.forEach { report($0.1) }
    }
}
