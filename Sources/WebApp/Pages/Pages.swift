import Foundation
import Hummingbird

/// The pages: each builds its view from the services and renders it, on a thread of the daemon facade's
/// `perform` (see `WebApp`), so SQLite and the directory may block.
struct Pages: Sendable {
    let services: PageServices
    let renderer: PageRenderer

    /// The status of a page that could not read what it shows (the database restarting, a catalogue file
    /// that no longer parses): 503, as the API answers, and not the 422 of a form it refused.
    static let unreadable = HTTPResponse.Status.serviceUnavailable

    /// A page's address with a notice to show once, after a form did what it said.
    static func location(_ path: String, notice: String) -> String {
        var components = URLComponents()
        components.path = path
        components.queryItems = [URLQueryItem(name: "notice", value: notice)]
        return components.string ?? path
    }

    /// The page a form came from (its `back` field: a path on this server, never another site), with a
    /// notice to show once; `fallback` when the form names none.
    static func location(back: String?, fallback: String, notice: String) -> String {
        guard let back, back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\"),
              var components = URLComponents(string: back), components.host == nil else { return location(fallback, notice: notice) }
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "notice" } + [URLQueryItem(name: "notice", value: notice)]
        return components.string ?? location(fallback, notice: notice)
    }

    /// A page for what does not exist (an id in the address that is not, or no longer, there).
    func notFound(_ message: String, section: String) -> RenderedPage {
        renderer.render("message", MessageView(chrome: Chrome(title: "Not found", section: section, error: message)), status: .notFound)
    }

    /// The page answered when the services of every page cannot be had (the library's tables cannot be
    /// opened): what failed, with the status of a page that cannot read what it shows.
    static func unavailable(_ message: String, section: String, renderer: PageRenderer) -> RenderedPage {
        renderer.render("message", MessageView(chrome: Chrome(title: "Unavailable", section: section, error: message)), status: unreadable)
    }

    /// The section of the navigation a path belongs to ("/stations/fip" is in "/stations", an episode in
    /// "/podcasts", the like and hide forms in "/playlists"); a path of no section marks none current.
    static func section(of path: String) -> String {
        let first = "/" + (path.split(separator: "/").first.map(String.init) ?? "")
        return ["/episodes": "/podcasts", "/library": "/playlists"][first] ?? first
    }
}

/// One choice of a page's select: what the form sends, what a person reads, and whether it is the one shown.
struct SelectOption {
    var value: String
    var label: String
    var selected: Bool
}

struct MessageView {
    var chrome: Chrome
}

/// Every page's template, registered once by `PageRenderer`.
enum PageTemplates {
    static let all: [(String, String)] = [
        ("message", "{{<layout}}{{/layout}}"),
        ("stations", StationsView.template), ("station", StationView.template), ("schedule", ScheduleView.template),
        ("recordings", RecordingsView.template), ("recording", RecordingView.template), ("status", StatusView.template),
        ("guide", GuideView.template), ("aired", AiredView.template), ("podcasts", PodcastsView.template), ("podcast", PodcastView.template),
        ("episode", EpisodeView.template), ("playlists", PlaylistsView.template), ("playlist", PlaylistView.template),
        ("listen-now", ListenNowView.template), ("search", SearchView.template),
        // Partials of several pages: like and hide buttons, the form that adds an item to a playlist, the player's
        // Play and Queue buttons, and the cards and shelves of lists.
        ("marks", Marks.template), ("addToPlaylist", AddToPlaylist.template), ("play", PlayActions.template),
        ("card", Card.template), ("shelf", Shelf.template),
    ]
}

/// Numbers and dates as the pages show them.
enum Display {
    /// "12.3 MB".
    static func size(_ bytes: Int64) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }

    /// "Tue 24 Nov 2026, 08:30" on the wall clock of `zone`.
    static func time(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE d MMM yyyy, HH:mm"
        return formatter.string(from: date)
    }

    /// A form field as given: nil when left empty.
    static func given(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}

/// An item's Play and "Add to queue" buttons for the player (`/assets/app.js`, which shows them): a programme or a
/// podcast plays or queues as its episodes.
struct PlayActions {
    var ref: String
    var title: String

    static let template = """
    {{#play}}<span class="play-actions" hidden><button type="button" data-play="{{ref}}" aria-label="Play {{title}}">Play</button>
    <button type="button" class="quiet" data-queue="{{ref}}" aria-label="Add {{title}} to the queue">Queue</button></span>{{/play}}
    """
}
