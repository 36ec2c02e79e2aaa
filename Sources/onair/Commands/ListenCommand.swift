import ArgumentParser
import Foundation
import Media
import Outputs
import RadioModel
import StreamInput

struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Play a live station into a sink, showing what is on air.",
        discussion: """
        The station is a catalogue id (see `onair stations`) or a URL: a stream, a .pls/.m3u playlist \
        or an HLS master playlist. onair reconnects on drops and stalls, reporting each gap.

        Examples:
          onair listen http://127.0.0.1:8000/demo.mp3 --sink wav:demo.wav --duration 30
          onair listen somafm-groovesalad --sink stdout | aplay -f S16_LE -r 48000 -c 2
          onair listen fip --sink wav:fip.wav --json

        Exit codes: 0 stopped or duration reached; 1 the stream could not be played; \
        2 a sink failed; 3 configuration error (catalogue, unknown station); 64 usage error.
        """
    )

    @Argument(help: "A station id from the catalogue, or a stream or playlist URL.")
    var station: String

    @Option(name: .long, help: ArgumentHelp("Where the PCM goes: stdout or wav:PATH.", valueName: "sink"))
    var sink: String?

    @Option(help: ArgumentHelp("Stop after this much audio (seconds, or 90s, 45m, 1h30m).", valueName: "duration"))
    var duration: String?

    @Option(help: ArgumentHelp("PCM format RATE:BITS:CHANNELS (bits 16, 24 or 32).", valueName: "format"))
    var pcm: String = PCMFormat.snapcastDefault.description

    @Option(help: "HLS variant to pick from a master playlist: low or high.")
    var quality: StreamQuality = .high

    @Option(help: "Seconds without data after which the connection is replaced.")
    var stallTimeout: Double = 15

    @Option(help: "Seconds to wait for a connection.")
    var connectTimeout: Double = 10

    @Option(help: "Give up after this many failed reconnects in a row (default: never).")
    var maxReconnects: Int?

    @Option(help: ArgumentHelp("Reconnect backoff: first and longest delay in seconds; doubles between, ±25% jitter.",
                               valueName: "min:max"))
    var reconnectDelay: String = "0.5:30"

    @Flag(help: "Print events (connected, decoding, metadata, gap, reconnecting, error) as JSON lines.")
    var json = false

    @Flag(help: "Show FFmpeg's own warnings.")
    var verbose = false

    func validate() throws {
        if let duration, TimeSpan(duration) == nil {
            throw ValidationError("invalid --duration '\(duration)': use seconds or a span like 90s, 45m, 1h30m")
        }
        if PCMFormat(pcm) == nil {
            throw ValidationError("invalid --pcm '\(pcm)': expected RATE:BITS:CHANNELS, e.g. 48000:16:2")
        }
        if Self.delayBounds(reconnectDelay) == nil {
            throw ValidationError("invalid --reconnect-delay '\(reconnectDelay)': expected MIN:MAX seconds with 0 < MIN <= MAX, e.g. 0.5:30")
        }
        if stallTimeout <= 0 || connectTimeout <= 0 {
            throw ValidationError("timeouts must be positive")
        }
    }

    func run() throws {
        try reportingFailures(play)
    }

    private func play() throws {
        FFmpegLogging.configure(verbose: verbose)
        let format = PCMFormat(pcm)!
        let sinkSpec = try chosenSink()
        let target = try StreamTarget.parse(station)
        let candidates = try target.liveCandidates()
        let consumer: PCMConsumer
        do {
            consumer = try SinkFactory.make(sinkSpec, format: format)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.sinkFailed)
        }

        let reporter = EventReporter(json: json, audioOnStandardOutput: sinkSpec == .stdout)
        let outcome = ListenOutcome()
        var options = LiveStreamOptions()
        options.connectTimeout = connectTimeout
        options.stallTimeout = stallTimeout
        options.titleCharset = target.titleCharset
        options.reconnect.maxConsecutiveFailures = maxReconnects
        (options.reconnect.initialDelay, options.reconnect.maxDelay) = Self.delayBounds(reconnectDelay)!
        options.quality = quality
        let onEvent: @Sendable (StreamEvent) -> Void = { event in
            reporter.report(event)
            outcome.record(event)
        }
        let stream = LiveStream(candidates: candidates, options: options, onEvent: onEvent)
        let pipeline = LivePipeline(source: stream, format: format, stopAfter: duration.flatMap { TimeSpan($0)?.seconds },
                                    endsWhenConsumersFail: true, onEvent: onEvent)
        pipeline.fanOut.attach(consumer)
        let trap = SignalTrap { pipeline.stop() }
        pipeline.start()
        pipeline.waitUntilFinished()
        withExtendedLifetime(trap) {}
        if let failure = outcome.failure { throw failure }
    }

    private static func delayBounds(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 2, parts[0] > 0, parts[0] <= parts[1] else { return nil }
        return (parts[0], parts[1])
    }

    private func chosenSink() throws -> SinkSpec {
        if let sink {
            do { return try SinkSpec(parsing: sink) } catch { throw ValidationError("\(error)") }
        }
        guard !Console.standardOutputIsTerminal else {
            throw ValidationError("choose an output with --sink wav:PATH, or pipe stdout into a player (--sink stdout)")
        }
        return .stdout
    }
}

/// What ended a listen, decided from its events.
private final class ListenOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: CommandFailure?

    func record(_ event: StreamEvent) {
        lock.withLock {
            switch event {
            case .failed(let message): stored = stored ?? CommandFailure(message: message, exitCode: ExitStatus.streamFailed)
            case .consumerFailed(let label, let reason):
                stored = stored ?? CommandFailure(message: "\(label) failed: \(reason)", exitCode: ExitStatus.sinkFailed)
            default: break
            }
        }
    }

    var failure: CommandFailure? { lock.withLock { stored } }
}
