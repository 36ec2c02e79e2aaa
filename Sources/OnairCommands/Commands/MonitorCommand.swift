import ArgumentParser
import ClipDetection
import Engine
import Foundation
import Media
import RadioModel
import StreamInput

struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Watch stations for the known clips (onair clips) as they play, without recording.",
        discussion: """
        Each station is decoded as it arrives and fingerprinted; every clip of the library that airs is told \
        once it has ended (or stopped airing), and kept for `onair aired`: which clip, when it began on the station's clock (HLS's own \
        program-date-time, else when the audio arrived), for how long, and how much of it when it was cut short \
        or joined late. With --json, one object per event: \
        {"event":"clip-matched","clip":…,"kind":…,"station":…,"start":…,"end":…,"mediaTime":…,"offset":…,"score":…,"partial":…}.

        Examples:
          onair monitor fip bbc-radio-4 --json
          onair monitor http://127.0.0.1:8000/demo.mp3 --duration 1h

        Exit codes: 0 stopped or duration reached; 1 a stream could not be played; 3 no clips, or a station \
        that is not in the catalogue.
        """
    )

    @Argument(help: ArgumentHelp("Catalogue ids or stream URLs.", valueName: "station")) var stations: [String]
    @Option(help: ArgumentHelp("Stop after this much audio (seconds, or 90s, 45m, 1h30m).", valueName: "duration")) var duration: String?
    @Flag(help: "One JSON object per line for each event.") var json = false
    @Flag(help: "FFmpeg's own warnings too.") var verbose = false

    func validate() throws {
        guard !stations.isEmpty else { throw ValidationError("name at least one station") }
        if let duration, TimeSpan(duration) == nil {
            throw ValidationError("invalid --duration '\(duration)': use seconds or a span like 90s, 45m, 1h30m")
        }
    }

    func run() throws {
        try reportingFailures {
            FFmpegLogging.configure(verbose: verbose)
            let stores = try ClipsCommand.stores()
            let clips = try ClipsCommand.run { () throws(ClipError) in try stores.library.all() }
            guard !clips.isEmpty else {
                throw CommandFailure(message: "no clips to watch for: add some with onair clips add FILE", exitCode: ExitStatus.configuration)
            }
            let index = ClipIndex(clips)
            let airings = stores.airings
            let reporter = RecordingReporter(json: json)
            // Chromaprint's own rate, mono: the pipeline resamples (FFmpeg), so the fingerprinter does not.
            let format = PCMFormat(sampleRate: Fingerprint.sampleRate, bitsPerSample: 16, channels: 1)
            var connections: [StationConnection] = []
            for name in stations {
                let target = try StreamTarget.named(name)
                // As the daemon names it: a URL is its own name (two streams of one host stay apart), its password masked.
                let station = URLRedaction.redact(target.identifier)
                var options = LiveStreamOptions()
                options.titleCharset = target.titleCharset
                let connection = try StationConnection(target: target, options: options, format: format,
                                                       stopAfter: duration.flatMap { TimeSpan($0)?.seconds }, endsWhenConsumersFail: true)
                let clock = connection.clock
                // Each airing told and kept (for `onair aired`) as it is found, a few a minute at most.
                let watch = try ClipsCommand.run { () throws(ClipError) in
                    try ClipWatch(index: index, station: station, format: format, clock: { clock.now }) { sighting in
                        reporter.report(station: station, .clipMatched(sighting))
                        do { try airings.add(sighting) } catch { Console.message("\(station): the airing of \"\(sighting.clip)\" is not kept: \(error)") }
                    }
                }
                connection.attach(EventTap(label: "report") { reporter.report(station: station, $0) })
                connection.attach(watch)
                connections.append(connection)
            }
            let started = connections
            let trap = SignalTrap { started.forEach { $0.stop() } }
            connections.forEach { $0.start() }
            connections.forEach { $0.waitUntilFinished() }
            withExtendedLifetime(trap) {}
            if let failed = connections.first(where: { $0.streamFailure != nil }) {
                throw CommandFailure(message: "\(failed.target.label.id): \(failed.streamFailure!)", exitCode: ExitStatus.streamFailed)
            }
        }
    }
}
