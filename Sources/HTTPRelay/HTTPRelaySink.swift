import HTTPServing
import Media
import Outputs
import RadioModel
import StreamInput

/// Builds an `http://ADDR:PORT/PATH` sink: a feed for the station, served as a mount.
public enum HTTPRelaySink {
    public static func make(host: String, port: Int, path: String, options: HTTPRelayOptions, label: String, input: PCMFormat,
                            streamName: String, onEvent: @escaping @Sendable (StreamEvent) -> Void) throws -> StreamConsumer {
        let (mount, feed) = try HTTPRelayMount.make(path: path, format: options.format, options: options, label: label, input: input,
                                                    name: options.name ?? URLRedaction.redact(streamName), onEvent: onEvent)
        try HTTPRelayServers.shared.serve(mount, host: host, port: port)
        return feed
    }
}
