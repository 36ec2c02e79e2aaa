import Foundation
import RadioModel
import StreamInput

/// Anything attached to a running station: a file, a pipe, a speaker, an encoder, a recorder.
public protocol StreamConsumer: AnyObject, Sendable {
    /// A short name for messages: "wav:/tmp/x.wav".
    var label: String { get }
    /// No more data will come: flush and close.
    func finish()
}

/// Takes the decoded audio: interleaved PCM in the pipeline's format.
public protocol PCMConsumer: StreamConsumer {
    /// Called on the decode thread, so it must not block for long. Throwing detaches the consumer.
    func consume(_ pcm: UnsafeRawBufferPointer) throws
}

/// Takes the compressed audio as it came from upstream, for copying without re-encoding.
public protocol PacketConsumer: StreamConsumer {
    /// A new run starts (first connection, reconnect, discontinuity): its packets follow in this format.
    func begin(_ format: EncodedFormat) throws
    /// One packet of the current run, on the decode thread. Throwing detaches the consumer.
    func consume(_ packet: EncodedPacket) throws
}

/// Wants to know what is on air: re-injected ICY titles, Icecast metadata updates, chapters.
public protocol TitleConsumer: StreamConsumer {
    /// A title took effect at `change.mediaTime`, on the decode thread. Throwing detaches the consumer.
    func titleChanged(_ change: TitleChange) throws
}

/// Wants the stream's events — connected, titles, gaps, reconnects, decoding, a consumer's failure —
/// in order of occurrence, from the network or the decode thread. Events come through the fan-out,
/// so whatever is attached to a station hears them without anyone wiring a callback.
public protocol EventConsumer: StreamConsumer {
    /// Must not block for long: it runs on the station's network or decode thread.
    func handle(_ event: StreamEvent)
}

/// A consumer for which the moment audio arrives matters, not only the audio: a window that opens and
/// closes at wall-clock instants, on a clock that a stream without its own (ICY) takes from arrival.
/// While one is attached, the decode thread takes each network write as it comes instead of letting a
/// few hundred milliseconds gather (`ByteQueue.readerPatience`), as it does for anyone taking PCM:
/// audio read late would be taken for audio that arrived late.
public protocol ArrivalTimedConsumer: StreamConsumer {}

/// An `EventConsumer` made of a closure: a view, a log, a job's tally.
public final class EventTap: EventConsumer {
    public let label: String
    private let body: @Sendable (StreamEvent) -> Void

    public init(label: String, _ body: @escaping @Sendable (StreamEvent) -> Void) {
        self.label = label
        self.body = body
    }

    public func handle(_ event: StreamEvent) { body(event) }

    public func finish() {}
}

/// Hands every buffer of one station to any number of consumers, which attach and detach while the
/// stream runs. A consumer may take PCM, packets, or both (a track splitter copies packets and
/// listens to the PCM for silences).
public final class StreamFanOut: @unchecked Sendable {  // consumers, tokens and the run's format in `state`
    public struct Token: Hashable, Sendable { let raw: Int }

    private struct State {
        /// In the order they attached (tokens only grow), which is the order they are called in; a copy
        /// taken under the lock is what a delivery walks, so delivering allocates nothing.
        var consumers: [(token: Token, consumer: StreamConsumer)] = []
        /// Packet consumers that have seen the current run's format.
        var begun: Set<Token> = []
        var currentFormat: EncodedFormat?
        /// The title on air. A consumer attached after it was announced is told it before its first audio,
        /// or a recording begun while a station plays would be untitled until the title changes (ICY
        /// sends a title once, when it changes).
        var onAir: TitleChange?
        /// Consumers attached after `onAir` was announced, not yet told it.
        var newcomers: Set<Token> = []
        var nextToken = 0

        /// Drops a consumer's entries.
        mutating func forget(_ token: Token) -> StreamConsumer? {
            begun.remove(token)
            newcomers.remove(token)
            guard let index = consumers.firstIndex(where: { $0.token == token }) else { return nil }
            return consumers.remove(at: index).consumer
        }
    }
    private let state = Locked(State())
    private let onFailure: @Sendable (StreamConsumer, Error) -> Void

    public init(onFailure: @escaping @Sendable (StreamConsumer, Error) -> Void = { _, _ in }) {
        self.onFailure = onFailure
    }

    @discardableResult
    public func attach(_ consumer: StreamConsumer) -> Token {
        state.withLock { state in
            state.nextToken += 1
            let token = Token(raw: state.nextToken)
            state.consumers.append((token, consumer))
            if state.onAir != nil, consumer is TitleConsumer { state.newcomers.insert(token) }
            return token
        }
    }

