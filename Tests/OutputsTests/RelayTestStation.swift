import Foundation
import Media
import Outputs
import RadioModel
import Sinks
import StreamInput
import TestSupport

/// A fixture ICY station played through LiveStream → LivePipeline into sinks built by SinkFactory,
/// the way `onair relay --to …` wires them.
final class RelayTestStation: @unchecked Sendable {
    static let path = "/live"

    let fixture: FixtureHTTPServer
    let events: EventSink
    private let pipeline: LivePipeline

    /// - Parameters:
    ///   - bytesPerSecond: the fixture's pace; 16 000 is real time for its 128 kbit/s MP3.
    ///   - sinks: sink strings, e.g. `http://127.0.0.1:PORT/radio?format=opus`.
    init(audio: Data, titles: [ICYStreamWriter.Change] = [], bytesPerSecond: Int = 16_000, sinks: [String]) throws {
        let events = EventSink()
        self.events = events
        fixture = try FixtureHTTPServer()
        fixture.route(Self.path, FixtureHTTPServer.icyStream(ICYStreamWriter(audio: audio, metaint: 16_000, schedule: titles),
                                                             headers: [("icy-name", "Fixture FM")],
                                                             bytesPerSecond: bytesPerSecond))
        FFmpegLogging.configure(verbose: false)
        var options = LiveStreamOptions()
        options.connectTimeout = 2
        options.stallTimeout = 5
        let stream = LiveStream(url: fixture.url(Self.path).absoluteString, options: options, onEvent: events.record)
        pipeline = LivePipeline(source: stream, format: .snapcastDefault, onEvent: events.record)
        var settings = SinkSettings()
        settings.streamName = "Fixture FM"
        settings.onEvent = events.record
        settings.onStatus = events.record
        for sink in sinks {
            pipeline.fanOut.attach(try SinkFactory.make(try SinkSpec(parsing: sink), format: .snapcastDefault, settings: settings))
        }
        pipeline.start()
    }

    /// Stops the station; relay mounts end with it.
    func stop() {
        pipeline.stop()
        pipeline.waitUntilFinished()
        fixture.stop()
    }
}

/// Every event and sink status, kept thread-safely.
final class EventSink: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [StreamEvent] = []
    private var sinkStatuses: [(label: String, status: SinkStatus)] = []

    func record(_ event: StreamEvent) { lock.withLock { events.append(event) } }
    func record(_ label: String, _ status: SinkStatus) { lock.withLock { sinkStatuses.append((label, status)) } }

    var warnings: [String] {
        lock.withLock { events.compactMap { if case .warning(let message) = $0 { return message } else { return nil } } }
    }
    var failures: [String] {
        lock.withLock {
            events.compactMap { if case .consumerFailed(let label, let reason) = $0 { return "\(label): \(reason)" } else { return nil } }
        }
    }
    var statuses: [(label: String, status: SinkStatus)] { lock.withLock { sinkStatuses } }
}
