import ArgumentParser
import Foundation
import Media
import RadioModel

struct StationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stations",
        abstract: "List, search and show the stations in the catalogue; import a playlist of stations.",
        discussion: """
        The catalogue is the stations.json shipped with onair plus your own file \
        ($XDG_CONFIG_HOME/onair/stations.json, or $ONAIR_HOME/config/stations.json); a station of yours \
        with the same id replaces the shipped one. The format is described in docs/catalogue-schema.md. \
        Set ONAIR_STATIONS to use another shipped file.

        Examples:
          onair stations                   every station
          onair stations jazz              match names, ids, tags, country, language
          onair stations radio gb          every word must match
          onair stations show bbc-radio-3  one station's streams and programmes
          onair stations --json | jq -r .id
          onair stations check fip         does each of its streams play now?
          onair stations import radio.m3u  add the stations a .pls/.m3u/.xspf/.asx lists

        Exit codes: 0 success (also when nothing matches); 1 a checked station has no stream that plays, or \
        a playlist to import could not be fetched or read; 3 unknown station id or malformed catalogue; 64 usage error.
        """,
        subcommands: [List.self, Show.self, Check.self, Import.self],
        defaultSubcommand: List.self
    )
}

extension StationsCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stations, or those matching a query.",
            discussion: """
            Every word of the query must appear (case and accents ignored) in a station's name, id or \
            tags, or be its country or language code. Exact id or name matches come first, then names \
            starting with the query, then the rest by name.

            Examples:
              onair stations list
              onair stations clasica
              onair stations fr --json
            """
        )

        @Argument(help: ArgumentHelp("Words to look for; none lists every station.", valueName: "query"))
        var query: [String] = []

        @Flag(help: "Print one JSON object per station and line, in the stations.json format.")
        var json = false

        func run() throws {
            try reportingFailures {
                let catalogue = try CatalogueAccess.load()
                let query = self.query.joined(separator: " ")
                let stations = catalogue.search(query)
                if json {
                    stations.forEach { Console.json($0) }
                } else if stations.isEmpty {
                    Console.message(query.isEmpty ? "onair: the catalogue has no stations" : "onair: no station matches '\(query)'")
                } else {
                    print(Self.table(stations))
                }
            }
        }

        /// Aligned columns: id, name, country, stream kinds in order of preference, tags.
        static func table(_ stations: [Station]) -> String {
            let header = ["ID", "NAME", "COUNTRY", "KIND", "TAGS"]
            let rows = stations.map { station -> [String] in
                var kinds: [String] = []
                for kind in station.streams.map(\.kind.rawValue) where !kinds.contains(kind) { kinds.append(kind) }
                return [station.id, station.name, station.country, kinds.joined(separator: "/"),
                        station.tags.joined(separator: ", ")]
            }
            return TextTable.render([header] + rows)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one station: its details, streams and weekly programmes.",
            discussion: """
            Programme times are in the station's own time zone, as its schedule publishes them.

            Examples:
              onair stations show bbc-radio-3
              onair stations show fip --json | jq -r '.streams[0].url'
            """
        )

        @Argument(help: ArgumentHelp("The station's id, as `onair stations` lists it.", valueName: "id"))
        var id: String

        @Flag(help: "Print the station as one line of JSON, in the stations.json format.")
        var json = false

        func run() throws {
            try reportingFailures {
                let catalogue = try CatalogueAccess.load()
                guard let station = catalogue.station(id: id) else {
                    throw CommandFailure(message: "no station with id '\(id)' (try: onair stations \(id))",
                                         exitCode: ExitStatus.configuration)
                }
                if json { Console.json(station) } else { print(Self.describe(station)) }
            }
        }

        /// A human-readable block: details, numbered streams, programmes with their weekly slots.
        static func describe(_ station: Station) -> String {
            let details = [("homepage", station.homepage), ("logo", station.logo), ("country", station.country), ("language", station.language),
                           ("time zone", station.timeZone), ("tags", station.tags.joined(separator: ", ")),
                           ("charset", station.charset)]
                .compactMap { label, value in value.flatMap { $0.isEmpty ? nil : ["  " + label, $0] } }
            var text = TextTable.printable("\(station.name) (\(station.id))") + "\n" + TextTable.render(details)

            text += "\n\nstreams, in order of preference:\n"
            text += TextTable.render(station.streams.enumerated().map { index, stream in
                ["  \(index + 1).", stream.kind.rawValue, stream.codec ?? "?",
                 stream.bitrate.map { "\($0) kbit/s" } ?? "", stream.url]
            })

            guard !station.programmes.isEmpty else { return text }
            text += "\n\nprogrammes (times in \(station.timeZone)):\n"
            text += TextTable.render(station.programmes.map { programme in
                ["  " + programme.id, programme.name, programme.slots.map(\.description).joined(separator: "; ")]
            })
            return text
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check that stations play: resolve, open and decode a second of each stream.",
            discussion: """
            For each stream of each station: whether it is alive (a second of audio decoded), its kind, \
            codec and bitrate, the title it sent, how long until the first audio — or why it does not play. \
            Without ids, every station in the catalogue is checked, one after another.

            Examples:
              onair stations check fip bbc-radio-3
              onair stations check --json | jq -c 'select(.streams | all(.alive | not))'

            Exit codes: 0 every checked station has a stream that plays; 1 some station has none; \
            3 unknown station id or malformed catalogue.
            """
        )

        @Argument(help: ArgumentHelp("Station ids; none checks every station.", valueName: "id"))
        var ids: [String] = []

        @Flag(help: "Print one JSON object per station and line.")
        var json = false

        func run() throws {
            try reportingFailures {
                let catalogue = try CatalogueAccess.load()
                let stations = try ids.isEmpty ? catalogue.stations : ids.map { id in
                    guard let station = catalogue.station(id: id) else {
                        throw CommandFailure(message: "no station with id '\(id)' (try: onair stations \(id))",
                                             exitCode: ExitStatus.configuration)
                    }
                    return station
                }
                var silent: [String] = []
                for station in stations {
                    let result = StationChecker().check(station)
                    if json { Console.json(result) } else { print(result.report) }
                    if !result.alive { silent.append(station.id) }
                }
                guard silent.isEmpty else {
                    throw CommandFailure(message: "\(silent.count) of \(stations.count) stations have no stream that plays: "
                                         + silent.prefix(5).joined(separator: ", ") + (silent.count > 5 ? ", …" : ""),
                                         exitCode: ExitStatus.streamFailed)
                }
            }
        }
    }
}
