import ArgumentParser
import ClipDetection
import Foundation
import RadioModel
import Scheduling
import Store

struct AiredCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aired",
        abstract: "Every airing of a clip, or of a kind of clips, that onair monitor or the daemon heard: per station, in UTC and station time.",
        discussion: """
        Examples:
          onair aired "Summer sale"
          onair aired --kind ad --since 7d --csv > ads.csv
          onair aired --since 2026-11-01 --json

        Exit codes: 0 success (also when nothing aired); 64 a --since that is neither a span nor a date.
        """
    )

    @Argument(help: "The clip's name (default: every clip).") var clip: String?
    @Option(help: ArgumentHelp("Only clips of this kind: song, jingle, ad or id.", valueName: "kind")) var kind: ReferenceClip.Kind?
    @Option(help: ArgumentHelp("Only airings since this long ago (90m, 7d) or this date (2026-11-01, 2026-11-01T06:00, on this machine's clock).",
                               valueName: "since")) var since: String?
    @Flag(help: "As JSON.") var json = false
    @Flag(help: "As CSV, with a header line.") var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv: choose one") }
        if let since, sinceDate(since) == nil {
            throw ValidationError("invalid --since '\(since)': a span like 90m or 7d, or a date like 2026-11-01")
        }
    }

    private func sinceDate(_ text: String) -> Date? {
        if let span = TimeSpan(text) { return Date().addingTimeInterval(-span.seconds) }
        return Timestamp.parseRecent(text) ?? Timestamp.parse(text + "T00:00", timeZone: .current)
    }

    func run() throws {
        try reportingFailures {
            let log = try ClipsCommand.stores().airings
            let airings = try ClipsCommand.run { () throws(ClipError) in
                try log.airings(clip: clip, kind: kind?.rawValue, since: since.flatMap(sinceDate))
            }
            let shown = AiredRow.rows(airings, catalogue: try? CatalogueAccess.load())
            if json { return Console.json(shown) }
            if csv {
                print("clip,kind,station,start_utc,end_utc,station_time,time_zone,seconds,offset,partial,score")
                for row in shown {
                    print([row.clip, row.kind, row.station, row.start, row.end, row.stationTime, row.timeZone, "\(row.seconds)", "\(row.offset)",
                           "\(row.partial)", "\(row.score)"].map(Self.csvField).joined(separator: ","))
                }
                return
            }
            if shown.isEmpty { return Console.message("Nothing aired that onair monitor or the daemon heard\(clip.map { " of \"\($0)\"" } ?? "").") }
            for row in shown {
                let part = row.partial ? String(format: " (part, from %.1f s)", row.offset) : ""
                print("\(row.station)\t\(row.start)\t\(row.stationTime) \(row.timeZone)\t\(String(format: "%.1f s", row.seconds))\(part)\t"
                      + "\(UntrustedText.printable(row.clip)) (\(row.kind))")
            }
        }
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { ",\"\n\r".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
