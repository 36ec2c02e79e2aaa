import Foundation
import Media
import Outputs
import RadioModel
import StreamInput

/// Plays one station into a command's sinks until it ends or is stopped (Ctrl-C, SIGTERM): the wiring
/// `listen` and `relay` share. One upstream connection, decoded once, fanned out to every sink.
struct StationRun {
    var station: StationOptions
    var sinks: [SinkSpec]
    var pacing = PacedPCMSink.Options()
    var metaFIFO: String?
    /// Stop after this many seconds of audio; nil plays until stopped.
    var duration: Double?

    func run() throws {
        FFmpegLogging.configure(verbose: station.verbose)
        let target = try StreamTarget.parse(station.station)
        let reporter = EventReporter(json: station.json, audioOnStandardOutput: sinks.contains(.stdout))
        let outcome = StreamOutcome()
        let onEvent: @Sendable (StreamEvent) -> Void = { event in
            reporter.report(event)
            outcome.record(event)
        }
        let consumers = try makeConsumers(streamName: target.displayName, reporter: reporter, onEvent: onEvent)
        let source: IngestSource
        do {
            source = try target.liveSource(options: station.liveStreamOptions(for: target), onEvent: onEvent)
        } catch {
            consumers.forEach { $0.finish() }
            throw error
        }
        let pipeline = LivePipeline(source: source, format: station.format, stopAfter: duration,
                                    endsWhenConsumersFail: true, onEvent: onEvent)
        consumers.forEach { pipeline.fanOut.attach($0) }
        let trap = SignalTrap { pipeline.stop() }
        pipeline.start()
        pipeline.waitUntilFinished()
        withExtendedLifetime(trap) {}
        if let failure = outcome.failure { throw failure }
    }

    /// Opens every sink before the stream starts, so a bad one fails the command at once; those
    /// already opened are closed again.
    private func makeConsumers(streamName: String, reporter: EventReporter,
                               onEvent: @escaping @Sendable (StreamEvent) -> Void) throws -> [StreamConsumer] {
        var settings = SinkFactory.Settings()
        settings.pacing = pacing
        settings.streamName = streamName
        settings.onStatus = { label, status in reporter.report(sink: label, status) }
        settings.onEvent = onEvent
        var consumers: [StreamConsumer] = []
        do {
            for spec in sinks {
                consumers.append(try SinkFactory.make(spec, format: station.format, settings: settings))
            }
            if let metaFIFO { consumers.append(try TitleFIFO(path: metaFIFO)) }
        } catch {
            consumers.forEach { $0.finish() }
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.sinkFailed)
        }
        return consumers
    }
}

extension StreamTarget {
    /// How the station shows in a sound server's mixer.
    fileprivate var displayName: String {
        switch self {
        case .station(let station): return station.name
        case .url(let url): return url
        }
    }
}

/// What ended a run, decided from its events.
private final class StreamOutcome: @unchecked Sendable {
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
