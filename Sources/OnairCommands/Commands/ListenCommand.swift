import ArgumentParser
import Engine
import MPRIS
import Outputs
import Playback
import RadioModel

struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Play a live station into a sink, showing what is on air.",
        discussion: """
        On a terminal it plays on the speakers (PulseAudio, else ALSA) unless told otherwise, and shows \
        a live view: station, programme, title, codec, reconnects and gaps, volume and sleep timer. Keys: \
        space pause (time-shift: the station keeps buffering, up to 2 minutes), l back to live, +/- volume, \
        m mute, s sleep timer (off, 5, 10, 15, 30, 45, 60 min, fading out), n/p next/previous favourite \
        (onair favourites), q quit. Piped or under systemd it prints plain lines and takes no keys. \
        With a D-Bus session bus it is also an MPRIS player, on a terminal or not: media keys, desktop \
        widgets and playerctl show its title and pause, switch or stop it.

        --normalize levels the station to -16 LUFS (or --normalize-target): its loudness is measured as it \
        plays (EBU R128, integrated since the start), so switching stations does not jump in volume. The \
        first 0.4 s, while it measures, are silent.

        The station is a catalogue id (see `onair stations`) or a URL: a stream, a .pls/.m3u playlist, \
        an HLS playlist or a DASH MPD. onair reconnects on drops and stalls, reporting each gap. HLS and \
        DASH are followed segment by segment: an outage shorter than the playlist's window loses nothing, and whatever \
        did expire is reported as a gap with its length.

        Examples:
          onair listen http://127.0.0.1:8000/demo.mp3 --sink wav:demo.wav --duration 30
          onair listen somafm-groovesalad --sink stdout | aplay -f S16_LE -r 48000 -c 2
          onair listen fip --sink wav:fip.wav --json
          onair listen bbc-radio-4 --from 06:00 --sink wav:today.wav --duration 3h
          onair listen fip --to speaker --to fifo:/tmp/snapfifo
          onair listen fip --normalize

        Exit codes: 0 stopped or duration reached; 1 the stream could not be played; \
        2 a sink failed; 3 configuration error (catalogue, unknown station); 64 usage error.
        """
    )

    @OptionGroup var stream: StationOptions

    @Option(name: .long, help: ArgumentHelp("Where the PCM goes, e.g. wav:PATH or stdout (default: speaker on a terminal, stdout when piped); "
                                            + "--to adds more.", valueName: "sink"))
    var sink: String?

    @OptionGroup var outputs: RelayOutputOptions

    @OptionGroup var loudness: LoudnessOptions

    @Flag(help: "Do not send the songs heard to ListenBrainz (they are sent once logged in: onair scrobble login).")
    var noScrobble = false

    @Option(help: ArgumentHelp("Stop after this much audio (seconds, or 90s, 45m, 1h30m).", valueName: "duration"))
    var duration: String?

    func validate() throws {
        if let duration, TimeSpan(duration) == nil {
            throw ValidationError("invalid --duration '\(duration)': use seconds or a span like 90s, 45m, 1h30m")
        }
    }

    func run() throws {
        try reportingFailures {
            let sinks = try chosenSinks()
            var run = StationRun(station: stream, sinks: sinks, pacing: outputs.pacing, metaFIFO: outputs.metaFIFO,
                                 duration: duration.flatMap { TimeSpan($0)?.seconds })
            run.scrobbler = noScrobble ? nil : ScrobbleCommand.scrobbler()
            let interactive = TerminalSession.isInteractive && !stream.json && !sinks.contains(.stdout)
            // Without a view the player is there for --normalize and the desktop's media keys (MPRIS, with a session bus).
            guard interactive || loudness.target != nil || MPRISPlayer.sessionBusConfigured else {
                try run.run()
                return
            }
            let store = try? PlayerSupport.openStore()
            var terminal: TerminalSession?
            if interactive {
                do { terminal = try TerminalSession() } catch { throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration) }
            }
            defer { terminal?.restore() }
            run.player = LiveRun.Player(controls: PlayerSupport.controls(for: sinks, onDemand: false), terminal: terminal, store: store)
            run.player?.normalizeTarget = loudness.target
            // n/p (or the desktop's next/previous) step through the favourites, from the station playing (or the first).
            while case .switchFavourite(let step) = try run.run() {
                let favourites = (try? store?.favourites()) ?? []
                guard !favourites.isEmpty else { break }
                let current = favourites.firstIndex { $0.station == run.station.station } ?? (step > 0 ? -1 : 0)
                run.station.station = favourites[((current + step) % favourites.count + favourites.count) % favourites.count].station
            }
        }
    }

    /// `--sink` and every `--to`; the speaker on a terminal, stdout when piped, when neither is given.
    private func chosenSinks() throws -> [SinkSpec] {
        var sinks = try outputs.specs()
        if let sink {
            do { sinks.insert(try SinkSpec(parsing: sink), at: 0) } catch { throw ValidationError("\(error)") }
        }
        guard sinks.isEmpty else { return sinks }
        return Console.standardOutputIsTerminal ? [.speaker] : [.stdout]
    }
}
