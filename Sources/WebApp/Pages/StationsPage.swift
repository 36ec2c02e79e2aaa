import Foundation
import RadioModel
import StreamInput

/// `/stations`: the catalogue searched by name, tag, country or language; the radio-browser directory
/// searched by name, a result added to the user's catalogue.
struct StationsView {
    struct Row {
        var id: String
        var name: String
        var place: String
        var tags: String
        var href: String
        var artwork: String
        var nowPlaying: String
        var play: PlayActions
    }

    struct DirectoryRow {
        var uuid: String
        var name: String
        var details: String
    }

    var chrome: Chrome
    var query: String
    var directoryQuery: String
    var stations: [Row]
    var directorySearched: Bool
    var directory: [DirectoryRow]

    static let template = """
    {{<layout}}{{$content}}
    <form class="search" method="get" action="/stations" role="search">
      <label for="q">Search the catalogue</label>
      <div class="row"><input id="q" name="q" type="search" value="{{query}}" placeholder="name, tag, country or language">
      <button type="submit">Search</button></div>
    </form>
    <ul class="cards" id="catalogue">
    {{#stations}}<li class="card"><img class="art" src="{{artwork}}" alt="" width="56" height="56" loading="lazy">
      <span class="what"><a class="title" href="{{href}}">{{name}}</a> <span class="meta">{{place}} · {{tags}}</span>
      <span class="live" data-live-title="{{id}}">{{nowPlaying}}</span></span>{{>play}}</li>
    {{/stations}}
    {{^stations}}<li>No station in the catalogue matches.</li>{{/stations}}
    </ul>
    <h2>Find a station in the radio-browser directory</h2>
    <form class="search" method="get" action="/stations" role="search">
      <label for="directory">Station name</label>
      <div class="row"><input id="directory" name="directory" type="search" value="{{directoryQuery}}">
      <button type="submit">Search the directory</button></div>
    </form>
    {{#directorySearched}}
    <ul class="cards" id="directory-results">
    {{#directory}}<li><span class="title">{{name}}</span> <span class="meta">{{details}}</span>
      <form method="post" action="/stations/add">{{>csrf}}<input type="hidden" name="query" value="{{directoryQuery}}">
      <input type="hidden" name="uuid" value="{{uuid}}"><button type="submit">Add to my stations</button></form></li>
    {{/directory}}
    {{^directory}}<li>The directory lists no station of that name.</li>{{/directory}}
    </ul>
    {{/directorySearched}}
    {{/content}}{{/layout}}
    """
}

/// The directory result to add, found again by its id in the same search.
struct DirectoryPick: Decodable, Sendable {
    var query: String
    var uuid: String
}

extension Pages {
    func stations(query: String?, directory: String?, notice: String? = nil, error: String? = nil) -> RenderedPage {
        var chrome = Chrome(title: "Stations", section: "/stations", notice: notice, error: error)
        var rows: [StationsView.Row] = []
        do {
            let titles = services.titles.latest()
            rows = try services.catalogue().search(query ?? "").map { station in
                StationsView.Row(id: station.id, name: station.name, place: "\(station.country) · \(station.language)",
                                 tags: station.tags.joined(separator: ", "), href: "/stations/\(station.id)",
                                 artwork: ArtworkRoutes.station(station.id), nowPlaying: titles[station.id]?.title ?? "",
                                 play: PlayActions(ref: "station:\(station.id)", title: station.name))
            }
        } catch {
            chrome.error = "\(error)"
        }
        var found: [StationsView.DirectoryRow] = []
        if let directory = Display.given(directory) {
            do {
                found = try services.directory(directory).map { result in
                    let audio = [result.codec, result.bitrate.map { "\($0)k" }].compactMap { $0 }.joined(separator: " ")
                    return StationsView.DirectoryRow(uuid: result.uuid, name: result.name,
                                                     details: [result.countryCode, audio, result.kind.rawValue].compactMap { $0 }
                                                         .filter { !$0.isEmpty }.joined(separator: " · "))
                }
            } catch {
                chrome.error = "\(error)"
            }
        }
        return renderer.render("stations", StationsView(chrome: chrome, query: query ?? "", directoryQuery: directory ?? "", stations: rows,
                                                        directorySearched: Display.given(directory) != nil, directory: found),
                               status: chrome.error == nil ? .ok : .badGateway)
    }

    /// Adds a directory result to the user's catalogue (as `onair search --add` does) and shows its page.
    func addFromDirectory(_ pick: DirectoryPick) -> RenderedPage {
        do {
            let taken = Set(try services.catalogue().stations.map(\.id))
            guard let result = try services.directory(pick.query).first(where: { $0.uuid == pick.uuid }) else {
                return stations(query: nil, directory: pick.query, error: "the directory no longer lists that station: search again")
            }
            let station = result.catalogueStation(avoiding: taken)
            try services.userCatalogue.add(station)
            var note = "Added \(station.name) to your stations as \(station.id)."
            if station.timeZone == "UTC" { note += " Its time zone is set to UTC: correct it before scheduling recordings." }
            return .redirect(Self.location("/stations/\(station.id)", notice: note))
        } catch {
            return stations(query: nil, directory: pick.query, error: "\(error)")
        }
    }
}
