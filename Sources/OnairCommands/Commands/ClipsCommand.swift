import ArgumentParser
import ClipDetection
import Foundation
import Media
import Podcasts
import RadioModel
import Store

struct ClipsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clips",
        abstract: "Keep the reference clips (songs, jingles, ads, station IDs) stations are watched for.",
        discussion: """
        A clip is known by its sound: its Chromaprint fingerprint, taken from a file or a stretch of one \
        (--start, --length), is kept in onair's database with its name and kind. A clip is 8 s to 15 min \
        of audio.

        Examples:
          onair clips add spot.mp3 --name "Summer sale" --kind ad
          onair clips add jingles.wav --start 12.5 --length 8 --name "Station ID" --kind id
          onair clips list
          onair clips remove "Summer sale"

        Exit codes: 0 success; 3 a file that cannot be read or a name already taken; 4 no clip by that name.
        """,
        subcommands: [Add.self, List.self, Remove.self]
    )

    /// The clips and airings: in the database daemons share when ONAIR_DATABASE_URL names one (a clip added once is
    /// listened for by every daemon), else in the data directory's.
    static func stores() throws -> ClipStores { try SharedDatabaseOption.parse([]).clipStores() }

    /// A clip failure (a file, a name taken) is the user's to fix: exit 3.
    static func run<T>(_ body: () throws(ClipError) -> T) throws -> T {
        do { return try body() } catch { throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration) }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fingerprint FILE, a recording or a podcast episode (or a stretch of it) and keep it as a clip.",
            discussion: """
            Examples:
              onair clips add spot.mp3 --name "Summer sale" --kind ad
              onair clips add --from 42 --start 1805 --length 30 --name "Station ID" --kind id
              onair clips add --episode 7 --start 60 --length 45 --name "Theme" --kind jingle
            """
        )
        @Argument(help: "An audio file any of onair's decoders reads.") var file: String?
        @Option(name: .customLong("from"), help: ArgumentHelp("A recording's id (onair recordings) to cut it from.", valueName: "recording"))
        var recording: Int64?
        @Option(help: ArgumentHelp("A podcast episode's id (onair podcasts episodes) to cut it from; downloaded if it is not yet.",
                                   valueName: "id")) var episode: Int64?
        @Option(help: "The clip's name (default: the file's name without its extension, or the recording's or episode's title).") var name: String?
        @Option(help: ArgumentHelp("song, jingle, ad or id.", valueName: "kind")) var kind: ReferenceClip.Kind = .song
        @Option(help: ArgumentHelp("Seconds into the audio where the clip starts.", valueName: "seconds")) var start: Double = 0
        @Option(help: ArgumentHelp("Seconds of the clip (default: to the end).", valueName: "seconds")) var length: Double?

        func validate() throws {
            guard [file != nil, recording != nil, episode != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("give one of FILE, --from RECORDING or --episode ID")
            }
            guard start >= 0, start.isFinite else { throw ValidationError("--start must be 0 or more seconds") }
            if let length, !(length > 0 && length.isFinite) { throw ValidationError("--length must be more than 0 seconds") }
        }

        /// The audio's path and the name a clip of it takes by default.
        private func source() throws -> (path: String, name: String) {
            if let file { return (file, URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent) }
            if let recording {
                let entry = try RecordingsCommand.entry(recording, in: try RecordingsCommand.openIndex())
                return (entry.file, entry.episodeTitle ?? entry.programmeName ?? entry.stationName)
            }
            let store = try PodcastsCommand.openStore()
            let id = episode ?? 0
            do {
                guard let found = try store.episode(id: id) else {
                    throw CommandFailure(message: "no podcast episode \(id) (see onair podcasts episodes)", exitCode: ExitStatus.notFound)
                }
                return (try PodcastsCommand.fetcher(store).download(found), found.title)
            } catch let error as PodcastError {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
            }
        }

        func run() throws {
            try reportingFailures {
                FFmpegLogging.configure(verbose: false)
                let library = try ClipsCommand.stores().library
                let (path, defaultName) = try source()
                let clipName = name ?? defaultName
                let clip = try ClipsCommand.run { () throws(ClipError) in
                    let (seconds, fingerprint) = try ClipFile.fingerprint(path, start: start, length: length)
                    return try library.add(name: clipName, kind: kind, seconds: seconds, fingerprint: fingerprint)
                }
                Console.message("Added clip \(clip.id) \"\(clip.name)\" (\(clip.kind.rawValue), \(String(format: "%.1f", clip.seconds)) s).")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the clips.")
        @Flag(help: "As JSON.") var json = false

        struct Shown: Encodable {
            let id: Int64
            let name: String
            let kind: String
            let seconds: Double
            /// Learned from a station that named it (onair daemon --learn-tracks).
            let learned: Bool
        }

        func run() throws {
            try reportingFailures {
                let library = try ClipsCommand.stores().library
                let clips = try ClipsCommand.run { () throws(ClipError) in try library.all() }
                let shown = clips.map { Shown(id: $0.id, name: $0.name, kind: $0.kind.rawValue, seconds: ($0.seconds * 10).rounded() / 10, learned: $0.learned) }
                if json { return Console.json(shown) }
                if shown.isEmpty { return Console.message("No clips: onair clips add FILE --name NAME --kind ad") }
                for clip in shown {
                    print("\(clip.id)\t\(clip.kind)\t\(String(format: "%.1f", clip.seconds)) s\t\(UntrustedText.printable(clip.name))\(clip.learned ? "\t(learned)" : "")")
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the clip with this name (or id); its airings stay in onair aired.")
        @Argument(help: "The clip's name, or its id.") var clip: String

        func run() throws {
            try reportingFailures {
                let library = try ClipsCommand.stores().library
                guard let removed = try ClipsCommand.run({ () throws(ClipError) in try library.remove(clip) }) else {
                    throw CommandFailure(message: "no clip '\(clip)' (see onair clips list)", exitCode: ExitStatus.notFound)
                }
                Console.message("Removed clip \(removed.id) \"\(removed.name)\".")
            }
        }
    }
}

extension ReferenceClip.Kind: ExpressibleByArgument {}
