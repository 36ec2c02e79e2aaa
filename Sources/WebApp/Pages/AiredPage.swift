import ClipDetection
import Foundation
import Guide
import Hummingbird
import RadioModel

/// `/aired`: what aired of the known clips on a day, as `onair aired` tells it — a timeline of the day per station
/// and the table of airings on each station's clock — and the clips the stations are watched for.
struct AiredView {
    struct Row {
        var time: String
        var station: String
        var clip: String
        var kind: String
        var length: String
    }

    /// One airing on a station's day: where it sits along the day, in per cent, and what it was.
    struct Mark {
        var left: String
        var width: String
        var kind: String
        var label: String
    }

    struct Lane {
        var station: String
        var marks: [Mark]
    }

    struct Clip {
        var name: String
        var kind: String
        var length: String
    }

    var chrome: Chrome
    var date: String
    var zone: String
    var previous: String
    var next: String
    var kinds: [SelectOption]
    var lanes: [Lane]
    var rows: [Row]
    /// Stored, not computed: templates see stored properties only.
    var hasRows = false
    var clips: [Clip]
    /// Songs learned from the stations' titles (`onair daemon --learn-tracks`): counted, not listed (up to a thousand).
    var learned: String?

    static let template = """
    {{<layout}}{{$content}}
    <form method="get" action="/aired" class="stack">
      <label for="date">Day</label>
      <input id="date" name="date" type="date" value="{{date}}" required>
      <label for="kind">Kind</label>
      <select id="kind" name="kind">{{#kinds}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/kinds}}</select>
      <button type="submit">Show</button>
    </form>
    <p class="actions"><a class="button" href="{{previous}}" rel="prev">Day before</a> <a class="button" href="{{next}}" rel="next">Day after</a></p>
    <h2>The day on each station</h2>
    <p class="meta">From midnight to midnight, {{zone}}.</p>
    {{#lanes}}<figure class="timeline"><figcaption>{{station}}</figcaption>
    <ul class="lane">{{#marks}}<li class="mark {{kind}}" style="left:{{left}}%;width:{{width}}%" title="{{label}}"><span class="visually-hidden">{{label}}</span></li>{{/marks}}</ul>
    <div class="hours" aria-hidden="true"><span>00</span><span>06</span><span>12</span><span>18</span><span>24</span></div></figure>{{/lanes}}
    {{^lanes}}<p id="nothing-aired">None of the clips aired on this day.</p>{{/lanes}}
    {{#hasRows}}<h2>Airings</h2>
    <div class="table"><table id="airings"><thead><tr><th scope="col">Station time</th><th scope="col">Station</th><th scope="col">Clip</th>
    <th scope="col">Kind</th><th scope="col">Aired</th></tr></thead><tbody>
    {{/hasRows}}{{#rows}}<tr><td>{{time}}</td><td>{{station}}</td><td>{{clip}}</td><td>{{kind}}</td><td>{{length}}</td></tr>{{/rows}}{{#hasRows}}
    </tbody></table></div>{{/hasRows}}
    <h2>Clips watched for</h2>
    <ul class="cards" id="clips">{{#clips}}<li><span class="title">{{name}}</span> <span class="meta">{{kind}}, {{length}}</span></li>{{/clips}}
    {{^clips}}<li>No clips yet: add one with <code>onair clips add FILE --name NAME --kind ad</code>, or from a recording through the API.</li>{{/clips}}</ul>
    {{#learned}}<p id="learned">{{learned}}</p>{{/learned}}
    {{/content}}{{/layout}}
    """
}

extension Pages {
    func aired(date: String?, kind: String?) -> RenderedPage {
        let chrome = Chrome(title: "Aired", section: "/aired")
        let zone = TimeZone.current
        guard let day = GuideListing.day(date, in: zone) else {
            return notFound("\(UntrustedText.printable(date ?? "", maxLength: 40)) is not a day (use YYYY-MM-DD).", section: "/aired")
        }
        let kind = kind.flatMap(ReferenceClip.Kind.init(rawValue:))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        let address = { (day: Date) -> String in
            var components = URLComponents()
            components.path = "/aired"
            components.queryItems = [URLQueryItem(name: "date", value: formatter.string(from: day))]
                + (kind.map { [URLQueryItem(name: "kind", value: $0.rawValue)] } ?? [])
            return components.string ?? "/aired"
        }
        var view = AiredView(chrome: chrome, date: formatter.string(from: day.start), zone: zone.identifier,
                             previous: address(day.start.addingTimeInterval(-12 * 3600)), next: address(day.end.addingTimeInterval(12 * 3600)),
                             kinds: [SelectOption(value: "", label: "Every kind", selected: kind == nil)]
                                 + ReferenceClip.Kind.allCases.map { SelectOption(value: $0.rawValue, label: $0.rawValue, selected: $0 == kind) },
                             lanes: [], rows: [], clips: [], learned: nil)
        do {
            let stores = try services.clips()
            // A day's worth at most (a station airing a clip back to back all day is 5,760 of 15 s).
            let airings = try stores.airings.airings(kind: kind?.rawValue, since: day.start, until: day.end, limit: 10_000)
            let rows = AiredRow.rows(airings, catalogue: try? services.catalogue())
            let names = Dictionary((try? services.catalogue())?.stations.map { ($0.id, $0.name) } ?? [], uniquingKeysWith: { first, _ in first })
            view.rows = rows.map { row in
                AiredView.Row(time: "\(row.stationTime) \(row.timeZone)", station: names[row.station] ?? row.station, clip: row.clip, kind: row.kind,
                              length: String(format: "%.1f s", row.seconds) + (row.partial ? String(format: " (part, from %.1f s)", row.offset) : ""))
            }
            view.hasRows = !view.rows.isEmpty
            let length = day.duration
            view.lanes = Dictionary(grouping: airings, by: \.station).sorted { $0.key < $1.key }.map { station, airings in
                AiredView.Lane(station: names[station] ?? station, marks: airings.map { airing in
                    let from = airing.start.timeIntervalSince(day.start) / length * 100
                    // Wide enough to see and to point at: a 15-s spot is 0.02 % of a day.
                    let width = max(0.4, airing.end.timeIntervalSince(airing.start) / length * 100)
                    return AiredView.Mark(left: String(format: "%.3f", from), width: String(format: "%.3f", min(width, 100 - from)),
                                          kind: airing.kind, label: "\(airing.clip) (\(airing.kind)) at \(Display.time(airing.start, zone))")
                })
            }
            let library = try stores.library.all()
            view.clips = library.filter { !$0.learned }.map { clip in
                AiredView.Clip(name: clip.name, kind: clip.kind.rawValue, length: String(format: "%.1f s", clip.seconds))
            }
            let learned = library.filter(\.learned).count
            view.learned = learned == 0 ? nil : "And \(learned) song\(learned == 1 ? "" : "s") learned from the stations' titles (onair clips list)."
        } catch {
            var failed = view
            failed.chrome.error = "\(error)"
            return renderer.render("aired", failed, status: Self.unreadable)
        }
        return renderer.render("aired", view)
    }
}
