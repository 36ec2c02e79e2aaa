import ArgumentParser
import Daemon
import Engine
import Foundation
import HomeAssistant
import HTTPService
import MQTT
import Media
import RadioModel
import Scheduling
import StreamInput
import WebApp
#if canImport(Glibc)
import Glibc
#endif

struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Record the scheduled episodes, as they come due, until stopped.",
        discussion: """
        Runs every due episode of `onair schedule`'s rules, concurrently, and the jobs `onair jobs start` \
        hands it (relays and recordings, kept across restarts with --persist); all the episodes and jobs of \
        one station share its one connection. Each episode is cut at its window's wall-clock boundaries — \
        with HLS, by the stream's own program-date-time, with DASH by the MPD's presentation timeline, to \
        the audio frame; a late start of an HLS or DASH programme is back-filled from the playlist's window. Rules changed with `onair schedule` (or a \
        SIGHUP) are picked up at once; a wall-clock jump (NTP, suspend) starts a due episode at once.

        On start it finishes partial files left by a crash, records the rest of any episode whose window \
        is still open (marked late) and notes the episodes missed while it was not running. `onair status` \
        asks it what it is doing, over a Unix socket in the data directory. Ctrl-C or SIGTERM finishes \
        every file properly. Guides imported from a URL (onair guide import URL) are asked for again every \
        --guide-refresh, with a conditional request. scripts/onair-daemon.service runs it as a systemd user service.

        A station whose audio stays below --dead-air-level for --dead-air-seconds raises `dead-air`, one that \
        sends no audio that long raises `down`, and `recovered` follows when sound returns; each is logged, \
        POSTed as JSON to --alert-webhook and handed to --alert-exec (in ONAIR_ALERT, ONAIR_ALERT_STATION, \
        ONAIR_ALERT_SINCE, ONAIR_ALERT_SECONDS, ONAIR_ALERT_JSON, and as JSON on its stdin).

        With --min-free SIZE (2G, 500M), whenever the recordings directory's file system has less than SIZE \
        free — looked at every 30 s and before each episode starts — the oldest finished recordings are \
        deleted until it has SIZE again: never one being written, never one marked with `onair recordings \
        keep`. Each deletion is one log line (recording-deleted, with why: keep, keep-days or min-free); \
        `onair status`, GET /api/v1/status and the /status page show the setting, the free space and the \
        latest deletions. Rules' --keep and --keep-days are applied by the same sweep, after each episode \
        and on start.

        Several daemons, on one machine or many, share one schedule through a PostgreSQL database \
        (--database or ONAIR_DATABASE_URL): each claims due episodes with its station's lease (all of a \
        station's episodes on one daemon), renews it every 3 s, and takes over the episodes of a daemon \
        whose lease ran out (15 s), recording the rest as a second part. Leases belong to each daemon \
        process (its --name, by default the host's, and an instance id made at start), so daemons given one \
        name never both record a station; give each its own --name to tell them apart in `onair status`.

        It serves HTTP on --http (default 127.0.0.1:8080): the web app at /, the API under /api/v1 (described \
        at /api/openapi.json), podcast feeds of the recordings under /feeds/, each catalogue station's live \
        audio at /live/STATION-ID, and Prometheus metrics at /metrics. On 127.0.0.1 it asks nothing until a \
        password (onair web password) or a token (onair web token create NAME) is set; another address \
        (--http 0.0.0.0:8080, for the phones on your network) is served only once one is: then pages ask \
        for the password, API clients send `Authorization: Bearer TOKEN`, and podcast apps use the feeds' \
        secret addresses shown on the recordings page.

        Examples:
          onair daemon
          onair daemon --json --http 127.0.0.1:8090
          onair daemon --http off
          onair daemon --min-free 2G
          onair web password && onair daemon --http 0.0.0.0:8080
          onair daemon --alert-webhook http://127.0.0.1:9000/onair --dead-air-seconds 20
          onair daemon --alert-exec 'logger -t onair "$ONAIR_ALERT $ONAIR_ALERT_STATION"'
          onair daemon --database postgresql://onair@db.example:5432/onair --name box-1 --max-streams 200

        Exit codes: 0 stopped; 3 another daemon is running, the database cannot be opened, or the HTTP \
        address cannot be served (in use, or beyond this machine with no password or token set).
        """
    )

    @Flag(help: "Log events as JSON lines: episode-started, episode-done, episode-failed, episode-missed, recovered, clock-jumped, stream-dead-air, stream-down, stream-recovered, alert-failed, …")
    var json = false

    @Option(help: "Seconds before a window opens that its station is connected.")
    var preroll: Double = 3

    @Option(help: ArgumentHelp("How often guides imported from a URL are asked for again.", valueName: "duration"))
    var guideRefresh: String = "6h"

    @Option(help: ArgumentHelp("POST each alert (dead-air, down, recovered) as JSON to this http(s) URL.", valueName: "url"))
    var alertWebhook: String?

    @Option(help: ArgumentHelp("Run this shell command for each alert, the alert in its environment and on its stdin.", valueName: "command"))
    var alertExec: String?

    @OptionGroup var alerts: AlertOptions
    @Option(help: ArgumentHelp("Where to serve the web app, API, feeds and live audio: ADDR:PORT, or off (beyond 127.0.0.1 only with a password or token set: onair web).",
                               valueName: "addr:port"))
    var http: String = HTTPAddress.default.description

    @Option(help: ArgumentHelp("The address people and apps reach this daemon at, behind a reverse proxy (https://radio.example): "
                               + "its host is answered to, and pages posting from it are this site's own.", valueName: "url"))
    var publicURL: String?

    @Option(help: ArgumentHelp("Another host name this daemon answers to (besides localhost and IP addresses); repeatable. "
                               + "A request for any other name is refused (421), which stops DNS rebinding.", valueName: "name"))
    var allowHost: [String] = []

    @Flag(help: "Show FFmpeg's own warnings.")
    var verbose = false

    @OptionGroup var database: SharedDatabaseOption

    @Option(help: "This daemon's name among those sharing --database (default: the host name).")
    var name: String?

    @Option(help: "How many stations this daemon records at most, sharing --database.")
    var maxStreams: Int = 100

    @Flag(help: RecordCommand.normalizeHelp)
    var normalize = false

    @Flag(help: "Learn the songs stations name: a song that airs whole under an ICY title (\"Artist - Title\") is kept as a clip of that name (onair clips list), and known by its sound where it airs again, on any station, titled or not (the newest 1,000).")
    var learnTracks = false

    @Option(help: ArgumentHelp("Publish this daemon to Home Assistant through this MQTT broker, mqtt[s]://[USER:PASS@]HOST[:PORT] "
                               + "(default: $ONAIR_MQTT_URL, which keeps the password out of the process list). docs/home-assistant.md.",
                               valueName: "url"))
    var mqtt: String?

    @Option(help: ArgumentHelp("The topic prefix Home Assistant's MQTT discovery listens on.", valueName: "prefix"))
    var mqttPrefix = "homeassistant"

    @Option(help: ArgumentHelp("Send what this station plays to ListenBrainz as listens (onair scrobble login), keeping it connected; repeatable.",
                               valueName: "station"))
    var scrobbleStation: [String] = []

    @Option(help: ArgumentHelp("Keep at least SIZE free (e.g. 2G, 500M) where recordings go, deleting the oldest finished "
                               + "recordings that are not kept.", valueName: "size"))
    var minFree: String?

    /// The address to serve, nil for `off`.
    private var httpAddress: HTTPAddress? {
        get throws {
            guard http != "off" else { return nil }
            guard let address = HTTPAddress(http) else {
                throw CommandFailure(message: "invalid --http '\(http)': use ADDR:PORT (127.0.0.1:8080) or off", exitCode: ExitStatus.configuration)
            }
            return address
        }
    }

    func validate() throws {
        _ = try database.location()
        guard maxStreams > 0 else { throw ValidationError("--max-streams must be at least 1") }
        // A topic prefix: levels of printable characters, no wildcards, no empty level.
        guard !mqttPrefix.isEmpty, mqttPrefix.count <= 64, mqttPrefix.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }),
              mqttPrefix.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "+" && $0 != "#" }) else {
            throw ValidationError("invalid --mqtt-prefix '\(mqttPrefix)': use a topic like homeassistant (no + or #, no empty level)")
        }
        if let mqtt { _ = try BrokerURL(parsing: mqtt) }
        if let minFree, ByteSize(minFree) == nil {
            throw ValidationError("invalid --min-free '\(minFree)': use a size like 2G, 500M or 750K")
        }
        guard let span = TimeSpan(guideRefresh), span.seconds >= 1 else {
            throw ValidationError("invalid --guide-refresh '\(guideRefresh)': use a span like 30m or 6h")
        }
        if let publicURL, SitePolicy(publicURL: URL(string: publicURL)).publicOrigin == nil {
            throw ValidationError("invalid --public-url '\(publicURL)': expected an http or https URL such as https://radio.example")
        }
        for name in allowHost where SitePolicy.hostName(ofHostHeader: name) == nil {
            throw ValidationError("invalid --allow-host '\(name)': expected a host name such as radio.lan")
        }
        if let alertWebhook, !["http", "https"].contains(URLComponents(string: alertWebhook)?.scheme?.lowercased() ?? "") {
            throw ValidationError("invalid --alert-webhook '\(URLRedaction.redact(alertWebhook))': expected an http or https URL")
        }
    }

    func run() throws {
        try reportingFailures(runDaemon)
    }

    private func runDaemon() throws {
        OpenFileLimit.raiseToHardLimit()
        FFmpegLogging.configure(verbose: verbose)
        let paths = CatalogueAccess.paths
        let lock = try DaemonLock(directory: paths.data)
        let json = self.json
        let log: @Sendable (DaemonEvent) -> Void = { event in
            if json { return Console.json(event) }
            Console.message(event.line)
        }
        var options = DaemonService.Options()
        options.preroll = preroll
        options.guideRefresh = TimeSpan(guideRefresh)!.seconds
        options.alerts = alerts.rules
        options.alertWebhook = alertWebhook
        options.alertCommand = alertExec
        options.sharedDatabase = try database.location()
        options.name = name ?? options.name
        options.maxStreams = maxStreams
        options.measuresLoudness = normalize
        options.learnsTracks = learnTracks
        options.scrobbleStations = scrobbleStation
        options.minFree = minFree.flatMap(ByteSize.init)
        let address = try httpAddress
        let credentials = try WebCommand.credentials()
        if let address, !address.isLoopback, !(try WebCommand.changing { try credentials.snapshot() }.isConfigured) {
            throw CommandFailure(message: "--http \(address) would let other machines in with no login: set a password with "
                                 + "`onair web password` (or a token with `onair web token create NAME`) first, or serve 127.0.0.1",
                                 exitCode: ExitStatus.configuration)
        }
        let access = WebAccess(credentials: credentials)
        let catalogue = CatalogueAccess.reader()
        let daemon = try DaemonService(paths: paths, options: options, lookup: { try StreamTarget.parse($0, catalogue: catalogue) }, log: log)
        let facade = DaemonFacade(service: daemon, catalogue: catalogue)
        let homeAssistant = try homeAssistantBridge(facade: facade, name: options.name, log: log)
        homeAssistant?.start()
        defer { homeAssistant?.stop() }
        var services = WebServices(facade: facade)
        services.forms = access.forms(for:)
        services.feedAddress = access.feedAddress(_:)
        let server = address.map { address in
            HTTPServer(address: address, facade: facade,
                       site: SitePolicy(allowHosts: allowHost, publicURL: publicURL.flatMap(URL.init(string:))), access: access, routeGroups: [
                { [services] in WebApp.addRoutes(to: $0, services: services) },
                HTTPServer.metricsRoute { facade.metricsText() },
            ])
        }
        if let server {
            do {
                let port = try server.start()
                log(DaemonEvent(.httpStarted, message: "http://\(HTTPAddress(host: server.address.host, port: port))/"))
            } catch {
                throw CommandFailure(message: "cannot serve HTTP on \(server.address): \(error)", exitCode: ExitStatus.configuration)
            }
        }
        defer { server?.stop() }
        let trap = SignalTrap { daemon.stop() }
        let hangUp = SignalTrap.source(for: SIGHUP, queue: DispatchQueue(label: "onair.sighup")) { daemon.wake() }
        log(DaemonEvent(.daemonStarted, message: "pid \(getpid()), socket \(daemon.socket)"))
        defer {
            hangUp.cancel()
            withExtendedLifetime((trap, lock)) {}
        }
        try daemon.run()
        log(DaemonEvent(.daemonStopped))
    }

    /// The Home Assistant bridge, when a broker is named (--mqtt, or ONAIR_MQTT_URL).
    private func homeAssistantBridge(facade: DaemonFacade, name: String, log: @escaping @Sendable (DaemonEvent) -> Void) throws -> HomeAssistantBridge? {
        guard let text = mqtt ?? ProcessInfo.processInfo.environment["ONAIR_MQTT_URL"], !text.isEmpty else { return nil }
        do {
            var options = HomeAssistantOptions(broker: try BrokerURL(parsing: text), daemonName: name)
            options.discoveryPrefix = mqttPrefix
            return try HomeAssistantBridge(facade: facade, options: options) { log(DaemonEvent(.mqtt, message: $0)) }
        } catch let error as BrokerURL.Invalid {
            throw CommandFailure(message: error.description, exitCode: ExitStatus.configuration)
        } catch {
            throw CommandFailure(message: "cannot publish to Home Assistant: \(error)", exitCode: ExitStatus.configuration)
        }
    }
}
