import ArgumentParser
import ClipDetection
import Engine
import Foundation
import Media
import RadioModel
import Recording
import StreamInput

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record stations to files: as they are sent (no re-encoding), tagged, with chapters.",
        discussion: """
        Each station is copied packet by packet into its natural container — MP3 with ID3v2 tags and \
        chapters, AAC into .m4a with MP4 chapters, Opus and Vorbis into .opus/.ogg — unless --format asks \
        for re-encoding. Titles become chapters and a .cue sheet, timed from the stream's own timestamps; \
        gaps (reconnects, lost HLS or DASH segments) become chapters and a tag. Several stations record at once in \
        one process.

        While recording, the audio goes to a hidden partial file beside the final one (".NAME.partial.EXT", \
        playable as it grows, written out every second and synced every 5 s) with a journal of titles and \
        gaps. Ctrl-C or SIGTERM finishes every file properly; after a crash or power cut, `onair recover` \
        finishes what was left. A full disk stops only that recording, keeping what was written.

        Output templates take {station} {programme} {title} {date} {time} {ext}; the default is \
        "{station}/{date} {time} {programme}.{ext}" ("{station}/{date} {time} {title}.{ext}" with \
        --split-tracks) under the recordings directory ($XDG_MUSIC_DIR/onair, or $ONAIR_HOME/recordings). \
        With --split-tracks, a station that sends no titles is cut where the known clips (onair clips) begin and end, \
        each clip's track named after it. A relative --output is relative to the current directory. An existing file is never replaced: the \
        new one gets " (2)". Finished recordings are listed by `onair recordings`.

        Examples:
          onair record fip --duration 1h
          onair record fip radio-paradise --until 21:00 --tz Europe/Paris
          onair record bbc-radio-4 --programme today
          onair record http://127.0.0.1:8000/demo.mp3 --duration 90s --output 'demo/{date} {time}.{ext}'
          onair record somafm-groovesalad --split-tracks --skip '(?i)advert|jingle' --duration 2h
          onair record fip --format opus --duration 45m --json

        Exit codes: 0 every recording finished; 1 a stream could not be played; 2 a recording failed \
        (disk full, write error: its partial file is kept); 3 configuration error (catalogue, unknown \
        station or programme, or the recordings index cannot be opened); 64 usage error.
        """
    )

    @Argument(help: "Stations to record: catalogue ids or stream/playlist URLs. Several record at once.")
    var stations: [String]

    @Option(help: ArgumentHelp("Stop after this much audio (seconds, or 90s, 45m, 1h30m).", valueName: "duration"))
    var duration: String?

    @Option(help: ArgumentHelp("Stop at this time: HH:MM[:SS] (its next occurrence) or an ISO 8601 date.", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Time zone of --until (IANA name, e.g. Europe/Paris). Default: this machine's.", valueName: "zone"))
    var tz: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Where the files go: a path or a template with {station} {programme} "
                                                      + "{title} {date} {time} {ext}.", valueName: "path"))
    var output: String?

    @Option(help: "copy (as sent, the default), or re-encode: mp3, m4a, opus, flac.")
    var format: RecordingFormat = .copy

    @Flag(help: "One file per title, cut at the quietest moment near each title change.")
    var splitTracks = false

    @Flag(help: Self.normalizeHelp)
    var normalize = false

    /// `record --normalize` and `daemon --normalize`.
    static let normalizeHelp = ArgumentHelp("Measure each finished recording's loudness (EBU R128) into the index and its ReplayGain "
                                            + "tags, so that `play --normalize` and other players level it; the audio stays as sent. "
                                            + "Costs one more decode of each file.")

    @Option(help: ArgumentHelp("With --split-tracks: leave out titles matching this regular expression (ads, jingles).",
                               valueName: "regex"))
    var skip: String?

    @Option(help: ArgumentHelp("With --split-tracks: seconds searched for silence on each side of a title change.",
                               valueName: "duration"))
    var splitWindow: String = "4s"

    @Option(help: ArgumentHelp("With --split-tracks: audio before each cut repeated at the start of the next track.",
                               valueName: "duration"))
    var padBefore: String = "0s"

    @Option(help: ArgumentHelp("With --split-tracks: audio after each cut kept at the end of the previous track.",
                               valueName: "duration"))
    var padAfter: String = "0s"

    @Option(help: ArgumentHelp("Record this programme of the (one) station: it names and tags the file, and without "
                               + "--duration/--until the recording ends with the programme's current broadcast.",
                               valueName: "id"))
    var programme: String?

    @Option(help: "HLS variant (from a master playlist) or DASH representation to pick: low or high.")
    var quality: StreamQuality = .high

    @Option(help: "Seconds without data after which the connection is replaced.")
    var stallTimeout: Double = 15

    @Option(help: "Seconds to wait for a connection.")
    var connectTimeout: Double = 10

    @Flag(help: ArgumentHelp("Print events as JSON lines, each with its station: recording-started, recording-progress, "
                             + "recording-finished, recording-failed, and the stream's own (connected, metadata, gap, …)."))
    var json = false

    @OptionGroup var alerts: AlertOptions

    /// Where the finished recordings are indexed: a shared database (`--database`), else the data directory's.
    @OptionGroup var database: SharedDatabaseOption

    @Flag(help: "Show FFmpeg's own warnings.")
    var verbose = false

    func validate() throws {
        guard !stations.isEmpty else { throw ValidationError("name at least one station or URL to record") }
        if duration != nil && until != nil { throw ValidationError("give --duration or --until, not both") }
        if let duration, TimeSpan(duration).map({ $0.seconds > 0 }) != true {
            throw ValidationError("invalid --duration '\(duration)': use seconds or a span like 90s, 45m, 1h30m")
        }
        if let tz, TimeZone(identifier: tz) == nil {
            throw ValidationError("unknown --tz '\(tz)': use an IANA name like Europe/Paris or UTC")
        }
        if let until, Timestamp.parseUpcoming(until, timeZone: untilZone) == nil {
            throw ValidationError("invalid --until '\(until)': use HH:MM[:SS] or an ISO 8601 date like 2026-11-22T21:00")
        }
        if let output {
            do { _ = try FileNameTemplate(output) } catch { throw ValidationError("\(error)") }
        }
        if !splitTracks, skip != nil { throw ValidationError("--skip only applies with --split-tracks") }
        if let skip, (try? NSRegularExpression(pattern: skip)) == nil {
            throw ValidationError("invalid --skip '\(skip)': not a regular expression")
        }
        for (name, value) in [("--split-window", splitWindow), ("--pad-before", padBefore), ("--pad-after", padAfter)]
            where TimeSpan(value) == nil {
            throw ValidationError("invalid \(name) '\(value)': use seconds or a span like 2s")
        }
        if programme != nil, stations.count != 1 { throw ValidationError("--programme needs exactly one station") }
        if stallTimeout <= 0 || connectTimeout <= 0 { throw ValidationError("timeouts must be positive") }
    }

    func run() throws {
        try reportingFailures(record)
    }

    private var untilZone: TimeZone { tz.flatMap(TimeZone.init(identifier:)) ?? .current }

    private func record() throws {
        OpenFileLimit.raiseToHardLimit()
        FFmpegLogging.configure(verbose: verbose)
        let paths = CatalogueAccess.paths
        let targets = try stations.map { try StreamTarget.named($0) }
        let chosenProgramme = try programme.map { try targets[0].programme(id: $0) }
        var deadline = until.flatMap { Timestamp.parseUpcoming($0, timeZone: untilZone) }
        if duration == nil, deadline == nil, let chosenProgramme {
            guard let end = chosenProgramme.currentBroadcastEnd else {
                throw CommandFailure(message: "programme '\(chosenProgramme.label.id)' is not on air now; "
                                     + "give --duration or --until to record anyway", exitCode: ExitStatus.configuration)
            }
            deadline = end
        }
        let template: FileNameTemplate
        let base: URL
        if let output {
            template = try FileNameTemplate(output)
            base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        } else {
            template = splitTracks ? .tracks : .standard
            base = paths.recordings
        }
        let finaliser = Finaliser(index: try database.recordingsIndex(), measuresLoudness: normalize)
        let reporter = RecordingReporter(json: json)
        let split = splitTracks ? SplitOptions(window: TimeSpan(splitWindow)!.seconds, padBefore: TimeSpan(padBefore)!.seconds,
                                               padAfter: TimeSpan(padAfter)!.seconds, skip: skip) : nil

        var options = LiveStreamOptions()
        options.connectTimeout = connectTimeout
        options.stallTimeout = stallTimeout
        options.quality = quality
        // Split into tracks, a station that names none is cut where the library's clips begin and end; without the
        // library, on its titles alone.
        var clips: (index: ClipIndex, airings: any AiringStorage)?
        if splitTracks {
            do { clips = try knownClips() } catch { Console.message("the known clips do not split this recording: \(error)") }
        }
        var recordings: [StationRecording] = []
        for target in targets {
            var stationOptions = options
            stationOptions.titleCharset = target.titleCharset
            let plan = target.recordingPlan(programme: chosenProgramme?.label, template: template, base: base, format: format)
            let station = plan.station.id
            recordings.append(try StationRecording(
                target: target, plan: plan, duration: duration.flatMap { TimeSpan($0)?.seconds }, split: split, options: stationOptions,
                alerts: alerts.rules, finaliser: finaliser, observers: [EventTap(label: "report") { reporter.report(station: station, $0) }],
                onRecordingEvent: { reporter.report(station: station, $0) }))
            if let clips, let connection = recordings.last?.connection {
                let clock = connection.clock, airings = clips.airings, watched = URLRedaction.redact(target.identifier)
                connection.attach(try ClipsCommand.run { () throws(ClipError) in
                    try ClipWatch.publishing(into: connection.pipeline, index: clips.index, station: watched, clock: { clock.now }) { sighting in
                        do { try airings.add(sighting) } catch { Console.message("\(station): the airing of \"\(sighting.clip)\" is not kept: \(error)") }
                    }
                })
            }
        }

        let started = recordings
        let stopAll: @Sendable () -> Void = { started.forEach { $0.stop() } }
        let trap = SignalTrap(stopAll)
        if let deadline {
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + max(0, deadline.timeIntervalSinceNow), execute: stopAll)
        }
        recordings.forEach { $0.start() }
        reporter.follow(recordings.map { ($0.station, $0.recorder) })
        recordings.forEach { $0.waitUntilFinished() }
        finaliser.waitUntilIdle()
        reporter.stop()
        withExtendedLifetime(trap) {}

        if let failed = recordings.first(where: { $0.recordingFailure != nil }) {
            throw CommandFailure(message: "\(failed.station): \(failed.recordingFailure!)", exitCode: ExitStatus.sinkFailed)
        }
        if let failed = recordings.first(where: { $0.streamFailure != nil }) {
            throw CommandFailure(message: "\(failed.station): \(failed.streamFailure!)", exitCode: ExitStatus.streamFailed)
        }
    }

    /// The clip library's index and airing log, if it holds clips.
    private func knownClips() throws -> (index: ClipIndex, airings: any AiringStorage)? {
        let stores = try database.clipStores()
        let clips = try ClipsCommand.run { () throws(ClipError) in try stores.library.all() }
        return clips.isEmpty ? nil : (ClipIndex(clips), stores.airings)
    }
}

extension RecordingFormat: ExpressibleByArgument {}
