import ArgumentParser

/// The root command; `Sources/onair/main.swift` runs it. The commands live in this library so that tests
/// can parse and run them in-process, as SwiftPM tests its `Commands` library.
public struct Onair: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "onair",
        abstract: "Listen to, record, relay and play back internet radio.",
        discussion: """
        Stations come from the shipped stations.json, your own catalogue \
        ($XDG_CONFIG_HOME/onair/stations.json, or $ONAIR_HOME/config/stations.json), a radio-browser.info \
        search, or a plain URL.

        Exit codes: 0 success; 1 a stream could not be played; 2 a sink failed; \
        3 configuration error; 4 nothing by that name (recording, rule, favourite, playlist, podcast, guide channel); 64 usage error.
        """,
        version: "0.1.0",
        subcommands: [StationsCommand.self, SearchCommand.self, ResolveCommand.self, ListenCommand.self, RelayCommand.self,
                      RecordCommand.self, RecoverCommand.self, RecordingsCommand.self,
                      ScheduleCommand.self, GuideCommand.self, DaemonCommand.self, StatusCommand.self, JobsCommand.self,
                      PlayCommand.self, PodcastsCommand.self, PlaylistsCommand.self, LikeCommand.self, HideCommand.self, FavouritesCommand.self, HistoryCommand.self,
                      CastCommand.self, WebCommand.self, SinksCommand.self, ClipsCommand.self, MonitorCommand.self, AiredCommand.self, ScrobbleCommand.self]
    )
}