    /// Detaches and finishes a consumer; the stream goes on for the others.
    public func detach(_ token: Token) {
        state.withLock { $0.forget(token) }?.finish()
    }

    public var count: Int { state.withLock { $0.consumers.count } }

    /// How many consumers are attached but those of `tokens`.
    public func count(excluding tokens: Set<Token>) -> Int {
        state.withLock { $0.consumers.filter { !tokens.contains($0.token) }.count }
    }

    /// Whether any consumer still takes the audio, as PCM or packets. Consumers of titles and events
    /// alone (a command's report, a now-playing tap) do not keep a one-off run going.
    var takesAudio: Bool { state.withLock { $0.consumers.contains { $0.consumer is PCMConsumer || $0.consumer is PacketConsumer } } }

    /// Whether anyone takes PCM: without, the pipeline need not decode.
    var wantsPCM: Bool { state.withLock { $0.consumers.contains { $0.consumer is PCMConsumer } } }

    /// Whether anyone needs each network write read as it comes: a consumer of PCM (a speaker, a paced
    /// sink, an encoder) or one timed by arrival.
    var wantsPromptAudio: Bool {
        state.withLock { $0.consumers.contains { $0.consumer is PCMConsumer || $0.consumer is ArrivalTimedConsumer } }
    }

    /// A new run: packet consumers learn its format before its first packet.
    func begin(_ format: EncodedFormat) {
        state.withLock { state in
            state.currentFormat = format
            state.begun = []
        }
    }

    func deliver(_ pcm: UnsafeRawBufferPointer) {
        for (token, consumer) in introducingNewcomers() {
            guard let consumer = consumer as? PCMConsumer else { continue }
            run(token, consumer) { try consumer.consume(pcm) }
        }
    }

    func deliver(_ packet: EncodedPacket) {
        let format = state.withLock { $0.currentFormat }
        for (token, consumer) in introducingNewcomers() {
            guard let consumer = consumer as? PacketConsumer, let format else { continue }
            run(token, consumer) {
                // A consumer attached mid-run begins with the run's format, then gets packets.
                if state.withLock({ $0.begun.insert(token).inserted }) { try consumer.begin(format) }
                try consumer.consume(packet)
            }
        }
    }

    /// Tells every event consumer, in the order they attached.
    public func publish(_ event: StreamEvent) {
        for (_, consumer) in state.withLock({ $0.consumers }) { (consumer as? EventConsumer)?.handle(event) }
    }

    func deliver(_ title: TitleChange) {
        // One look: a consumer attached after it is a newcomer, told this title once, before its audio.
        let all = state.withLock { (state) -> [(token: Token, consumer: StreamConsumer)] in
            state.onAir = title
            state.newcomers = []
            return state.consumers
        }
        for (token, consumer) in all {
            guard let consumer = consumer as? TitleConsumer else { continue }
            run(token, consumer) { try consumer.titleChanged(title) }
        }
    }

    /// Finishes every consumer: the stream is over.
    func finishAll() {
        let all = state.withLock { (state) -> [(token: Token, consumer: StreamConsumer)] in
            defer { state.consumers = []; state.begun = []; state.newcomers = [] }
            return state.consumers
        }
        all.forEach { $0.consumer.finish() }
    }

    /// The consumers of one look, after telling those attached since the title was announced what is on
    /// air. One attached after the look stays a newcomer: it is told before the next delivery reaches it.
    private func introducingNewcomers() -> [(token: Token, consumer: StreamConsumer)] {
        let (all, title, arrived) = state.withLock { (state) -> ([(token: Token, consumer: StreamConsumer)], TitleChange?, Set<Token>) in
            defer { state.newcomers = [] }
            return (state.consumers, state.onAir, state.newcomers)
        }
        guard let title, !arrived.isEmpty else { return all }
        for (token, consumer) in all where arrived.contains(token) {
            guard let consumer = consumer as? TitleConsumer else { continue }
            run(token, consumer) { try consumer.titleChanged(title) }
        }
        // Without any that failed.
        return state.withLock { state in all.filter { entry in state.consumers.contains { $0.token == entry.token } } }
    }

    private func run(_ token: Token, _ consumer: StreamConsumer, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            _ = state.withLock { $0.forget(token) }
            consumer.finish()
            onFailure(consumer, error)
        }
    }
}
