import ArgumentParser
import Outputs
import Foundation
import RadioModel
import StreamInput

struct SinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sinks",
        abstract: "Declare the sinks the daemon's API and web pages may relay to.",
        discussion: """
        A sink names a file, a device, a socket or a server of this box (wav:PATH, fifo:PATH, tcp:HOST:PORT, \
        pulse, alsa, icecast://…), which only the box's own user may choose. So a relay asked for over the \
        network — POST /api/v1/jobs, a station's page — goes only to a sink declared here, by its name. \
        `onair relay` and `onair jobs start` on the box take any sink as before. Kept in sinks.json in the \
        config folder; the running daemon reads it at each request.

        Examples:
          onair sinks add kitchen fifo:/tmp/snapfifo
          onair sinks add icecast 'icecast://source:hackme@127.0.0.1:8000/radio.mp3'
          onair sinks list
          onair sinks remove kitchen

        Exit codes: 0 success; 3 an invalid name or sink; 4 no sink by that name.
        """,
        subcommands: [Add.self, List.self, Remove.self]
    )

    static func changing(_ change: (inout DeclaredSinks) throws -> Void) throws {
        do {
            var sinks = try DeclaredSinks.load(CatalogueAccess.paths)
            try change(&sinks)
            try sinks.save(CatalogueAccess.paths)
        } catch let error as DeclaredSinks.Refusal {
            throw CommandFailure(message: error.description, exitCode: ExitStatus.configuration)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Declare SINK (as --to takes it) under NAME.")
        @Argument(help: "The name requests use.") var name: String
        @Argument(help: "The sink, as `onair relay --to` takes it.") var sink: String

        func run() throws {
            try reportingFailures {
                try SinksCommand.changing { try $0.declare(name, sink) }
                Console.message("Declared \(name): \(URLRedaction.redact(sink)).")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the declared sinks (passwords hidden).")
        @Flag(help: "As JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let sinks: DeclaredSinks
                do { sinks = try DeclaredSinks.load(CatalogueAccess.paths) } catch {
                    throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
                }
                let shown = sinks.sinks.mapValues { URLRedaction.redact($0) }
                if json { return Console.json(shown) }
                if shown.isEmpty { return Console.message("No sinks declared: onair sinks add NAME SINK") }
                for (name, sink) in shown.sorted(by: { $0.key < $1.key }) { print("\(name)\t\(sink)") }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the sink declared as NAME.")
        @Argument var name: String

        func run() throws {
            try reportingFailures {
                var removed = false
                try SinksCommand.changing { removed = $0.remove(name) }
                guard removed else { throw CommandFailure(message: "no sink named '\(name)' (see onair sinks list)", exitCode: ExitStatus.notFound) }
                Console.message("Removed \(name).")
            }
        }
    }
}
