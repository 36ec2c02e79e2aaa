import ArgumentParser
import Foundation
import Media
import Outputs
import Playback
import RadioModel
import Library
import Sinks
import Scrobbling

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a recording, or a programme's episodes, through the same decoder as live stations.",
        discussion: """
        What to play is a file, a recording's id (see `onair recordings`), a programme id (its \
        recorded episodes in order, hidden ones left out), a podcast episode (episode:ID, streamed \
        with range requests or downloaded first; see `onair podcasts`), or a playlist: playlist:ID, playlist:liked (see `onair playlists`). Each recording resumes where it was left (unless --start), and is \
        marked as heard once played to its end.

        On a terminal it plays on the speakers and shows a view with keys: space pause, ←/→ seek 15 s, \
        [/] speed 0.5×–3× (the pitch stays), ,/. previous/next chapter, </> previous/next in the queue, \
        +/- volume, m mute, s sleep timer (off, 5 … 60 minutes, end of this episode), q quit. With a D-Bus \
        session bus it is also an MPRIS player: media keys, desktop widgets and playerctl pause, seek, \
        skip and stop it.

        --normalize levels each item to -16 LUFS (or --normalize-target) by its ReplayGain or R128 tag, \
        which onair writes into MP3 and Ogg recordings as it finishes them; an item without one is measured \
        as it plays and starts after the 0.4 s that takes.

        Examples:
          onair play ~/Music/onair/fip/2026-11-21.mp3
          onair play 12 --speed 1.5
          onair play bbc-radio-4-today --shuffle --repeat all
          onair play playlist:2
          onair play 12 --start 10m --sink wav:out.wav
          onair play playlist:2 --normalize

        Exit codes: 0 played or stopped; 1 a recording could not be played; 2 a sink failed; \
        3 configuration error; 4 nothing to play by that name; 64 usage error.
        """
    )

    @Argument(help: "A file, a recording id, a programme id, or playlist:ID.")
    var item: String

    @Option(help: ArgumentHelp("Start here (seconds, or 90s, 45m, 1h30m) instead of where it was left.", valueName: "time"))
    var start: String?

    @Option(help: ArgumentHelp("Playing speed, 0.5 to 3; the pitch stays.", valueName: "factor"))
    var speed: Double = 1

    @Flag(help: "Play a programme's episodes in random order.")
    var shuffle = false

    @Option(name: .customLong("repeat"), help: "Repeat: off, one or all.")
    var repeatMode: PlayQueue.Repeat = .off

    @Option(help: ArgumentHelp("Where the PCM goes (default: speaker on a terminal, stdout when piped), e.g. wav:PATH.",
                               valueName: "sink"))
    var sink: String?

    @Option(help: ArgumentHelp("PCM format RATE:BITS:CHANNELS (bits 16 or 32 to change the speed).", valueName: "format"))
    var pcm: String = PCMFormat.snapcastDefault.description

    @OptionGroup var loudness: LoudnessOptions

    @Flag(help: "Print events (playing, ended) as JSON lines.")
    var json = false

    @Flag(help: "Do not send what is heard to ListenBrainz (it is sent once logged in: onair scrobble login).")
    var noScrobble = false

    func validate() throws {
        if let start, TimeSpan(start) == nil { throw ValidationError("invalid --start '\(start)': use seconds or 90s, 45m, 1h30m") }
        guard Tempo.range.contains(speed) else { throw ValidationError("--speed must be between 0.5 and 3") }
        guard PCMFormat(pcm) != nil else { throw ValidationError("invalid --pcm '\(pcm)': use RATE:BITS:CHANNELS") }
    }

    func run() throws {
        try reportingFailures {
            FFmpegLogging.configure(verbose: false)
            let format = PCMFormat(pcm)!
            let spec: SinkSpec
            do {
                spec = try sink.map { try SinkSpec(parsing: $0) } ?? (Console.standardOutputIsTerminal ? .speaker : .stdout)
            } catch { throw ValidationError("\(error)") }
            let store = try PlayerSupport.openStore()
            let queue = PlayQueue(items: try items(), shuffle: shuffle, repeatMode: repeatMode)
            let interactive = TerminalSession.isInteractive && !json && spec != .stdout
            let controls = PlayerSupport.controls(for: [spec], onDemand: true)
            var settings = SinkSettings()
            settings.streamName = queue.current?.title ?? "onair"
            settings.deviceVolume = controls.deviceVolume
            let output: StreamConsumer
            do { output = try SinkFactory.make(spec, format: format, settings: settings) } catch {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.sinkFailed)
            }
            guard let pcmSink = output as? PCMConsumer else {
                output.finish()
                throw ValidationError("\(spec) does not take PCM")
            }
            let stage = PlayerStage(format: format, controls: controls, sinks: [pcmSink], timeShiftSeconds: nil,
                                    normalizer: loudness.target.map { LoudnessNormalizer(format: format, target: $0) })
            let progress = PlayProgress()
            let scrobbler = noScrobble ? nil : ScrobbleCommand.scrobbler()
            let report = PlayReport(json: json, audioOnStandardOutput: spec == .stdout)
            let player = OnDemandPlayer(queue: queue, format: format, controls: controls, stage: stage, speed: speed,
                                        start: start.flatMap { TimeSpan($0)?.seconds }, positions: store) { event in
                switch event {
                case .started(_, _, let duration): progress.noteStart(duration: duration)
                case .ended(let item, let position, let heard):
                    try? store.addHistory(kind: "recording", item: item.path, name: item.title,
                                          started: progress.lastStart, seconds: position)
                    if let scrobbler, let listen = Listen(played: item, to: position, of: progress.duration, toItsEnd: heard, startedAt: progress.lastStart) {
                        scrobbler.heard(listen)
                    }
                case .failed(let item, let reason): progress.note("\(item.path): \(reason)")
                }
                // On a terminal the view shows what plays; lines would scroll it.
                if !interactive { report.report(event) }
            }
            var terminal: TerminalSession?
            if interactive {
                do { terminal = try TerminalSession() } catch {
                    stage.finish()
                    throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
                }
            }
            defer { terminal?.restore() }
            let shownOn = terminal
            let trap = SignalTrap(beforeExit: { shownOn?.restore() }) { player.stop() }
            player.start()
            let desktop = DesktopPlayer.onDemand(player, controls: controls)
            terminal.map(player.run(on:))
            player.waitUntilFinished()
            scrobbler?.waitUntilTried()
            desktop?.stop()
            withExtendedLifetime(trap) {}
            if let failure = progress.first { throw CommandFailure(message: failure, exitCode: ExitStatus.streamFailed) }
        }
    }

    /// A file; a recording by id; a programme's recorded episodes, oldest first; a playlist. What cannot
    /// be played on demand (a live station) is passed over with a note.
    private func items() throws -> [PlayableItem] {
        let resolver = try LibraryAccess.resolver()
        guard let queue = try LibraryAccess.run({ () throws(LibraryError) in try resolver.queue(for: item) }) else {
            throw CommandFailure(message: "no file, recording id, recorded programme or playlist '\(item)' (see: onair recordings, onair playlists)",
                                 exitCode: ExitStatus.notFound)
        }
        queue.skipped.forEach { Console.message("skipping \($0)") }
        guard !queue.items.isEmpty else { throw CommandFailure(message: "nothing to play in '\(item)'", exitCode: ExitStatus.notFound) }
        return queue.items
    }
}

