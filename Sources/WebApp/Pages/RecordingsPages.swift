import Foundation
import Library
import RadioModel
import Recording

/// `/recordings`: the finished recordings by programme (or station), newest first, each with a toggle
/// that keeps it from retention (a rule's keep limits, the daemon's `--min-free`).
struct RecordingsView {
    struct Group {
        var name: String
        /// The programme's anchor (`#programme-ID`), and its Play and Queue buttons (its episodes in order).
        var anchor: String
        var play: PlayActions?
        var recordings: [Item]
    }

    struct Item {
        var href: String
        var title: String
        var when: String
        var length: String
        var id: Int64
        var kept: Bool
        var marks: Marks
        var play: PlayActions
    }

    var chrome: Chrome
    var groups: [Group]
    /// The podcast feed of every recording, for a podcast app (with its secret token when the box has a login).
    var feed: String

    static let template = """
    {{<layout}}{{$content}}
    <p class="meta">Podcast feed of every recording: <a href="{{feed}}" id="feed" target="_blank">all.xml</a></p>
    {{#groups}}
    <section class="group" id="{{anchor}}"><h2>{{name}}</h2>
    {{>play}}
    <ul class="cards">{{#recordings}}<li><a class="title" href="{{href}}">{{title}}</a> <span class="meta">{{when}} · {{length}}</span>
      {{#kept}}<form method="post" action="/recordings/{{id}}/unkeep">{{>csrf}}<button type="submit" aria-pressed="true">Kept</button></form>{{/kept}}
      {{^kept}}<form method="post" action="/recordings/{{id}}/keep">{{>csrf}}<button type="submit" aria-pressed="false">Keep</button></form>{{/kept}}
      {{>play}}{{>marks}}</li>{{/recordings}}</ul>
    </section>
    {{/groups}}
    {{^groups}}<p>No recordings yet: record a station from its page, or add a rule to the schedule.</p>{{/groups}}
    {{/content}}{{/layout}}
    """
}

/// `/recordings/ID`: plays in the browser with seeking (the file is served with range requests, by the
/// API's `/api/v1/recordings/ID/audio`, the one route that reads recordings), its
/// chapters to jump to, its gaps, download and delete.
struct RecordingView {
    struct Chapter {
        var title: String
        var at: String
        var seconds: String
        var href: String
    }

    var chrome: Chrome
    var id: Int64
    var station: String
    var when: String
    var details: String
    var audioURL: String
    var playFrom: String
    var fileName: String
    var chapters: [Chapter]
    var gaps: [String]
    var marks: Marks
    var adding: AddToPlaylist
    var play: PlayActions

    static let template = """
    {{<layout}}{{$content}}
    <p class="meta">{{station}} · {{when}}</p>
    <p class="meta">{{details}}</p>
    {{>play}}
    <audio id="player" data-ref="recording:{{id}}" controls preload="metadata" src="{{audioURL}}{{playFrom}}">Your browser cannot play this file:
    <a href="{{audioURL}}">download it</a>.</audio>
    <h2>Chapters</h2>
    <ol class="chapters" id="chapters" data-chapters-of="recording:{{id}}">
    {{#chapters}}<li><a href="{{href}}" data-seek="{{seconds}}"><span class="at">{{at}}</span> {{title}}</a></li>{{/chapters}}
    {{^chapters}}<li>No titles were sent during this recording.</li>{{/chapters}}
    </ol>
    <h2>Gaps</h2>
    <ul class="cards" id="gaps">{{#gaps}}<li>{{.}}</li>{{/gaps}}{{^gaps}}<li>None: the audio is complete.</li>{{/gaps}}</ul>
    <div class="actions">
    <a class="button" href="{{audioURL}}" download="{{fileName}}">Download</a>
    {{>marks}}
    {{>addToPlaylist}}
    <form method="post" action="/recordings/{{id}}/delete" data-confirm="Delete this recording and its file?">{{>csrf}}
    <button type="submit" class="danger">Delete the recording</button></form>
    </div>
    {{/content}}{{/layout}}
    """
}

