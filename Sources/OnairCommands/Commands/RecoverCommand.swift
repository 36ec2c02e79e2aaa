import ArgumentParser
import Foundation
import RadioModel
import Recording

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Finish recordings left partial by a crash, a kill or a power cut.",
        discussion: """
        Finds every partial recording (".NAME.partial.EXT" with its ".NAME.partial.journal") under the \
        directory, and finishes each as `onair record` would have: tags, chapters and cue sheet from its \
        journal, the file put in place without replacing another, and an entry in the recordings index. \
        Recordings still running in another onair process are left alone.

        Examples:
          onair recover
          onair recover ~/Music/onair --json

        Exit codes: 0 nothing left to recover; 2 a recording could not be finished (it is kept for a \
        later try); 3 the recordings index cannot be opened.
        """
    )

    @Argument(help: "Where to look (default: the recordings directory).")
    var directory: String?

    @Flag(help: "Print one JSON object per recording: {\"event\":\"recovered\"|\"skipped\"|\"failed\", …}.")
    var json = false

    @OptionGroup var database: SharedDatabaseOption

    func run() throws {
        try reportingFailures(recover)
    }

    private func recover() throws {
        let paths = CatalogueAccess.paths
        let root = directory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? paths.recordings
        let finaliser = Finaliser(index: try database.recordingsIndex())
        let journals = LeftoverRecordings.journals(under: root)
        if journals.isEmpty, !json { Console.message("Nothing to recover in \(root.path)") }
        var failures = 0
        for journal in journals {
            do {
                let finished = try finaliser.finalise(journal: journal)
                if json {
                    Console.json(RecoverEvent(event: "recovered", journal: journal.path, file: finished.file, duration: finished.duration))
                } else {
                    Console.message("recovered \(finished.file) (\(ClockText.of(finished.duration)))")
                }
            } catch {
                let inUse = error.isInUse
                if !inUse { failures += 1 }
                if json {
                    Console.json(RecoverEvent(event: inUse ? "skipped" : "failed", journal: journal.path, message: error.description))
                } else {
                    Console.message(inUse ? "skipped: \(error)" : "cannot recover: \(error)")
                }
            }
        }
        if failures > 0 {
            throw CommandFailure(message: "\(failures) of \(journals.count) recordings could not be finished",
                                 exitCode: ExitStatus.sinkFailed)
        }
    }
}

private struct RecoverEvent: Encodable {
    var event: String
    var journal: String
    var file: String?
    var duration: Double?
    var message: String?
}
