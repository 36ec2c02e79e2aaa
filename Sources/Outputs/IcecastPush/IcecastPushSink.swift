import Media
import RadioModel
import StreamInput

/// Builds an `icecast://` sink: a feed for the station, pushed to Icecast by a source client.
enum IcecastPushSink {
    static func make(url: String, label: String, input: PCMFormat, streamName: String, onStatus: @escaping SinkStatusHandler,
                     onEvent: @escaping @Sendable (StreamEvent) -> Void) throws -> StreamConsumer {
        let target = try IcecastTarget(url: url)
        let broadcast = AudioBroadcast()
        let feed = try BroadcastFeed.make(target.format, input: input, label: label, into: broadcast)
        let client = try IcecastSourceClient(target: target, broadcast: broadcast, label: label,
                                             streamName: target.name ?? URLRedaction.redact(streamName),
                                             onStatus: onStatus, onEvent: onEvent)
        client.start()
        return feed
    }
}
