import ArgumentParser
import Engine
import Foundation
import Playback
import RadioModel

struct FavouritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourites",
        abstract: "Keep a list of favourite stations; n/p in the live view step through it.",
        discussion: """
        Favourites live in onair's database ($XDG_DATA_HOME/onair/onair.sqlite, or $ONAIR_HOME/data).

        Examples:
          onair favourites add fip
          onair favourites add http://127.0.0.1:8000/demo.mp3
          onair favourites list
          onair favourites remove fip

        Exit codes: 0 success; 3 unknown station or the database cannot be opened; 4 not a favourite.
        """,
        subcommands: [Add.self, Remove.self, List.self],
        defaultSubcommand: List.self
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a station (catalogue id or URL).")
        @Argument(help: "A station id from the catalogue, or a stream URL.") var station: String

        func run() throws {
            try reportingFailures {
                let target = try StreamTarget.named(station)
                let added = try storing { try PlayerSupport.openStore().addFavourite(station: target.identifier, name: target.displayName) }
                print(added ? "Added \(target.displayName)" : "\(target.displayName) is a favourite already")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a station.")
        @Argument(help: "The station's id or URL, as listed.") var station: String

        func run() throws {
            try reportingFailures {
                guard try storing({ try PlayerSupport.openStore().removeFavourite(station: station) }) else {
                    throw CommandFailure(message: "'\(station)' is not a favourite (see: onair favourites list)", exitCode: ExitStatus.notFound)
                }
                print("Removed \(station)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the favourites in the order n steps through them.")
        @Flag(help: "One JSON object per favourite.") var json = false

        func run() throws {
            try reportingFailures {
                let favourites = try storing { try PlayerSupport.openStore().favourites() }
                if json {
                    favourites.forEach { Console.json(["station": $0.station, "name": $0.name]) }
                } else if favourites.isEmpty {
                    print("No favourites yet: onair favourites add STATION")
                } else {
                    print(TextTable.render([["STATION", "NAME"]] + favourites.map { [$0.station, $0.name] }))
                }
            }
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "What was listened to and played, the most recent first.",
        discussion: """
        Examples:
          onair history
          onair history --limit 100 --json
        """
    )

    @Option(help: "How many entries to show.") var limit = 20
    @Flag(help: "One JSON object per entry.") var json = false

    func run() throws {
        try reportingFailures {
            let entries = try storing { try PlayerSupport.openStore().history(limit: limit) }
            if json {
                for entry in entries {
                    Console.json(HistoryLine(kind: entry.kind, item: entry.item, name: entry.name, started: entry.started,
                                             seconds: entry.seconds))
                }
                return
            }
            guard !entries.isEmpty else {
                print("Nothing played yet.")
                return
            }
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            print(TextTable.render([["WHEN", "KIND", "NAME", "PLAYED"]] + entries.map {
                [formatter.string(from: $0.started), $0.kind, $0.name, ClockText.of($0.seconds)]
            }))
        }
    }
}

private struct HistoryLine: Encodable {
    let kind: String
    let item: String
    let name: String
    let started: Date
    let seconds: Double
}

/// Runs a database call, reporting its failure as a configuration error.
private func storing<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as CommandFailure {
        throw failure
    } catch {
        throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
    }
}
