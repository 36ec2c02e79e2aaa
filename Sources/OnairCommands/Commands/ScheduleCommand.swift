import ArgumentParser
import Engine
import Foundation
import Guide
import RadioModel
import Recording
import Scheduling
import Store

struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Record programmes on a schedule: add, list, pause and remove rules; see the next episodes.",
        discussion: """
        A rule names a station and when its programme is on: a catalogue programme's broadcast times \
        (--programme), the broadcasts a programme guide lists whose title matches (--title REGEX, case \
        ignored) or of one series (--series ID; see onair guide), weekly days and a time (--at "fri 22:00", "mon-fri 06:30", "sat,sun 10:00"), a \
        one-off (--on 2026-12-24T18:00) or a cron expression (--cron "0 21 * * 1-5"). Times are in the \
        rule's time zone (--tz, else the station's, else this machine's) and stay on its wall clock across \
        DST changes; a time the clocks skip moves to the moment of the change, a repeated one is recorded once.

        `onair daemon` records the episodes; it picks up changes at once. Overlapping rules on one station \
        share one connection.

        Examples:
          onair schedule add bbc-radio-3 --programme jazz-record-requests --keep 4
          onair schedule add fip --at "mon-fri 07:00" --for 1h --keep-days 14
          onair schedule add bbc-radio-3 --title '^Jazz Record Requests$' --pad-after 2m
          onair schedule add fip --at "fri 22:00" --for 2h --tz Europe/Paris --pad-after 5m
          onair schedule add fip --cron "0 21 * * 1-5" --for 1h --format opus
          onair schedule add http://127.0.0.1:8000/demo.mp3 --on 2026-12-24T18:00 --for 30m
          onair schedule next 10
          onair schedule pause 3

        Exit codes: 0 success; 3 the rule is invalid (unknown station, programme or time zone, no future \
        episode) or the database cannot be opened; 4 no rule with that id; 64 usage error.
        """,
        subcommands: [Add.self, List.self, Next.self, Episodes.self, Remove.self, Pause.self, Resume.self],
        defaultSubcommand: List.self
    )

    /// Where guide rules find their broadcasts.
    static func openGuide() throws -> GuideStore { try GuideCommand.openStore() }

    /// Runs a store operation, reporting its failure as a configuration error.
    static func storing<T>(_ body: () throws(ScheduleError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// Tells a running daemon to re-read the rules (it would notice within a second anyway).
    static func pokeDaemon() {
        _ = try? ControlClient(dataDirectory: CatalogueAccess.paths.data).send(ControlRequest(.reload), expecting: ControlAcknowledgement.self)
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a rule (checked first: the station, the time zone, a future episode).")
        @OptionGroup var database: SharedDatabaseOption

        @Argument(help: "A catalogue station id, or a stream URL.")
        var station: String

        @Option(help: ArgumentHelp("A programme of the station from the catalogue: its weekly broadcast times.", valueName: "id"))
        var programme: String?

        @Option(help: ArgumentHelp("Every broadcast the programme guide lists for the station whose title matches (case ignored), "
                                   + "at the guide's times.", valueName: "regex"))
        var title: String?

        @Option(help: ArgumentHelp("Every broadcast of one series in the programme guide (a dd_progid series or a \"series\" episode-num).",
                                   valueName: "id"))
        var series: String?

        @Option(help: ArgumentHelp("Weekly: days and a time, e.g. \"fri 22:00\", \"mon-fri 06:30\", \"sat,sun 10:00\", \"daily 07:00\".",
                                   valueName: "days time"))
        var at: String?

        @Option(help: ArgumentHelp("Once: a local date and time, YYYY-MM-DDTHH:MM[:SS].", valueName: "date-time"))
        var on: String?

        @Option(help: ArgumentHelp("A cron expression: minute hour day-of-month month day-of-week.", valueName: "expression"))
        var cron: String?

        @Option(name: .customLong("for"), help: ArgumentHelp("How long each episode lasts (with --at, --on, --cron): 90s, 45m, 2h.",
                                                            valueName: "duration"))
        var duration: String?

        @Option(help: ArgumentHelp("Time zone of the rule (IANA name). Default: the station's, else this machine's.", valueName: "zone"))
        var tz: String?

        @Option(help: ArgumentHelp("Start recording this long before the programme.", valueName: "duration"))
        var padBefore: String = "0s"

        @Option(help: ArgumentHelp("Go on recording this long after it.", valueName: "duration"))
        var padAfter: String = "0s"

        @Option(help: "copy (as sent, the default), or re-encode: mp3, m4a, opus, flac.")
        var format: RecordingFormat = .copy

        @Option(name: [.short, .long], help: ArgumentHelp("Output template under the recordings directory: {station} {programme} "
                                                          + "{title} {date} {time} {ext}.", valueName: "template"))
        var output: String?

        @Flag(help: "One file per title, cut at the quietest moment near each title change.")
        var splitTracks = false

        @Option(help: ArgumentHelp("Keep only the newest N episodes: older files and their index entries are deleted.", valueName: "N"))
        var keep: Int?

        @Option(help: ArgumentHelp("Keep only the episodes that finished less than D days ago: older files and their index "
                                   + "entries are deleted (with --keep, an episode goes when either says so).", valueName: "D"))
        var keepDays: Int?

        @Flag(help: "Print the rule as JSON.")
        var json = false

        func validate() throws {
            let ways = [programme, title, series, at, on, cron].compactMap { $0 }
            guard ways.count == 1 else { throw ValidationError("give one of --programme, --title, --series, --at, --on or --cron") }
            let listed = programme ?? title ?? series
            if listed == nil, duration == nil { throw ValidationError("--at, --on and --cron need --for (how long each episode lasts)") }
            if listed != nil, duration != nil {
                throw ValidationError("--for does not apply to --programme, --title or --series: their broadcasts have their length")
            }
            if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
            if let keepDays, keepDays < 1 { throw ValidationError("--keep-days must be at least 1") }
        }

        func run() throws {
            try reportingFailures(add)
        }

        private func add() throws {
            let target = try StreamTarget.named(station)
            let guide = try openGuide()
            var request = RuleRequest(station: station)
            (request.title, request.series) = (title, series)
            (request.programme, request.at, request.on, request.cron, request.duration) = (programme, at, on, cron, duration)
            (request.timeZone, request.padBefore, request.padAfter) = (tz, padBefore, padAfter)
            (request.format, request.output, request.splitTracks, request.keep) = (format, output, splitTracks, keep)
            request.keepDays = keepDays
            let (rule, next) = try storing { () throws(ScheduleError) in
                if case .station(let entry) = target { return try request.rule(catalogueStation: entry, guide: guide) }
                return try request.rule(catalogueStation: nil, guide: guide)
            }
            let saved = try Self.storingRule(rule, in: database)
            ScheduleCommand.pokeDaemon()
            if json { return Console.json(RuleView(saved, next: next)) }
            Console.message("added rule \(saved.id!): \(station) \(saved.whenText) \(saved.timeZone); "
                            + "next \(ScheduleTimes.local(next.start, TimeZone(identifier: saved.timeZone)!))")
        }

        private static func storingRule(_ rule: ScheduleRule, in database: SharedDatabaseOption) throws -> ScheduleRule {
            let store = try database.scheduleStore()
            return try storing { () throws(ScheduleError) in try store.add(rule) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules, with each one's next episode.")
        @OptionGroup var database: SharedDatabaseOption

        @Flag(help: "One JSON object per rule.")
        var json = false

        func run() throws {
            try reportingFailures {
                let store = try database.scheduleStore(), guide = try openGuide()
                let rules = try storing { () throws(ScheduleError) in try store.rules() }
                let views = rules.map { RuleView($0, after: Date(), guide: guide) }
                if json { return views.forEach { Console.json($0) } }
                guard !views.isEmpty else {
                    return Console.message("No rules yet (add one with: onair schedule add STATION --at \"fri 22:00\" --for 2h)")
                }
                let rows = [["ID", "STATION", "PROGRAMME", "WHEN", "ZONE", "KEEP", "STATE", "NEXT"]] + views.map { view in
                    [String(view.id), view.station, view.programme ?? "", view.when, view.timeZone, view.keepText,
                     view.paused ? "paused" : "active", view.nextLocal ?? "none"]
                }
                print(TextTable.render(rows, maxWidths: [nil, 30, 24, 40, nil, nil, nil, nil]))
            }
        }
    }

    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "next", abstract: "The next episodes of all active rules, in local time and UTC.")
        @OptionGroup var database: SharedDatabaseOption

        @Argument(help: "How many.")
        var count: Int = 5

        @Flag(help: "One JSON object per episode.")
        var json = false

        func run() throws {
            try reportingFailures {
                let store = try database.scheduleStore(), guide = try openGuide()
                let rules = try storing { () throws(ScheduleError) in try store.rules() }
                let upcoming = UpcomingEpisodes.next(max(0, count), of: rules, after: Date(), guide: guide)
                if json { return upcoming.forEach { Console.json($0) } }
                guard !upcoming.isEmpty else { return Console.message("No episodes ahead") }
                let rows = [["RULE", "STATION", "PROGRAMME", "LOCAL", "UTC", "LENGTH"]] + upcoming.map { episode in
                    [String(episode.rule), episode.station, episode.programme ?? "",
                     ScheduleTimes.local(episode.start, TimeZone(identifier: episode.timeZone)!), ScheduleTimes.utc(episode.start),
                     TimeSpan(seconds: episode.end.timeIntervalSince(episode.start)).description]
                }
                print(TextTable.render(rows, maxWidths: [nil, 30, 24, nil, nil, nil]))
            }
        }
    }

    struct Episodes: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "episodes", abstract: "Recent episodes: scheduled, recording, done, failed or missed, and why.")
        @OptionGroup var database: SharedDatabaseOption

        @Option(help: "Only this rule's.")
        var rule: Int64?

        @Flag(help: "One JSON object per episode.")
        var json = false

        func run() throws {
            try reportingFailures {
                let store = try database.scheduleStore()
                let episodes = try storing { () throws(ScheduleError) in try store.episodes(ruleID: rule, limit: 50) }
                if json { return episodes.forEach { Console.json($0) } }
                guard !episodes.isEmpty else { return Console.message("No episodes yet") }
                let rows = [["ID", "RULE", "STATION", "START (UTC)", "STATUS", "NOTE", "FILES"]] + episodes.map { episode in
                    [String(episode.id!), String(episode.ruleID), episode.station, ScheduleTimes.utc(episode.windowStart),
                     episode.status.rawValue, episode.reason ?? "", episode.files.joined(separator: ", ")]
                }
                print(TextTable.render(rows, maxWidths: [nil, nil, 30, nil, nil, 40, nil]))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule (recorded files stay).")
        @OptionGroup var database: SharedDatabaseOption
        @Argument(help: "The rule's id (see: onair schedule list).") var id: Int64

        func run() throws {
            try reportingFailures {
                let store = try database.scheduleStore()
                guard let rule = try storing({ () throws(ScheduleError) in try store.remove(ruleID: id) }) else {
                    throw CommandFailure(message: "no rule with id \(id) (see: onair schedule list)", exitCode: ExitStatus.notFound)
                }
                ScheduleCommand.pokeDaemon()
                Console.message("removed rule \(id): \(rule.station) \(rule.whenText)")
            }
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a rule: no new episodes until it is resumed.")
        @OptionGroup var database: SharedDatabaseOption
        @Argument(help: "The rule's id.") var id: Int64
        func run() throws { try ScheduleCommand.setPaused(id, true, in: database) }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused rule.")
        @OptionGroup var database: SharedDatabaseOption
        @Argument(help: "The rule's id.") var id: Int64
        func run() throws { try ScheduleCommand.setPaused(id, false, in: database) }
    }

    static func setPaused(_ id: Int64, _ paused: Bool, in database: SharedDatabaseOption) throws {
        try reportingFailures {
            let store = try database.scheduleStore()
            guard try storing({ () throws(ScheduleError) in try store.setPaused(ruleID: id, paused) }) != nil else {
                throw CommandFailure(message: "no rule with id \(id) (see: onair schedule list)", exitCode: ExitStatus.notFound)
            }
            pokeDaemon()
            Console.message("\(paused ? "paused" : "resumed") rule \(id)")
        }
    }
}
