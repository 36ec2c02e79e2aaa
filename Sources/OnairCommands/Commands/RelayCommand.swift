import ArgumentParser
import Engine

struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Relay a live station to Snapcast, PulseAudio, ALSA, a TCP receiver, HTTP listeners or an Icecast server, until stopped.",
        discussion: """
        One upstream connection feeds every sink. The fifo, tcp and audio-device sinks are written at \
        exactly the wall-clock rate of the PCM format from a small buffer (--buffer): when the station \
        stalls or reconnects they get silence, so a reader such as snapserver never starves, and the \
        audio resumes when the station does. A FIFO without a reader, a TCP receiver that is away and \
        a sound server that is down are retried while the station plays on; when they come back they \
        get live audio, not a backlog. See docs/relay.md for Snapcast and PulseAudio setups.

        --normalize levels the station's loudness (EBU R128, to -16 LUFS or --normalize-target) in what \
        the relay decodes — the PCM sinks and the HTTP mounts that encode (?format=) — so that switching \
        stations does not jump in volume; an HTTP mount or Icecast push of the stream as sent stays as sent.

        Examples:
          onair relay fip --to fifo:/tmp/snapfifo
          onair relay fip --to fifo:/tmp/snapfifo --meta-fifo /tmp/snapfifo.meta
          onair relay http://127.0.0.1:8000/demo.mp3 --to tcp:192.168.1.20:4953 --to speaker
          onair relay fip --to pulse:livingroom.local --pcm 44100:16:2
          onair relay fip --to http://127.0.0.1:8080/fip --to 'http://127.0.0.1:8080/fip.opus?format=opus:96'
          onair relay fip --to icecast://source:secret@127.0.0.1:8000/fip.mp3
          onair relay fip --to fifo:/tmp/snapfifo --normalize

        Exit codes: 0 stopped (Ctrl-C, SIGTERM); 1 the stream could not be played (see \
        --max-reconnects); 2 a sink could not be opened or failed; 3 configuration error; 64 usage error.
        """
    )

    @OptionGroup var stream: StationOptions
    @OptionGroup var outputs: RelayOutputOptions
    @OptionGroup var loudness: LoudnessOptions

    func validate() throws {
        guard !outputs.sinks.isEmpty else {
            throw ValidationError("name at least one sink with --to, e.g. --to fifo:/tmp/snapfifo")
        }
    }

    func run() throws {
        try reportingFailures {
            let sinks = try outputs.specs()
            var run = StationRun(station: stream, sinks: sinks, pacing: outputs.pacing, metaFIFO: outputs.metaFIFO)
            if let target = loudness.target {
                // The player's stage levels the PCM, as for listen; nobody pauses or turns a relay down.
                run.player = LiveRun.Player(controls: PlayerSupport.controls(for: sinks, onDemand: false), terminal: nil, store: nil)
                run.player?.normalizeTarget = target
                run.player?.onDesktop = false
            }
            try run.run()
        }
    }
}
