import ArgumentParser
import Outputs
import RadioModel

struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Play a live station into a sink, showing what is on air.",
        discussion: """
        The station is a catalogue id (see `onair stations`) or a URL: a stream, a .pls/.m3u playlist \
        or an HLS playlist. onair reconnects on drops and stalls, reporting each gap. HLS is followed \
        segment by segment: an outage shorter than the playlist's window loses nothing, and whatever \
        did expire is reported as a gap with its length.

        Examples:
          onair listen http://127.0.0.1:8000/demo.mp3 --sink wav:demo.wav --duration 30
          onair listen somafm-groovesalad --sink stdout | aplay -f S16_LE -r 48000 -c 2
          onair listen fip --sink wav:fip.wav --json
          onair listen bbc-radio-4 --from 06:00 --sink wav:today.wav --duration 3h
          onair listen fip --to speaker --to fifo:/tmp/snapfifo

        Exit codes: 0 stopped or duration reached; 1 the stream could not be played; \
        2 a sink failed; 3 configuration error (catalogue, unknown station); 64 usage error.
        """
    )

    @OptionGroup var stream: StationOptions

    @Option(name: .long, help: ArgumentHelp("Where the PCM goes, e.g. wav:PATH or stdout (default: stdout when it is piped); "
                                            + "--to adds more.", valueName: "sink"))
    var sink: String?

    @OptionGroup var outputs: RelayOutputOptions

    @Option(help: ArgumentHelp("Stop after this much audio (seconds, or 90s, 45m, 1h30m).", valueName: "duration"))
    var duration: String?

    func validate() throws {
        if let duration, TimeSpan(duration) == nil {
            throw ValidationError("invalid --duration '\(duration)': use seconds or a span like 90s, 45m, 1h30m")
        }
    }

    func run() throws {
        try reportingFailures {
            try StationRun(station: stream, sinks: try chosenSinks(), pacing: outputs.pacing, metaFIFO: outputs.metaFIFO,
                           duration: duration.flatMap { TimeSpan($0)?.seconds }).run()
        }
    }

    /// `--sink` and every `--to`; stdout alone when neither is given and stdout is piped.
    private func chosenSinks() throws -> [SinkSpec] {
        var sinks = try outputs.specs()
        if let sink {
            do { sinks.insert(try SinkSpec(parsing: sink), at: 0) } catch { throw ValidationError("\(error)") }
        }
        guard sinks.isEmpty else { return sinks }
        guard !Console.standardOutputIsTerminal else {
            throw ValidationError("choose an output with --sink wav:PATH or --to SINK, or pipe stdout into a player (--sink stdout)")
        }
        return [.stdout]
    }
}
