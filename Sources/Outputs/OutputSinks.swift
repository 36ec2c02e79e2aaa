import Media
import RadioModel
import StreamInput

/// What sinks with a peer (fifo, tcp, speaker, pulse, alsa) and relays need beyond the sink string.
public struct SinkSettings: Sendable {
    public var pacing = PacedPCMSink.Options()
    /// How the stream is named in a sound server's mixer, and to the listeners of a relay (icy-name, Ice-Name).
    public var streamName = "onair"
    /// Told when a peer is reached, lost, or waited for.
    public var onStatus: SinkStatusHandler = { _, _ in }
    /// Told of problems that do not stop a sink: a relay listener dropped, a title Icecast refused.
    public var onEvent: @Sendable (StreamEvent) -> Void = { _ in }
    /// A player's volume for the speaker, pulse and alsa sinks, applied by the sound server.
    public var deviceVolume: DeviceVolume?
    public init() {}
}

/// Builds the consumer for a sink string. The `http://` relay is served on a server framework this module
/// does without: `serveHTTP` makes it (Sinks' `SinkFactory` passes the HTTP relay's).
public enum OutputSinks {
    /// PCM sinks, or — for `http://` and `icecast://` — a feed that copies or encodes the station.
    public static func make(_ spec: SinkSpec, format: PCMFormat, settings: SinkSettings,
                            serveHTTP: (_ host: String, _ port: Int, _ path: String, _ options: HTTPRelayOptions) throws -> StreamConsumer)
        throws -> StreamConsumer {
        let label = spec.description
        func paced(_ peer: PCMPeer) -> PCMConsumer {
            PacedPCMSink(label: label, format: format, options: settings.pacing, peer: peer, onStatus: settings.onStatus)
        }
        func audioDevice(_ target: AudioDevicePeer.Target) -> PCMConsumer {
            paced(AudioDevicePeer(target: target, format: format, streamName: settings.streamName,
                                  deviceBuffer: settings.pacing.bufferSeconds, volume: settings.deviceVolume))
        }
        switch spec {
        case .stdout: return StdoutSink()
        case .wav(let path): return try WAVFileSink(path: path, format: format)
        case .fifo(let path): return paced(try FIFOPeer(path: path, label: label))
        case .tcp(let host, let port):
            return paced(TCPPeer(host: host, port: port,
                                 sendBufferBytes: Int(settings.pacing.bufferSeconds * Double(format.bytesPerSecond) / 2)))
        case .speaker: return audioDevice(.speaker)
        case .pulse(let server, let sink): return audioDevice(.pulse(server: server, sink: sink))
        case .alsa(let device): return audioDevice(.alsa(device: device))
        case .httpServe(let host, let port, let path, let options):
            return try serveHTTP(host, port, path, options)
        case .icecast(let url):
            return try IcecastPushSink.make(url: url, label: label, input: format, streamName: settings.streamName,
                                            onStatus: settings.onStatus, onEvent: settings.onEvent)
        }
    }
}