extension Pages {
    func recordings(notice: String? = nil) -> RenderedPage {
        var chrome = Chrome(title: "Recordings", section: "/recordings", notice: notice)
        var groups: [RecordingsView.Group] = []
        do {
            let library = try LibraryState(services.library)
            let hidden = try services.library.hiddenReferences()
            let newestFirst = try services.recordings.all().reversed().filter { !hidden.contains(ItemResolver.item($0).reference) }
            var order: [String] = []
            var byName: [String: [RecordingsView.Item]] = [:]
            var programmes: [String: String] = [:]
            for entry in newestFirst {
                let name = entry.programmeName ?? entry.stationName
                if byName[name] == nil { order.append(name) }
                if let programme = entry.programme { programmes[name] = programme }
                let item = ItemResolver.item(entry)
                byName[name, default: []].append(RecordingsView.Item(
                    href: "/recordings/\(entry.id ?? 0)", title: RecordingTitle.of(entry),
                    when: Display.time(entry.startUTC, TimeZone(identifier: entry.timeZone) ?? .current), length: ClockText.of(entry.duration),
                    id: entry.id ?? 0, kept: entry.kept, marks: library.marks(item, back: "/recordings"),
                    play: PlayActions(ref: item.reference, title: RecordingTitle.of(entry))))
            }
            groups = order.enumerated().map { index, name in
                let programme = programmes[name]
                return RecordingsView.Group(name: name, anchor: programme.map { "programme-\($0)" } ?? "group-\(index)",
                                            play: programme.map { PlayActions(ref: "programme:\($0)", title: name) }, recordings: byName[name] ?? [])
            }
        } catch {
            chrome.error = "\(error)"
        }
        return renderer.render("recordings", RecordingsView(chrome: chrome, groups: groups, feed: services.feedAddress("/feeds/all.xml")), status: chrome.error == nil ? .ok : .internalServerError)
    }

    func recording(id: Int64, start: Double?, notice: String? = nil, error: String? = nil) throws -> RenderedPage {
        guard let entry = try services.recordings.recording(id: id) else {
            return notFound("No recording \(id): it may have been deleted.", section: "/recordings")
        }
        let zone = TimeZone(identifier: entry.timeZone) ?? .current
        let library = try LibraryState(services.library)
        let item = ItemResolver.item(entry)
        let view = RecordingView(
            chrome: Chrome(title: RecordingTitle.of(entry), section: "/recordings", notice: notice, error: error), id: id,
            station: [entry.stationName, entry.programmeName].compactMap { $0 }.joined(separator: " – "),
            when: Display.time(entry.startUTC, zone),
            details: "\(ClockText.of(entry.duration)) · \(Display.size(entry.size)) · \(entry.codec) in \(entry.container)",
            audioURL: "/api/v1/recordings/\(id)/audio", playFrom: start.map { "#t=\(Self.seconds($0))" } ?? "",
            fileName: URL(fileURLWithPath: entry.file).lastPathComponent,
            chapters: entry.titles.map { title in
                RecordingView.Chapter(title: title.title, at: ClockText.of(title.start), seconds: Self.seconds(title.start),
                                      href: "/recordings/\(id)?t=\(Self.seconds(title.start))")
            },
            gaps: entry.gaps.map { String(format: "%@: %.1f s missing", ClockText.of($0.at), $0.seconds) },
            marks: library.marks(item, back: "/recordings/\(id)"), adding: library.adding(item, back: "/recordings/\(id)"),
            play: PlayActions(ref: item.reference, title: RecordingTitle.of(entry)))
        return renderer.render("recording", view, status: error == nil ? .ok : .conflict)
    }

    /// Deletes the file and cue sheet, then forgets the recording (as `onair recordings remove` does).
    func deleteRecording(id: Int64) throws -> RenderedPage {
        guard let entry = try services.recordings.recording(id: id) else {
            return notFound("No recording \(id): it may have been deleted.", section: "/recordings")
        }
        do {
            try entry.deleteFiles(inside: services.paths.recordings)
        } catch {
            return try recording(id: id, start: nil, error: error.description)
        }
        _ = try services.recordings.remove(id: id)
        return .redirect(Self.location("/recordings", notice: "Deleted \(RecordingTitle.of(entry)) (\(URL(fileURLWithPath: entry.file).lastPathComponent))."))
    }

    /// Keeps the recording from retention, or lets retention have it again; back to the list.
    func setKept(id: Int64, _ kept: Bool) throws -> RenderedPage {
        guard let entry = try services.recordings.setKept(id: id, kept) else {
            return notFound("No recording \(id): it may have been deleted.", section: "/recordings")
        }
        let said = kept ? "Keeping \(RecordingTitle.of(entry)): retention will not delete it." : "\(RecordingTitle.of(entry)) is no longer kept."
        return .redirect(Self.location("/recordings", notice: said))
    }

    /// Seconds as a media fragment and `currentTime` take them: "83.25".
    private static func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
}
