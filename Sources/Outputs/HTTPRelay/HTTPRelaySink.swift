import Media
import RadioModel
import StreamInput

/// Builds an `http://ADDR:PORT/PATH` sink: a feed for the station, served as a mount.
enum HTTPRelaySink {
    static func make(host: String, port: Int, path: String, options: HTTPRelayOptions, label: String, input: PCMFormat,
                     streamName: String, onEvent: @escaping @Sendable (StreamEvent) -> Void) throws -> StreamConsumer {
        // A listener may fall this far behind before it is dropped; lossless formats carry ~10× the
        // bytes per second of lossy ones, so they get a wider window for the same seconds.
        let lossless: Bool
        if case .encode(let encoding) = options.format { lossless = encoding == .flac || encoding == .wav } else { lossless = false }
        let window = lossless ? 2 * 1024 * 1024 : 256 * 1024
        let broadcast = AudioBroadcast(retainedBytes: window)
        let feed = try BroadcastFeed.make(options.format, input: input, label: label, into: broadcast)
        let mount = HTTPRelayMount(path: path, broadcast: broadcast, options: options, name: options.name ?? URLRedaction.redact(streamName),
                                   label: label, burstBytes: window / 4, onEvent: onEvent)
        try HTTPRelayServers.shared.serve(mount, host: host, port: port)
        return feed
    }
}
