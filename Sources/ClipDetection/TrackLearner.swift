import Foundation
import Media
import RadioModel

/// A song a station named (its ICY title) while it aired whole: its fingerprint, so that the song is known by that name
/// when it airs again — on this station or on one that sends no titles.
public struct LearnedTrack: Sendable, Equatable {
    public let title: String
    public let seconds: Double
    public let fingerprint: Fingerprint

    public init(title: String, seconds: Double, fingerprint: Fingerprint) {
        (self.title, self.seconds, self.fingerprint) = (title, seconds, fingerprint)
    }
}

/// Learns the songs one station names: fingerprints the audio between two title changes, and hands on a track that
/// aired whole (it saw the title begin and end, with no gap between), as long as a song is, under a title that reads
/// like one ("Artist - Title"; not a station message or the pre-roll). The first and last seconds are left out: a
/// title is placed in the audio to a second or so, and the track's edges must not carry its neighbours.
public final class TrackLearner: PCMConsumer, TitleConsumer, EventConsumer, @unchecked Sendable {  // `state` (a C context) inside its lock
    /// How long a track must be, and may be, to be learned: shorter is a jingle or an ad; longer, a programme.
    public static let seconds = 30.0...Double(ClipFile.longest)
    /// Left out at each end, in seconds.
    static let edge = 3.0

    public let label: String
    private let format: PCMFormat
    private let learned: @Sendable (LearnedTrack) -> Void
    private let state: Locked<State>

    private struct State {
        var printer: Chromaprinter
        var items: [UInt32] = []
        var samples = 0
        /// The title on air, if it reads like a song.
        var title: String?
        /// Whether this track was seen from its start (not on air already when the learner began) without a gap.
        var whole = false
        var heardAudio = false
    }

    /// - Parameter learned: told each track learned, on the thread that feeds the learner.
    public init(station: String, format: PCMFormat, learned: @escaping @Sendable (LearnedTrack) -> Void) throws(ClipError) {
        guard format.bitsPerSample == 16 else { throw ClipError("tracks are learned from 16-bit audio, not \(format.bitsPerSample)-bit") }
        label = "learn:\(station)"
        self.format = format
        self.learned = learned
        state = Locked(State(printer: try Chromaprinter(sampleRate: format.sampleRate, channels: format.channels)))
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        state.withLock { state in
            state.heardAudio = true
            guard state.title != nil else { return }
            state.items += pcm.withMemoryRebound(to: Int16.self) { state.printer.feed($0) }
            state.samples += pcm.count / format.bytesPerFrame
        }
    }

    public func titleChanged(_ change: TitleChange) throws {
        let track = try state.withLock { state -> LearnedTrack? in
            let ended = Self.track(&state, sampleRate: format.sampleRate)
            // The title already on air when the learner began is told before any audio: not seen from its start.
            state.whole = state.heardAudio
            state.title = Self.songTitle(change)
            state.printer = try Chromaprinter(sampleRate: format.sampleRate, channels: format.channels)
            (state.items, state.samples) = ([], 0)
            return ended
        }
        if let track { learned(track) }
    }

    public func handle(_ event: StreamEvent) {
        // A hole in the track: what comes after it is not the same audio as a whole airing.
        if case .gap = event { state.withLock { $0.whole = false } }
    }

    /// The stream ended during the track: it is cut, and not learned.
    public func finish() {}

    /// The track that ends now, if it aired whole, as long as a song.
    private static func track(_ state: inout State, sampleRate: Int) -> LearnedTrack? {
        guard state.whole, let title = state.title else { return nil }
        let items = state.items + state.printer.finish()
        let seconds = Double(state.samples) / Double(sampleRate)
        let edgeItems = Int(Self.edge / Fingerprint.itemSeconds)
        guard Self.seconds.contains(seconds), items.count > 2 * edgeItems else { return nil }
        return LearnedTrack(title: title, seconds: seconds - 2 * Self.edge, fingerprint: Fingerprint(items: Array(items.dropFirst(edgeItems).dropLast(edgeItems))))
    }

    /// The title, if it names a song: "Artist - Title", not a station message, the pre-roll, or a bare name.
    static func songTitle(_ change: TitleChange) -> String? {
        if let kind = change.details?.kind, kind != .song { return nil }
        let title = change.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let dash = title.range(of: " - "), !title[..<dash.lowerBound].isEmpty, !title[dash.upperBound...].isEmpty else { return nil }
        return title
    }
}
