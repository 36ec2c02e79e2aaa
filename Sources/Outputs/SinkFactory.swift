import Media
import RadioModel

/// Builds the consumer for a sink string.
public enum SinkFactory {
    public static func make(_ spec: SinkSpec, format: PCMFormat) throws -> PCMConsumer {
        switch spec {
        case .stdout: return StdoutSink()
        case .wav(let path): return try WAVFileSink(path: path, format: format)
        case .speaker, .pulse, .alsa, .fifo, .tcp, .httpServe, .icecast:
            throw SinkError("sink '\(spec)' is not available in this version of onair; use stdout or wav:PATH")
        }
    }
}
