import HTTPRelay
import Media
import Outputs
import RadioModel

/// Builds the consumer for a sink string: Outputs' sinks, and the HTTP relay's mounts for `http://`.
public enum SinkFactory {
    public static func make(_ spec: SinkSpec, format: PCMFormat, settings: SinkSettings = SinkSettings()) throws -> StreamConsumer {
        try OutputSinks.make(spec, format: format, settings: settings) { host, port, path, options in
            try HTTPRelaySink.make(host: host, port: port, path: path, options: options, label: spec.description, input: format,
                                   streamName: settings.streamName, onEvent: settings.onEvent)
        }
    }
}
