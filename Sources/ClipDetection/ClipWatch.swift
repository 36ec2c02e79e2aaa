import Foundation
import Media
import RadioModel

/// Watches one station's decoded audio for the clips of an index: a consumer of its pipeline, fingerprinting
/// the PCM as it arrives and matching the items, which reports each airing as a `clip-matched` event, with when
/// it aired on the station's wall clock.
public final class ClipWatch: PCMConsumer, @unchecked Sendable {  // printer, matcher and count: only on the decode thread that feeds it
    public let label: String
    private let station: String
    private let format: PCMFormat
    /// Where the station's audio stood when the watch began, and the wall clock of the audio delivered now.
    private let startMediaTime: Double
    private let clock: @Sendable () -> Date
    private let report: @Sendable (StreamEvent) -> Void
    private let printer: Chromaprinter
    private var matcher: ClipMatcher
    private var samplesFed = 0

    /// - Parameters:
    ///   - format: the pipeline's PCM (16-bit); Chromaprint mixes it down and resamples it.
    ///   - clock: the wall-clock time of the audio being delivered (the station's `StreamWallClock`).
    ///   - report: where `clip-matched` goes (the station's events).
    public init(index: ClipIndex, station: String, format: PCMFormat, startMediaTime: Double = 0,
                clock: @escaping @Sendable () -> Date, report: @escaping @Sendable (StreamEvent) -> Void) throws(ClipError) {
        guard format.bitsPerSample == 16 else { throw ClipError("clips are matched in 16-bit audio, not \(format.bitsPerSample)-bit") }
        label = "clips:\(station)"
        self.station = station
        self.format = format
        self.startMediaTime = startMediaTime
        self.clock = clock
        self.report = report
        printer = try Chromaprinter(sampleRate: format.sampleRate, channels: format.channels)
        matcher = ClipMatcher(index: index)
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        let samples = pcm.bindMemory(to: Int16.self)
        samplesFed += samples.count / format.channels
        announce(matcher.append(printer.feed(samples)))
    }

    public func finish() {
        announce(matcher.append(printer.finish()) + matcher.finish())
    }

    /// The audio fed so far ends now on the station's clock: each match began as long before that as the
    /// audio since it lasts.
    private func announce(_ matches: [ClipMatch]) {
        guard !matches.isEmpty else { return }
        let fedSeconds = Double(samplesFed) / Double(format.sampleRate)
        let now = clock()
        for match in matches {
            let start = now.addingTimeInterval(match.streamSeconds - fedSeconds)
            report(.clipMatched(ClipSighting(clip: match.clip.name, kind: match.clip.kind.rawValue, station: station, start: start,
                                             end: start.addingTimeInterval(match.airedSeconds), mediaTime: startMediaTime + match.streamSeconds,
                                             offset: match.clipOffset, score: match.score, partial: match.isPartial)))
        }
    }
}
