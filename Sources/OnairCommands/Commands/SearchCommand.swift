import ArgumentParser
import Foundation
import RadioModel
import StreamInput

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find stations in the radio-browser.info directory, and add one to your catalogue.",
        discussion: """
        Searches station names in radio-browser.info, a community directory of internet radio. The most \
        listened-to stations come first; those failing the directory's own checks are left out. A server \
        is picked at random among those the directory publishes (DNS SRV record \
        _api._tcp.radio-browser.info), and the next is tried when one fails. Set ONAIR_RADIO_BROWSER_URL \
        to comma-separated base URLs to ask those servers instead (a mirror, a proxy, a local test server).

        --add saves a result to your own catalogue ($XDG_CONFIG_HOME/onair/stations.json, or \
        $ONAIR_HOME/config/stations.json) under an id made from its name, ready for `onair listen ID`. \
        The directory does not say which time zone a station's programmes follow: onair fills it in only \
        for countries with a single zone and uses UTC otherwise, so check it before scheduling recordings.

        Examples:
          onair search jazz
          onair search radio swiss --limit 5
          onair search fip --add                  save the first result
          onair search jazz radio --add --pick 3  save the third
          onair search jazz --json | jq -r .streamURL

        Exit codes: 0 success (also when nothing matches); 1 the directory could not be reached or \
        answered garbage; 3 configuration error (bad ONAIR_RADIO_BROWSER_URL, a catalogue that cannot be \
        read or written); 64 usage error, or --pick beyond the results.
        """
    )

    @Argument(help: ArgumentHelp("Words to look for in station names.", valueName: "query"))
    var query: [String]

    @Option(help: "Show at most this many results (1 to 1000).")
    var limit = 20

    @Flag(help: "Print one JSON object per result and line.")
    var json = false

    @Flag(help: "Save a result to your catalogue: the first, or the one --pick names.")
    var add = false

    @Option(help: ArgumentHelp("Which result --add saves, counting from 1.", valueName: "n"))
    var pick: Int?

    private var queryText: String { query.joined(separator: " ").trimmingCharacters(in: .whitespaces) }

    func validate() throws {
        guard !queryText.isEmpty else { throw ValidationError("give words to look for, e.g. onair search jazz") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
        if let pick {
            guard add else { throw ValidationError("--pick goes with --add") }
            guard (1...limit).contains(pick) else { throw ValidationError("--pick must be between 1 and --limit (\(limit))") }
        }
    }

    func run() throws {
        try reportingFailures {
            // Loaded first so a broken catalogue is reported before the directory is bothered.
            let catalogue = try add ? CatalogueAccess.load() : nil
            let results = try search()
            if json {
                results.forEach { Console.json($0) }
            } else if results.isEmpty {
                Console.message("onair: no station in radio-browser.info matches '\(queryText)'")
            } else {
                print(Self.table(results))
            }
            if let catalogue { try save(results, avoiding: Set(catalogue.stations.map(\.id))) }
        }
    }

    private func search() throws(CommandFailure) -> [DirectoryStation] {
        do {
            return try RadioBrowserClient().search(queryText, limit: limit)
        } catch let error as DirectoryError {
            // An unreachable directory is reported like an unreachable stream: status 1.
            throw CommandFailure(message: error.message,
                                 exitCode: error.kind == .configuration ? ExitStatus.configuration : ExitStatus.streamFailed)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.streamFailed)
        }
    }

    /// Adds the picked result to the user's catalogue and says how to play it. With --json the note goes
    /// to stderr, so stdout stays one kind of object per line.
    private func save(_ results: [DirectoryStation], avoiding takenIDs: Set<String>) throws(CommandFailure) {
        let number = pick ?? 1
        guard results.indices.contains(number - 1) else {
            throw CommandFailure(message: results.isEmpty ? "nothing to add: no station matches '\(queryText)'"
                                                          : "no result \(number) to add (the search found \(results.count))",
                                 exitCode: ExitCode.validationFailure.rawValue)
        }
        let station = results[number - 1].catalogueStation(avoiding: takenIDs)
        let userCatalogue = CatalogueAccess.userCatalogue
        do {
            try userCatalogue.add(station)
        } catch {
            throw CatalogueAccess.failure(error)
        }
        var note = "Added \"\(TextTable.printable(station.name))\" as \(station.id) to \(userCatalogue.url.path)\n"
            + "Listen with: onair listen \(station.id)"
        if station.timeZone == "UTC" {
            note += "\nIts time zone is set to UTC: correct it in that file before scheduling recordings."
        }
        if json { Console.message(note) } else { print("\n" + note) }
    }

    // MARK: Table

    /// Numbered rows: name, country, codec and bitrate, stream kind, tags, each cut to its column.
    static func table(_ results: [DirectoryStation]) -> String {
        let header = ["#", "NAME", "COUNTRY", "AUDIO", "KIND", "TAGS"]
        let rows = results.enumerated().map { index, station in
            [String(index + 1), station.name, station.countryCode ?? "?",
             [station.codec ?? "?", station.bitrate.map { "\($0)k" }].compactMap { $0 }.joined(separator: " "),
             station.kind.rawValue, station.tags.joined(separator: ", ")]
        }
        return TextTable.render([header] + rows, maxWidths: [nil, 32, 7, 11, 4, 36])
    }
}
