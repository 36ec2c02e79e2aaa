import ArgumentParser
import Outputs

/// Where a station is relayed: any number of sinks, the buffer that paces them, and titles for Snapcast.
struct RelayOutputOptions: ParsableArguments {
    @Option(name: .customLong("to"), help: ArgumentHelp(
        "A sink, repeatable: fifo:PATH, tcp:HOST:PORT, speaker, pulse[:SERVER[/SINK]], alsa[:DEVICE], wav:PATH, stdout, "
            + "http://ADDR:PORT/PATH (serve it; see docs/http-relay.md), icecast://USER:PASS@HOST:PORT/MOUNT (push it).",
        valueName: "sink"))
    var sinks: [String] = []

    @Option(help: ArgumentHelp("Seconds of audio buffered for the fifo, tcp and audio-device sinks; latency is about half. "
                               + "Longer rides out a jittery station, shorter follows it more closely.", valueName: "seconds"))
    var buffer: Double = PacedPCMSink.Options().bufferSeconds

    @Option(name: .customLong("meta-fifo"), help: ArgumentHelp("Also write each title as a JSON line to this FIFO (for Snapcast: see docs/relay.md).",
                               valueName: "path"))
    var metaFIFO: String?

    func validate() throws {
        guard (0.05...10).contains(buffer) else {
            throw ValidationError("invalid --buffer \(buffer): use 0.05 to 10 seconds")
        }
        _ = try specs()
    }

    /// The `--to` sinks, parsed.
    func specs() throws -> [SinkSpec] {
        try sinks.map { text in
            do { return try SinkSpec(parsing: text) } catch { throw ValidationError("\(error)") }
        }
    }

    var pacing: PacedPCMSink.Options {
        var options = PacedPCMSink.Options()
        options.bufferSeconds = buffer
        return options
    }
}