extension PlayQueue.Repeat: ExpressibleByArgument {}

/// What the play thread reported that the command needs afterwards: when the item playing started and how long it
/// is (for the history and the listen) and the first recording that could not be played.
private final class PlayProgress: Sendable {
    private let firstFailure = Locked<String?>(nil)
    private let started = Locked((at: Date(), duration: Double?.none))
    func noteStart(duration: Double?) { started.withLock { $0 = (Date(), duration) } }
    var lastStart: Date { started.current.at }
    var duration: Double? { started.current.duration }
    func note(_ message: String) { firstFailure.withLock { $0 = $0 ?? message } }
    var first: String? { firstFailure.current }
}

/// `play`'s events: plain lines on stderr, or JSON lines.
private struct PlayReport: Sendable {
    let json: Bool
    let audioOnStandardOutput: Bool

    func report(_ event: OnDemandPlayer.Event) {
        switch event {
        case .started(let item, let position, let duration):
            if json {
                Console.json(PlayEvent(event: "playing", file: item.path, title: item.title, position: position,
                                       duration: duration, heard: nil, reason: nil), toStandardError: audioOnStandardOutput)
            } else {
                Console.message("Playing \(item.title) from \(ClockText.of(position))"
                                + (duration.map { " of \(ClockText.of($0))" } ?? ""))
            }
        case .ended(let item, let position, let heard):
            if json {
                Console.json(PlayEvent(event: "ended", file: item.path, title: item.title, position: position,
                                       duration: nil, heard: heard, reason: nil), toStandardError: audioOnStandardOutput)
            } else {
                Console.message(heard ? "Finished \(item.title)" : "Stopped \(item.title) at \(ClockText.of(position))")
            }
        case .failed(let item, let reason):
            if json {
                Console.json(PlayEvent(event: "error", file: item.path, title: item.title, position: nil, duration: nil,
                                       heard: nil, reason: reason), toStandardError: audioOnStandardOutput)
            } else {
                Console.message("error: \(item.path): \(reason)")
            }
        }
    }
}

private struct PlayEvent: Encodable {
    let event: String
    let file: String
    let title: String
    let position: Double?
    let duration: Double?
    let heard: Bool?
    let reason: String?
}
