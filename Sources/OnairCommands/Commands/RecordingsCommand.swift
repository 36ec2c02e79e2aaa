import ArgumentParser
import Foundation
import Library
import RadioModel
import Recording
import Scheduling

struct RecordingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordings",
        abstract: "List, show and remove finished recordings.",
        discussion: """
        Every recording `onair record` or `onair recover` finishes is entered in an index \
        ($XDG_DATA_HOME/onair/onair.sqlite, or $ONAIR_HOME/data): station, programme, start and end \
        (UTC and the station's local time), file, size, duration, codec, titles and gaps, and its loudness \
        (EBU R128, measured when it was finished and written into the file as a ReplayGain tag, or \
        R128_TRACK_GAIN in Opus; `onair play --normalize` levels by it).

        A recording marked with `keep` is never deleted by retention (a rule's --keep or --keep-days, the \
        daemon's --min-free); `unkeep` lets retention have it again.

        Examples:
          onair recordings
          onair recordings show 12
          onair recordings remove 12
          onair recordings keep 12
          onair recordings list --json

        Exit codes: 0 success; 3 the index cannot be opened; 4 no recording with that id.
        """,
        subcommands: [List.self, Show.self, Remove.self, Keep.self, Unkeep.self],
        defaultSubcommand: List.self
    )

    /// The index for the commands without `--database` (play, cast, playlists): shared when
    /// ONAIR_DATABASE_URL names a database, else the data directory's.
    static func openIndex() throws -> any RecordingsIndexing {
        try SharedDatabaseOption.parse([]).recordingsIndex()
    }

    /// "-23.4 LUFS", or "-" when not measured (silence, or finalised before onair measured loudness).
    static func loudness(_ lufs: Double?) -> String {
        lufs.map { String(format: "%.1f LUFS", $0) } ?? "-"
    }

    static func entry(_ id: Int64, in index: any RecordingsIndexing) throws -> IndexedRecording {
        do {
            guard let entry = try index.recording(id: id) else {
                throw CommandFailure(message: "no recording with id \(id) (see: onair recordings)", exitCode: ExitStatus.notFound)
            }
            return entry
        } catch let error as RecordingError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the recordings, oldest first.")
        @OptionGroup var database: SharedDatabaseOption

        @Option(help: ArgumentHelp("Only this programme's episodes: its recordings and what an attached podcast published "
                                   + "(onair podcasts attach), as one list by date.", valueName: "programme"))
        var programme: String?

        @Flag(help: "One JSON object per recording.")
        var json = false

        func run() throws {
            try reportingFailures {
                if let programme { return try RecordingsCommand.listEpisodes(of: programme, json: json) }
                let entries: [IndexedRecording]
                do {
                    entries = try database.recordingsIndex().all()
                } catch let error as RecordingError {
                    throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
                }
                if json {
                    entries.forEach { Console.json($0) }
                    return
                }
                guard !entries.isEmpty else {
                    Console.message("No recordings yet (record one with: onair record STATION --duration 1h)")
                    return
                }
                let rows = [["ID", "START", "STATION", "WHAT", "LENGTH", "SIZE", "LOUDNESS", "KEPT", "FILE"]] + entries.map { entry in
                    [String(entry.id ?? 0), String(entry.startLocal.prefix(16)).replacingOccurrences(of: "T", with: " "),
                     entry.stationName, entry.programmeName ?? entry.titles.first?.title ?? "",
                     ClockText.of(entry.duration), RecordingReporter.size(entry.size),
                     RecordingsCommand.loudness(entry.loudness), entry.kept ? "kept" : "", entry.file]
                }
                print(TextTable.render(rows, maxWidths: [nil, nil, 20, 40, nil, nil, nil, nil, nil]))
            }
        }
    }

    /// What `onair play PROGRAMME` would queue, and when each was recorded or published.
    fileprivate static func listEpisodes(of programme: String, json: Bool) throws {
        let resolver = try LibraryAccess.resolver()
        let episodes = try LibraryAccess.run { () throws(LibraryError) in try resolver.episodes(ofProgramme: programme) }
        if json { return episodes.forEach { Console.json($0) } }
        guard !episodes.isEmpty else { return Console.message("No episodes of \(programme) yet") }
        print(TextTable.render([["ITEM", "DATE", "LENGTH", "TITLE"]] + episodes.map { episode in
            [episode.item.reference, episode.date.map { ScheduleTimes.utc($0) } ?? "", episode.duration.map { ClockText.of($0) } ?? "",
             episode.item.title]
        }, maxWidths: [nil, nil, nil, 60]))
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one recording with its titles and gaps.")
        @OptionGroup var database: SharedDatabaseOption

        @Argument(help: "The recording's id (see: onair recordings).")
        var id: Int64

        @Flag(help: "As one JSON object.")
        var json = false

        func run() throws {
            try reportingFailures {
                let entry = try RecordingsCommand.entry(id, in: try database.recordingsIndex())
                if json {
                    Console.json(entry)
                    return
                }
                var lines = [
                    "Recording \(id): \(entry.stationName)" + (entry.programmeName.map { " – \($0)" } ?? ""),
                    "  file:      \(entry.file)" + (FileManager.default.fileExists(atPath: entry.file) ? "" : " (missing)"),
                    "  start:     \(entry.startLocal) (\(entry.timeZone))",
                    "  end:       \(entry.endLocal)",
                    "  length:    \(ClockText.of(entry.duration)), \(RecordingReporter.size(entry.size)), "
                        + "\(entry.codec) in \(entry.container)",
                    "  loudness:  \(RecordingsCommand.loudness(entry.loudness))",
                    "  kept:      " + (entry.kept ? "yes (retention never deletes it)" : "no"),
                    "  source:    \(entry.source)",
                ]
                if let cue = entry.cueSheet { lines.append("  cue sheet: \(cue)") }
                if let partial = entry.partial { lines.append("  partial:   \(partial)") }
                if !entry.titles.isEmpty {
                    lines.append("  titles:")
                    lines += entry.titles.map { "    \(ClockText.of($0.start))  \($0.title)" }
                }
                if !entry.gaps.isEmpty {
                    lines.append("  gaps:")
                    lines += entry.gaps.map { String(format: "    %@  %.1f s missing", ClockText.of($0.at), $0.seconds) }
                }
                print(lines.map(TextTable.printable).joined(separator: "\n"))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a recording's file and cue sheet and forget it.")
        @OptionGroup var database: SharedDatabaseOption

        @Argument(help: "The recording's id (see: onair recordings).")
        var id: Int64

        @Flag(help: "Only forget it: leave the file and cue sheet on disk.")
        var keepFile = false

        @Flag(help: "Print what was removed as one JSON object.")
        var json = false

        func run() throws {
            try reportingFailures {
                let index = try database.recordingsIndex()
                let entry = try RecordingsCommand.entry(id, in: index)
                if !keepFile {
                    do {
                        try entry.deleteFiles()
                    } catch {
                        throw CommandFailure(message: "\(error)", exitCode: ExitStatus.sinkFailed)
                    }
                }
                do {
                    _ = try index.remove(id: id)
                } catch {
                    throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
                }
                if json {
                    Console.json(entry)
                } else {
                    Console.message(keepFile ? "Forgot recording \(id) (kept \(entry.file))" : "Removed recording \(id): \(entry.file)")
                }
            }
        }
    }

    struct Keep: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keep", abstract: "Mark a recording kept: retention (--keep, --keep-days, --min-free) never deletes it.")
        @OptionGroup var database: SharedDatabaseOption

        @Argument(help: "The recording's id (see: onair recordings).")
        var id: Int64

        func run() throws {
            try reportingFailures { try RecordingsCommand.setKept(id, true, in: database) }
        }
    }

    struct Unkeep: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unkeep", abstract: "Let retention delete a kept recording again.")
        @OptionGroup var database: SharedDatabaseOption

        @Argument(help: "The recording's id (see: onair recordings).")
        var id: Int64

        func run() throws {
            try reportingFailures { try RecordingsCommand.setKept(id, false, in: database) }
        }
    }

    fileprivate static func setKept(_ id: Int64, _ kept: Bool, in database: SharedDatabaseOption) throws {
        let changed: IndexedRecording?
        do {
            changed = try database.recordingsIndex().setKept(id: id, kept)
        } catch let error as RecordingError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
        guard let changed else {
            throw CommandFailure(message: "no recording with id \(id) (see: onair recordings)", exitCode: ExitStatus.notFound)
        }
        Console.message((kept ? "Keeping recording \(id): retention will not delete " : "Recording \(id) is no longer kept: ")
                        + changed.file)
    }
}
