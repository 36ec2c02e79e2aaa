import ArgumentParser
import Foundation
import RadioModel
import StreamInput

extension StationsCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the stations a playlist lists (.pls, .m3u, .xspf, .asx) to your catalogue.",
            discussion: """
            Reads a list of stations from a file or an http(s) URL — a .pls (FileN, named by TitleN), an .m3u \
            (named by its #EXTINF titles), an XSPF (each track's locations, named by its title) or an ASX \
            (each ENTRY's REFs, named by its TITLE) — and adds one station per entry to your own catalogue \
            ($XDG_CONFIG_HOME/onair/stations.json, or $ONAIR_HOME/config/stations.json). What the file is comes \
            from its first bytes, not its name. A URL is fetched as `onair resolve` fetches playlists.

            A station's id is made from its name (lowercase ASCII words joined by dashes; "-2", "-3" … when \
            taken) and its streams are the entry's URLs in order; entries that are not http or https (mms:, \
            rtsp:, a path) are skipped, and so is an entry whose URL is already a station's stream, each with \
            a line saying why. A playlist does not say a station's country, language or time zone: imported \
            stations get "ZZ", "und" and UTC — correct them in the file before scheduling recordings.

            Examples:
              onair stations import ~/Music/radio.m3u
              onair stations import https://somafm.com/groovesalad.pls
              onair stations import stations.xspf --dry-run
              onair stations import list.asx --json | jq -r .id

            Exit codes: 0 success (also when every entry was there already); 1 the playlist could not be \
            fetched or read, or lists no station onair can play; 3 a catalogue that cannot be read or written; \
            4 no such file; 64 usage error.
            """
        )

        @Argument(help: ArgumentHelp("A playlist file, or its http or https URL.", valueName: "file|url"))
        var source: String

        @Flag(help: "Show what would be added, without writing the catalogue.")
        var dryRun = false

        @Flag(help: "Print each added station as one line of JSON, in the stations.json format.")
        var json = false

        func run() throws {
            try reportingFailures {
                // Loaded first, so a broken catalogue is reported before anything is fetched.
                let catalogue = try CatalogueAccess.load()
                let (body, url) = try fetch()
                let reading: PlaylistReading
                do {
                    reading = try PlaylistParser.read(body, url: url)
                } catch {
                    throw CommandFailure(message: "\(error)", exitCode: ExitStatus.streamFailed)
                }
                guard !reading.items.isEmpty else {
                    throw CommandFailure(message: "\(URLRedaction.redact(url)) is an HLS playlist: one station's stream, not a list "
                                         + "of stations (add it to your catalogue with kind \"hls\")", exitCode: ExitStatus.streamFailed)
                }
                reading.warnings.forEach { Console.message("onair: warning: \($0)") }
                reading.skipped.forEach { Console.message("onair: skipped \($0)") }
                var importer = StationImport(existing: catalogue.stations)
                let plan = importer.plan(reading.items)
                plan.duplicates.forEach { Console.message("onair: skipped \($0)") }
                try save(plan.stations)
            }
        }

        /// The playlist's bytes and the URL its relative entries resolve against.
        private func fetch() throws(CommandFailure) -> (Data, String) {
            if let scheme = URLComponents(string: source)?.scheme?.lowercased() {
                if scheme == "file", let path = URL(string: source)?.path { return try read(path) }
                guard scheme == "http" || scheme == "https" else {
                    throw CommandFailure(message: "'\(source)' is neither a file nor an http or https URL",
                                         exitCode: ExitCode.validationFailure.rawValue)
                }
                do {
                    let request = TransferRequest(url: source)
                    let response = try PlaylistFetch.fetch(request, maxBytes: PlaylistParser.maxBytes)
                    guard !response.stoppedAfterHead else {
                        throw CommandFailure(message: "\(URLRedaction.redact(response.head.url)) answers an audio stream, not a "
                                             + "list of stations", exitCode: ExitStatus.streamFailed)
                    }
                    return (response.body, response.head.url)
                } catch let failure as CommandFailure {
                    throw failure
                } catch {
                    throw CommandFailure(message: "cannot fetch the playlist: \(error)", exitCode: ExitStatus.streamFailed)
                }
            }
            return try read(source)
        }

        private func read(_ path: String) throws(CommandFailure) -> (Data, String) {
            let file = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            guard size <= PlaylistParser.maxBytes else {
                throw CommandFailure(message: "\(file.path): larger than \(PlaylistParser.maxBytes) bytes, not a playlist onair reads",
                                     exitCode: ExitStatus.streamFailed)
            }
            do {
                return (try Data(contentsOf: file), file.absoluteString)
            } catch {
                throw CommandFailure(message: "cannot read \(file.path): \((error as NSError).localizedDescription)",
                                     exitCode: ExitStatus.notFound)
            }
        }

        private func save(_ stations: [Station]) throws(CommandFailure) {
            let userCatalogue = CatalogueAccess.userCatalogue
            if !dryRun && !stations.isEmpty {
                do {
                    try userCatalogue.add(stations)
                } catch {
                    throw CatalogueAccess.failure(error)
                }
            }
            let verb = dryRun ? "would add" : "added"
            if json {
                stations.forEach { Console.json($0) }
            } else if !stations.isEmpty {
                print(TextTable.render(stations.map { [verb, $0.id, $0.name, $0.streams[0].url + ($0.streams.count > 1 ? " (+\($0.streams.count - 1))" : "")] }))
            }
            let count = stations.count == 1 ? "1 station" : "\(stations.count) stations"
            var note = dryRun ? "Would add \(count) to \(userCatalogue.url.path) (nothing written: --dry-run)"
                              : "Added \(count) to \(userCatalogue.url.path)"
            if let first = stations.first, !dryRun {
                note += "\nListen with: onair listen \(first.id)\nIts country, language and time zone are unknown (ZZ, und, UTC): "
                    + "correct them in that file before scheduling recordings."
            }
            if json || stations.isEmpty { Console.message(note) } else { print("\n" + note) }
        }
    }
}

