import ArgumentParser
import Engine
import Foundation
import RadioModel
import Recording

struct JobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Start, list and stop the running daemon's relays and recordings.",
        discussion: """
        `onair daemon` runs these beside its scheduled episodes, on the same one connection per station. \
        A job runs until stopped, whoever started it; with --persist it is kept in the database and comes \
        back when the daemon restarts.

        Examples:
          onair jobs start relay fip --to http://127.0.0.1:8000/fip.mp3
          onair jobs start record http://127.0.0.1:8000/demo.mp3 --format mp3 --persist
          onair jobs list
          onair jobs stop 3

        Exit codes: 0 success; 1 no daemon is running; 2 a sink could not be opened; \
        3 configuration error; 4 no such job.
        """,
        subcommands: [Start.self, List.self, Stop.self]
    )

    static var client: ControlClient { ControlClient(dataDirectory: CatalogueAccess.paths.data) }

    /// A job as one line: "3  relay  fip  playing  0:12:03  1.2 MB  ♪ Title  http://…/fip.mp3 (2 listeners)  1 gap".
    static func line(_ job: JobStatus) -> String {
        let sinks = job.sinks.map { sink in
            sink.listeners.map { "\(sink.sink) (\($0) listener\($0 == 1 ? "" : "s"))" } ?? sink.sink
        }
        let parts = ["\(job.id)", job.kind.rawValue, job.station, job.state, ClockText.of(job.uptime),
                     RecordingReporter.size(job.bytes), job.title.map { "♪ \($0)" } ?? "", sinks.joined(separator: ", "),
                     job.gaps > 0 ? String(format: "%d gap%@ (%.1f s)", job.gaps, job.gaps == 1 ? "" : "s", job.gapSeconds) : "",
                     job.persist ? "persisted" : ""]
        return TextTable.printable(parts.filter { !$0.isEmpty }.joined(separator: "  "))
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Start a job: relay STATION --to SINK…, record STATION, or watch STATION (for the known clips, alerts, metrics).")

        @Argument(help: "relay, record or watch (connected, recording nothing: onair clips, alerts and metrics hear it).")
        var kind: JobSpec.Kind

        @Argument(help: "A station id from the catalogue, or a stream or playlist URL.")
        var station: String

        @OptionGroup var outputs: RelayOutputOptions

        @Option(help: "record: copy (as sent, the default), or re-encode: mp3, m4a, opus, flac.")
        var format: RecordingFormat = .copy

        @Option(help: ArgumentHelp("record: where and how files are named, e.g. '{station}/{date}.{ext}'.", valueName: "template"))
        var output: String?

        @Flag(help: "record: one file per title.")
        var splitTracks = false

        @Flag(help: "Keep the job in the database: it comes back when the daemon restarts.")
        var persist = false

        @Flag(help: "Print the job as one JSON object.")
        var json = false

        func validate() throws {
            switch kind {
            case .relay where outputs.sinks.isEmpty: throw ValidationError("a relay needs at least one --to sink")
            case .record where !outputs.sinks.isEmpty || outputs.metaFIFO != nil, .watch where !outputs.sinks.isEmpty || outputs.metaFIFO != nil:
                throw ValidationError("--to and --meta-fifo are for relays")
            case .watch where output != nil || splitTracks || format != .copy:
                throw ValidationError("--output, --split-tracks and --format are for recordings")
            default: break
            }
        }

        func run() throws {
            try reportingFailures {
                let spec = JobSpec(kind: kind, station: station, sinks: outputs.sinks, buffer: outputs.buffer,
                                   format: kind == .record ? format.rawValue : nil, output: output, splitTracks: splitTracks, persist: persist)
                let (job, answer) = try JobsCommand.client.send(ControlRequest(.startJob, job: spec), expecting: JobStatus.self)
                if json { return FileHandle.standardOutput.write(answer + Data("\n".utf8)) }
                print("started job \(job.id): " + JobsCommand.line(job))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The daemon's running jobs: sinks and listeners, bytes, title, gaps, uptime.")

        @Flag(help: "Print one JSON object: {\"jobs\":[…]}.")
        var json = false

        func run() throws {
            try reportingFailures {
                let (list, answer) = try JobsCommand.client.send(ControlRequest(.listJobs), expecting: JobList.self)
                if json { return FileHandle.standardOutput.write(answer + Data("\n".utf8)) }
                if list.jobs.isEmpty { print("no jobs") }
                list.jobs.forEach { print(JobsCommand.line($0)) }
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop a job (a persisted one is forgotten too).")

        @Argument(help: "The job's id, as `onair jobs list` shows it.")
        var id: Int64

        @Flag(help: "Print the job's last state as one JSON object.")
        var json = false

        func run() throws {
            try reportingFailures {
                let (job, answer) = try JobsCommand.client.send(ControlRequest(.stopJob, id: id), expecting: JobStatus.self, timeout: 120)
                if json { return FileHandle.standardOutput.write(answer + Data("\n".utf8)) }
                print("stopped job \(job.id): " + JobsCommand.line(job))
            }
        }
    }
}

extension JobSpec.Kind: ExpressibleByArgument {}
