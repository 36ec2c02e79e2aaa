import ArgumentParser
import Foundation
import Engine
import Guide
import RadioModel
import Store

struct GuideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guide",
        abstract: "Programme guides (XMLTV): import them, map their channels to stations, see what is on.",
        discussion: """
        `onair guide import` reads an XMLTV file or URL; a URL is remembered, and `onair daemon` asks \
        for it again every --guide-refresh (6 h by default) with a conditional request, so a guide that \
        has not changed is neither downloaded nor read again. A new import replaces what an earlier one \
        said of the same time on the same channel, so a broadcast the guide moved is found at its new time.

        A station is found in the guide by its catalogue field "guideID", or by `onair guide map`. Rules \
        made with `onair schedule add STATION --title REGEX` (or --series ID) record every matching \
        broadcast at the times the guide gives.

        Examples:
          onair guide import ~/tv/radio.xml
          onair guide import https://example.org/guide.xml
          onair guide map bbc-radio-3.uk bbc-radio-3
          onair guide bbc-radio-3 --date tomorrow
          onair guide channels

        Exit codes: 0 success; 1 the guide URL could not be fetched; 3 the guide is not XMLTV, the \
        station is unknown or the database cannot be opened; 4 no such channel, or no guide lists the station.
        """,
        subcommands: [Show.self, Import.self, Map.self, Channels.self],
        defaultSubcommand: Show.self
    )

    static func openStore() throws -> GuideStore {
        do {
            return try GuideStore(database: try OnairDatabase(directory: CatalogueAccess.paths.data))
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// Runs a guide operation, reporting its failure as a configuration error.
    static func guiding<T>(exitCode: Int32 = ExitStatus.configuration, _ body: () throws(GuideError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: exitCode)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "What is on a station (or every channel) on a day; ▶ marks what is on now.")

        @Argument(help: "A catalogue station id or URL; without it, every channel of the guide.")
        var station: String?

        @Option(help: ArgumentHelp("The day: today (default), tomorrow, yesterday or YYYY-MM-DD, on the station's clock.", valueName: "date"))
        var date: String?

        @Flag(help: "One JSON object per broadcast.")
        var json = false

        func validate() throws {
            if GuideListing.day(date, in: .current) == nil {
                throw ValidationError("invalid --date '\(date ?? "")': use today, tomorrow, yesterday or YYYY-MM-DD")
            }
        }

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                var listings: [(channel: String, station: Station?, name: String?)] = []
                var zone = TimeZone.current
                if let station {
                    let target = try StreamTarget.named(station)
                    var entry: Station?
                    if case .station(let found) = target { entry = found; zone = TimeZone(identifier: found.timeZone) ?? zone }
                    guard let channel = try guiding({ () throws(GuideError) in
                        try store.channel(forStation: target.identifier, guideID: entry?.guideID)
                    }) else {
                        throw CommandFailure(message: "no imported guide lists \(station) (import one, then: onair guide map CHANNEL \(station))",
                                             exitCode: ExitStatus.notFound)
                    }
                    listings = [(channel, entry, target.identifier)]
                } else {
                    let catalogue = try CatalogueAccess.load()
                    listings = try guiding { () throws(GuideError) in try store.channelStations(in: catalogue) }.map { ($0.id, $2, $1) }
                }
                let day = GuideListing.day(date, in: zone)!
                var rows: [[String]] = []
                for listing in listings {
                    let entries = try guiding { () throws(GuideError) in
                        try store.listing(channel: listing.channel, station: listing.name, day: day, zone: zone, language: listing.station?.language)
                    }
                    if json { entries.forEach { Console.json($0) }; continue }
                    rows += entries.map { entry in
                        [(entry.onAir ? "▶ " : "  ") + Self.clock(entry.startLocal) + "–" + Self.clock(entry.stopLocal),
                         listing.station?.name ?? listing.name ?? entry.channel, entry.title, entry.episode ?? "", entry.subTitle ?? ""]
                    }
                }
                guard !json else { return }
                print(rows.isEmpty ? "Nothing in the guide for that day." : TextTable.render(rows, maxWidths: [nil, 24, 40, 12, 50]))
            }
        }

        /// "20:00" from "2026-11-24T20:00:00+01:00".
        private static func clock(_ local: String) -> String {
            String(local.dropFirst(11).prefix(5))
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "import", abstract: "Import an XMLTV guide from a file or a URL (a URL is refreshed by the daemon).")

        @Argument(help: "An XMLTV file, or an http(s) URL.")
        var source: String

        @Flag(help: "Print what was imported as JSON.")
        var json = false

        func run() throws {
            try reportingFailures {
                let store = try openStore()
                let outcome: GuideFetch.Outcome
                if source.contains("://") {
                    outcome = try guiding(exitCode: ExitStatus.streamFailed) { () throws(GuideError) in try GuideFetch.refresh(source, into: store) }
                } else {
                    outcome = .imported(try guiding { () throws(GuideError) in try GuideFetch.importFile(source, into: store) })
                }
                ScheduleCommand.pokeDaemon()
                switch outcome {
                case .notModified:
                    json ? Console.json(["notModified": true]) : print("The guide has not changed since it was last imported.")
                case .imported(let summary):
                    if json { return Console.json(summary) }
                    print("Imported \(summary.broadcasts) broadcast\(summary.broadcasts == 1 ? "" : "s") on \(summary.channels) channel\(summary.channels == 1 ? "" : "s")"
                          + (summary.replaced > 0 ? " (replacing \(summary.replaced) from an earlier import)" : ""))
                    summary.skipped.prefix(10).forEach { Console.message("skipped \($0)") }
                    if summary.skipped.count > 10 { Console.message("… and \(summary.skipped.count - 10) more skipped") }
                }
            }
        }
    }

    struct Map: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "map", abstract: "Say which station a guide channel is.")

        @Argument(help: "The channel id in the guide (see: onair guide channels).")
        var channel: String

        @Argument(help: "A catalogue station id, or a stream URL.")
        var station: String

        func run() throws {
            try reportingFailures {
                let target = try StreamTarget.named(station)
                let store = try openStore()
                guard try guiding({ () throws(GuideError) in try store.map(channel: channel, to: target.identifier) }) != nil else {
                    throw CommandFailure(message: "the guide has no channel '\(channel)' (see: onair guide channels)", exitCode: ExitStatus.notFound)
                }
                print("\(channel) is \(target.displayName)")
            }
        }
    }

    struct Channels: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "channels", abstract: "The guide's channels and the stations they are mapped to.")

        @Flag(help: "One JSON object per channel.")
        var json = false

        func run() throws {
            try reportingFailures {
                let catalogue = try CatalogueAccess.load()
                let store = try openStore()
                let rows = try guiding { () throws(GuideError) in try store.channelStations(in: catalogue) }.map { ($0.channel, $0.station) }
                if json {
                    return rows.forEach { Console.json(["channel": $0.id, "name": $0.names.first?.text ?? "", "station": $1 ?? ""]) }
                }
                print(rows.isEmpty ? "No guide imported yet (onair guide import FILE|URL)."
                      : TextTable.render(rows.map { [$0.id, $0.names.first?.text ?? "", $1.map { "→ \($0)" } ?? "(not mapped)"] }))
            }
        }
    }
}
