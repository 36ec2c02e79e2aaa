import ArgumentParser
import Casting
import Foundation
import HTTPService
import RadioModel
import Recording
import StreamInput

struct CastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cast",
        abstract: "Play a station or a recording on a network speaker (UPnP/DLNA renderer).",
        discussion: """
        Finds renderers on the local network with SSDP, asks the one --to names to fetch the audio \
        (AVTransport SetAVTransportURI with DIDL-Lite metadata: title, station, and the station's logo \
        when the catalogue gives one), and starts it. The \
        renderer fetches the audio itself, from onair's daemon: a station's live mount \
        (http://SERVER/live/STATION) or a recording (http://SERVER/api/v1/recordings/ID/audio), so \
        `onair daemon` must be running (--server says where it serves HTTP). The daemon serves only this \
        machine; for a speaker elsewhere, relay the station to the network and cast the relay's URL:
          onair relay fip --to 'http://0.0.0.0:8000/fip?allow-remote&token=secret'
          onair cast 'http://192.168.1.10:8000/fip?token=secret' --to upnp:Kitchen

        Titles: onair sets the title once; renderers that read the stream's ICY titles (the live mount \
        sends them to those that ask) show each song as it changes.

        Examples:
          onair cast --list
          onair cast fip --to upnp:Kitchen
          onair cast 12 --to upnp:Kitchen --volume 25
          onair cast --volume 40 --to upnp:Kitchen
          onair cast --stop --to http://192.168.1.20:1400/xml/device_description.xml

        Exit codes: 0 done; 1 the renderer or the daemon could not be reached, or refused; 3 unknown \
        station; 4 no renderer by that name answered, or no recording with that id; 64 usage error.
        """
    )

    @Argument(help: ArgumentHelp("A catalogue station, a recording's id, or an http URL to cast as it is.", valueName: "station|recording|url"))
    var item: String?

    @Option(help: ArgumentHelp("The renderer: upnp:NAME (its friendly name) or its device description URL.", valueName: "renderer"))
    var to: String?

    @Flag(help: "List the renderers that answer on the network: name, model, description URL.")
    var list = false

    @Flag(help: "Stop what the renderer plays.")
    var stop = false

    @Option(help: ArgumentHelp("Set the renderer's volume, 0–100 (with a station or recording: after it starts).", valueName: "n"))
    var volume: Int?

    @Option(help: ArgumentHelp("Where onair's daemon serves HTTP.", valueName: "addr:port"))
    var server: String = HTTPAddress.default.description

    @Option(help: ArgumentHelp("Seconds to wait for renderers to answer the search.", valueName: "seconds"))
    var wait: Double = 2

    @Flag(help: "With --list: one JSON object per renderer.")
    var json = false

    func validate() throws {
        if list {
            guard item == nil, to == nil, !stop, volume == nil else { throw ValidationError("--list takes no station, --to, --stop or --volume") }
        } else {
            guard let to else { throw ValidationError("name the renderer with --to upnp:NAME or --to URL (see: onair cast --list)") }
            guard RendererAddress(to) != nil else {
                throw ValidationError("invalid --to '\(to)': expected upnp:NAME or the renderer's http description URL")
            }
            guard item != nil || stop || volume != nil else { throw ValidationError("name a station or recording to cast, or give --stop or --volume") }
            guard !(stop && item != nil) else { throw ValidationError("--stop takes no station or recording") }
            guard !json else { throw ValidationError("--json goes with --list") }
        }
        if let volume, !(0...100).contains(volume) { throw ValidationError("--volume must be between 0 and 100") }
        guard wait > 0, wait <= 30 else { throw ValidationError("--wait must be between 0 and 30 seconds") }
        guard HTTPAddress(server) != nil else { throw ValidationError("invalid --server '\(server)': use ADDR:PORT (127.0.0.1:8080)") }
    }

    func run() throws {
        try reportingFailures {
            do {
                if list { return try listRenderers() }
                let control = RendererControl(try RendererAddress(to!)!.find(discoveryWait: wait))
                let name = control.renderer.friendlyName
                if stop {
                    try control.stop()
                    print("Stopped \(name)")
                }
                if let item {
                    let media = try castMedia(for: item)
                    try LoopbackReach.check(media.url, for: control.renderer)
                    try control.play(media)
                    print("Casting \(media.title) to \(name) (\(media.url.absoluteString))")
                }
                if let volume {
                    try control.setVolume(volume)
                    print("Volume of \(name): \(volume)")
                }
            } catch let error as CastingError {
                let exitCode = switch error.kind {
                case .notFound: ExitStatus.notFound
                case .renderer, .unusable: ExitStatus.streamFailed
                }
                throw CommandFailure(message: error.description, exitCode: exitCode)
            }
        }
    }

    private struct ListedRenderer: Encodable {
        let name: String
        let manufacturer: String
        let model: String
        let location: String
    }

    private func listRenderers() throws {
        let renderers = try RendererDiscovery.all(waiting: wait).map {
            ListedRenderer(name: $0.friendlyName, manufacturer: $0.manufacturer, model: $0.modelName, location: $0.location.absoluteString)
        }
        if json { return renderers.forEach { Console.json($0) } }
        guard !renderers.isEmpty else {
            return Console.message("No UPnP renderer answered within \(String(format: "%g", wait)) s (is multicast allowed on this network?)")
        }
        print(TextTable.render([["NAME", "MODEL", "LOCATION"]] + renderers.map { [$0.name, $0.model, $0.location] },
                               maxWidths: [30, 30]))
    }

    /// What the item is cast as: an http URL as it is; digits a recording; anything else a catalogue station.
    private func castMedia(for item: String) throws -> CastMedia {
        if let url = URL(string: item), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), let host = url.host {
            return CastMedia(url: url, kind: .liveStation, title: url.lastPathComponent.isEmpty ? host : url.lastPathComponent)
        }
        let base = "http://\(HTTPAddress(server)!)"
        if let id = Int64(item) {
            let recording = try RecordingsCommand.entry(id, in: RecordingsCommand.openIndex())
            try checkDaemon(base)
            let title = recording.episodeTitle ?? recording.programmeName ?? "\(recording.stationName) \(recording.startLocal)"
            // The station's logo, while the catalogue still has the station.
            let logo = (try? CatalogueAccess.load().station(id: recording.station))?.logo
            return CastMedia(url: URL(string: "\(base)/api/v1/recordings/\(id)/audio")!, kind: .recording, title: title,
                             station: recording.stationName, mimeType: CastMedia.mimeType(ofCodec: recording.codec),
                             artwork: logo.flatMap { URL(string: $0) })
        }
        guard let station = try CatalogueAccess.load().station(id: item) else {
            throw CommandFailure(message: "unknown station '\(item)' (see: onair stations)", exitCode: ExitStatus.configuration)
        }
        try checkDaemon(base)
        return CastMedia(url: URL(string: "\(base)/live/\(station.id)")!, kind: .liveStation, title: station.name, station: station.name,
                         mimeType: CastMedia.mimeType(ofCodec: station.streams.first?.codec), artwork: station.logo.flatMap { URL(string: $0) })
    }

    /// The renderer would fetch from the daemon: say so now if nothing serves there, not after the renderer fails silently.
    private func checkDaemon(_ base: String) throws {
        do {
            _ = try TransferEngine.shared.fetch(TransferRequest(url: "\(base)/api/v1/status", connectTimeout: 3, stallTimeout: 5), maxBytes: 1 << 20)
        } catch {
            throw CommandFailure(message: "no onair daemon answers at \(base) (start `onair daemon`, or give --server): \(error)",
                                 exitCode: ExitStatus.streamFailed)
        }
    }
}