/// Catalogue stations made from a playlist's items: named from their titles (made printable), ids from the
/// names (unique among the catalogue's and each other), and an item whose URL some station already streams
/// left out.
struct StationImport {
    private var takenIDs: Set<String>
    /// Stream URLs already in the catalogue, and the id of the station each belongs to.
    private var knownURLs: [String: String] = [:]

    init(existing: [Station]) {
        takenIDs = Set(existing.map(\.id))
        for station in existing {
            for stream in station.streams where knownURLs[stream.url] == nil { knownURLs[stream.url] = station.id }
        }
    }

    /// The stations to add, and a line for each item left out.
    mutating func plan(_ items: [PlaylistItem]) -> (stations: [Station], duplicates: [String]) {
        var stations: [Station] = []
        var duplicates: [String] = []
        for item in items {
            let name = Self.name(of: item)
            if let url = item.urls.first(where: { knownURLs[$0] != nil }), let id = knownURLs[url] {
                duplicates.append("\"\(name)\": \(URLRedaction.redact(url)) is already station \(id)")
                continue
            }
            let id = uniqueID(for: name)
            let station = Station(id: id, name: name, country: "ZZ", language: "und", timeZone: "UTC", tags: [],
                                  streams: item.urls.map { StreamEndpoint(url: $0, kind: Self.kind(of: $0)) })
            for url in item.urls { knownURLs[url] = id }
            stations.append(station)
        }
        return (stations, duplicates)
    }

    /// The item's title as one printable line; without one, the host (and port) its first URL names.
    static func name(of item: PlaylistItem) -> String {
        let title = UntrustedText.printable(item.title ?? "", maxLength: 120).trimmingCharacters(in: .whitespaces)
        if !title.isEmpty { return title }
        let components = URLComponents(string: item.urls[0])
        let host = components?.host ?? item.urls[0]
        return UntrustedText.printable(components?.port.map { "\(host):\($0)" } ?? host, maxLength: 120)
    }

    /// What a stream URL's path says its kind is; the resolver finds out for sure when it plays.
    static func kind(of url: String) -> StreamKind {
        let path = (URLComponents(string: url)?.path ?? "").lowercased()
        if path.hasSuffix(".m3u8") { return .hls }
        if path.hasSuffix(".mpd") { return .dash }
        return .icy
    }

    private mutating func uniqueID(for name: String) -> String {
        let slug = Slug.make(name)
        let base = slug.isEmpty ? "station" : slug
        var id = base
        var number = 2
        while takenIDs.contains(id) {
            id = "\(base)-\(number)"
            number += 1
        }
        takenIDs.insert(id)
        return id
    }
}
