import Foundation
import RadioModel
import StreamInput

/// How one of a station's streams answered a check.
public struct StreamCheck: Sendable, Codable, Equatable {
    /// The catalogue's URL, credentials redacted.
    public var url: String
    /// A second of audio was decoded from it.
    public var alive: Bool
    /// What resolution found ("icy", "hls", …); nil when it could not be resolved.
    public var kind: String?
    /// The codec the decoder recognised (FFmpeg's name), else the one resolution reported.
    public var codec: String?
    /// kbit/s, as the stream or its playlist declares it.
    public var bitrate: Int?
    /// The first title the stream sent during the check, if any.
    public var title: String?
    /// Seconds from the start of the check (resolution included) to the first decoded audio.
    public var firstAudioSeconds: Double?
    /// Why it is not alive, in one line.
    public var problem: String?
}

/// How a station's streams answered a check, in the catalogue's order.
public struct StationCheckResult: Sendable, Codable, Equatable {
    public var station: String
    public var name: String
    public var streams: [StreamCheck]

    /// At least one stream plays.
    public var alive: Bool { streams.contains(where: \.alive) }
}

/// Checks that a catalogue station plays: each of its streams is resolved, opened and decoded for a
/// second — what `onair stations check` reports, so a catalogue can be kept true.
///
/// Blocking: call it from a thread of its own or the main thread, never from Swift's cooperative pool.
public struct StationChecker: Sendable {
    /// Seconds of audio decoded before a stream counts as alive.
    public var listenSeconds = 1.0
    /// Longest wait for that audio, after resolution.
    public var timeout = 20.0
    public var engine: TransferEngine

    public init(engine: TransferEngine = .shared) { self.engine = engine }

    public func check(_ station: Station) -> StationCheckResult {
        StationCheckResult(station: station.id, name: station.name,
                           streams: station.streams.map { check($0, charset: station.charset) })
    }

    public func check(_ endpoint: StreamEndpoint, charset: String? = nil) -> StreamCheck {
        let started = Date()
        var result = StreamCheck(url: URLRedaction.redact(endpoint.url), alive: false)
        let resolved: ResolvedStream
        do {
            resolved = try StreamResolver(engine: engine).resolve(endpoint.url)
        } catch {
            result.problem = "\(error)"
            return result
        }
        result.kind = resolved.kind.rawValue
        result.codec = resolved.codec
        result.bitrate = resolved.bitrate
        let observation = listen(to: resolved.url, charset: charset, since: started)
        result.title = observation.title
        result.codec = observation.codec ?? result.codec
        result.firstAudioSeconds = observation.firstAudio.map { ($0.timeIntervalSince(started) * 1000).rounded() / 1000 }
        result.alive = observation.decodedSeconds >= listenSeconds
        if !result.alive {
            result.problem = observation.failure
                ?? String(format: "only %.1f s of audio in %.0f s", observation.decodedSeconds, timeout)
        }
        return result
    }

    /// Plays `url` until `listenSeconds` of audio were decoded, it failed, or `timeout` passed.
    private func listen(to url: String, charset: String?, since started: Date) -> Observation {
        var options = LiveStreamOptions()
        options.titleCharset = charset
        // A check reports what a stream does now: one attempt, no patient retrying.
        options.reconnect = ReconnectPolicy(initialAttempts: 1, maxConsecutiveFailures: 0)
        let observer = Observer()
        let source = LiveSource(candidates: [url], options: options, engine: engine, onEvent: observer.record)
        let pipeline = LivePipeline(source: source, format: .snapcastDefault, stopAfter: listenSeconds,
                                    endsWhenConsumersFail: true, onEvent: observer.record)
        let sink = FirstAudioSink()
        pipeline.fanOut.attach(sink)
        pipeline.start()
        if !pipeline.waitUntilFinished(timeout: timeout) {
            pipeline.stop()
            pipeline.waitUntilFinished()
        }
        var observation = observer.observation
        observation.firstAudio = sink.firstAudio
        observation.decodedSeconds = pipeline.mediaTime
        return observation
    }

    private struct Observation {
        var codec: String?
        var title: String?
        var failure: String?
        var firstAudio: Date?
        var decodedSeconds = 0.0
    }

    /// Collects what the stream's events say. Events come from the network and decode threads.
    private final class Observer: Sendable {
        private let observed = Locked(Observation())

        var observation: Observation { observed.current }

        func record(_ event: StreamEvent) {
            observed.withLock { observation in
                switch event {
                case .decoding(let codec, _, _, _): observation.codec = observation.codec ?? codec
                case .metadata(let change) where !change.title.isEmpty: observation.title = observation.title ?? change.title
                case .failed(let message): observation.failure = observation.failure ?? message
                case .warning(let message), .disconnected(let message): observation.failure = observation.failure ?? message
                default: break
                }
            }
        }
    }

    /// Takes the decoded audio and notes when it began. Called on the decode thread.
    private final class FirstAudioSink: PCMConsumer, Sendable {
        let label = "check"
        private let first = Locked<Date?>(nil)

        var firstAudio: Date? { first.current }

        func consume(_ pcm: UnsafeRawBufferPointer) throws {
            first.withLock { first in if first == nil, !pcm.isEmpty { first = Date() } }
        }

        func finish() {}
    }
}

extension StationCheckResult {
    /// The station, then one line per stream: `alive hls aac 96 kbit/s, audio after 0.8 s, "Title" URL`,
    /// or `dead` and why.
    public var report: String {
        var lines = ["\(station) (\(name)): " + (alive ? "alive" : "no stream plays")]
        for (index, stream) in streams.enumerated() {
            var facts = [stream.kind, stream.codec, stream.bitrate.map { "\($0) kbit/s" }].compactMap { $0 }
            if let seconds = stream.firstAudioSeconds { facts.append(String(format: "audio after %.1f s", seconds)) }
            if let title = stream.title { facts.append("title \"\(title)\"") }
            if let problem = stream.problem, !stream.alive { facts.append(problem) }
            lines.append("  \(index + 1). \(stream.alive ? "alive" : "dead ") \(stream.url)" + (facts.isEmpty ? "" : " — " + facts.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }
}
