import Engine
import Foundation
import Hummingbird
import RadioModel
import Scheduling

/// `/schedule`: rules added for a catalogue programme or a time, the next episodes, and the recent
/// episodes with why one failed or was missed.
struct ScheduleView {
    struct Option {
        var value: String
        var label: String
    }

    struct Rule {
        var id: Int64
        var station: String
        var what: String
        var next: String
        var keeps: String
        var paused: Bool
    }

    struct Upcoming {
        var station: String
        var programme: String
        var start: String
        var length: String
    }

    struct Past {
        var station: String
        var start: String
        var status: String
        var reason: String?
        var failed: Bool
    }

    var chrome: Chrome
    var programmes: [Option]
    var hasProgrammes: Bool
    var stations: [Option]
    var rules: [Rule]
    var next: [Upcoming]
    var episodes: [Past]

    static let template = """
    {{<layout}}{{$content}}
    <div class="columns">
    <section aria-labelledby="add-programme">
    <h2 id="add-programme">Record a programme</h2>
    {{^programmes}}<p>No station in the catalogue lists its programmes: record at a time instead.</p>{{/programmes}}
    {{#hasProgrammes}}
    <form method="post" action="/schedule/rules" class="stack">{{>csrf}}
      <label for="programme">Programme</label>
      <select id="programme" name="programme" required>{{#programmes}}<option value="{{value}}">{{label}}</option>{{/programmes}}</select>
      <label for="keep-programme">Keep the newest (episodes; empty keeps all)</label>
      <input id="keep-programme" name="keep" inputmode="numeric" pattern="[0-9]*">
      <label for="keep-days-programme">Keep for (days; empty keeps them however old)</label>
      <input id="keep-days-programme" name="keepDays" inputmode="numeric" pattern="[0-9]*">
      <button type="submit">Record every broadcast</button>
    </form>
    {{/hasProgrammes}}
    </section>
    <section aria-labelledby="add-time">
    <h2 id="add-time">Record at a time</h2>
    <form method="post" action="/schedule/rules" class="stack">{{>csrf}}
      <label for="station">Station (an id from the catalogue, or a stream URL)</label>
      <input id="station" name="station" list="station-ids" required>
      <datalist id="station-ids">{{#stations}}<option value="{{value}}">{{label}}</option>{{/stations}}</datalist>
      <label for="on">Once, on (local date and time)</label>
      <input id="on" name="on" type="datetime-local" step="1">
      <label for="at">Or every week, at (e.g. fri 22:00, mon-fri 06:30, daily 07:00)</label>
      <input id="at" name="at">
      <label for="duration">For how long (e.g. 90s, 45m, 2h)</label>
      <input id="duration" name="duration" required>
      <label for="tz">Time zone (empty: the station's)</label>
      <input id="tz" name="timeZone" placeholder="Europe/Paris">
      <label for="keep-days">Keep for (days; empty keeps them however old)</label>
      <input id="keep-days" name="keepDays" inputmode="numeric" pattern="[0-9]*">
      <button type="submit">Add the rule</button>
    </form>
    </section>
    </div>
    <section aria-labelledby="rules-heading">
    <h2 id="rules-heading">Rules</h2>
    <ul class="cards" id="rules">
    {{#rules}}<li><span class="title">Rule {{id}}: {{station}}</span> <span class="meta">{{what}}</span>
      <span class="meta">keeps {{keeps}}</span>
      <span class="meta">{{#paused}}paused{{/paused}}{{^paused}}next {{next}}{{/paused}}</span>
      <div class="actions">
      {{#paused}}<form method="post" action="/schedule/rules/{{id}}/resume">{{>csrf}}<button type="submit">Resume rule {{id}}</button></form>{{/paused}}
      {{^paused}}<form method="post" action="/schedule/rules/{{id}}/pause">{{>csrf}}<button type="submit">Pause rule {{id}}</button></form>{{/paused}}
      <form method="post" action="/schedule/rules/{{id}}/delete" data-confirm="Delete rule {{id}}? Its recordings stay.">{{>csrf}}
      <button type="submit">Delete rule {{id}}</button></form>
      </div></li>
    {{/rules}}
    {{^rules}}<li>No rules yet.</li>{{/rules}}
    </ul>
    </section>
    <section aria-labelledby="next-heading">
    <h2 id="next-heading">Next episodes</h2>
    <ul class="cards" id="next">
    {{#next}}<li><span class="title">{{station}}</span> <span class="meta">{{programme}}</span> <span class="meta">{{start}}, {{length}}</span></li>{{/next}}
    {{^next}}<li>Nothing ahead.</li>{{/next}}
    </ul>
    </section>
    <section aria-labelledby="episodes-heading">
    <h2 id="episodes-heading">Recent episodes</h2>
    <ul class="cards" id="episodes">
    {{#episodes}}<li{{#failed}} class="failed"{{/failed}}><span class="title">{{station}}</span> <span class="meta">{{start}}</span>
      <span class="status">{{status}}</span>{{#reason}} <span class="reason">{{reason}}</span>{{/reason}}</li>{{/episodes}}
    {{^episodes}}<li>No episodes yet.</li>{{/episodes}}
    </ul>
    </section>
    {{/content}}{{/layout}}
    """
}

/// A rule as the schedule's forms (and a station page's programme buttons) post it. `programme` is
/// "STATION/PROGRAMME" from the schedule's list, or a programme id with `station` beside it.
struct RuleForm: Decodable, Sendable {
    var station: String?
    var programme: String?
    var on: String?
    var at: String?
    var duration: String?
    var timeZone: String?
    var keep: String?
    var keepDays: String?
}

extension Pages {
    func schedule(notice: String? = nil, error: String? = nil) -> RenderedPage {
        var chrome = Chrome(title: "Schedule", section: "/schedule", notice: notice, error: error)
        var view = ScheduleView(chrome: chrome, programmes: [], hasProgrammes: false, stations: [], rules: [], next: [], episodes: [])
        var status: HTTPResponse.Status = error == nil ? .ok : .unprocessableContent
        do {
            let catalogue = try services.catalogue()
            view.stations = catalogue.stations.map { ScheduleView.Option(value: $0.id, label: $0.name) }
            view.programmes = catalogue.stations.flatMap { station in
                station.programmes.map { ScheduleView.Option(value: "\(station.id)/\($0.id)", label: "\(station.name): \($0.name)") }
            }
            view.hasProgrammes = !view.programmes.isEmpty
            let rules = try services.schedule.rules()
            let now = Date()
            view.rules = rules.map { rule in
                let shown = RuleView(rule, after: now, guide: services.guide)
                return ScheduleView.Rule(id: shown.id, station: shown.station, what: [rule.programme?.name, shown.when].compactMap { $0 }
                                            .joined(separator: ": ") + " (\(shown.timeZone))",
                                         next: shown.next.map { Display.time($0, TimeZone(identifier: rule.timeZone) ?? .current) } ?? "none",
                                         keeps: shown.keepText, paused: shown.paused)
            }
            view.next = UpcomingEpisodes.next(10, of: rules, after: now, guide: services.guide).map { episode in
                ScheduleView.Upcoming(station: episode.station, programme: episode.programme ?? "",
                                      start: Display.time(episode.start, TimeZone(identifier: episode.timeZone) ?? .current),
                                      length: TimeSpan(seconds: episode.end.timeIntervalSince(episode.start)).description)
            }
            let zones = Dictionary(rules.map { ($0.id ?? 0, TimeZone(identifier: $0.timeZone) ?? .current) }, uniquingKeysWith: { a, _ in a })
            view.episodes = try services.schedule.episodes(ruleID: nil, limit: 30).map { episode in
                ScheduleView.Past(station: episode.station, start: Display.time(episode.programmeStart, zones[episode.ruleID] ?? .current),
                                  status: episode.status.rawValue, reason: episode.reason,
                                  failed: episode.status == .failed || episode.status == .missed)
            }
        } catch {
            chrome.error = "\(error)"
            view.chrome = chrome
            status = Self.unreadable
        }
        return renderer.render("schedule", view, status: status)
    }

    /// Checks the rule through `RuleRequest` (as `onair schedule add` does), saves it and wakes the scheduler.
    func addRule(_ form: RuleForm) -> RenderedPage {
        var stationID = Display.given(form.station)
        var programme = Display.given(form.programme)
        if let given = programme, stationID == nil, let slash = given.firstIndex(of: "/") {
            (stationID, programme) = (String(given[..<slash]), String(given[given.index(after: slash)...]))
        }
        guard let stationID else { return schedule(error: "Name a station: an id from the catalogue, or a stream URL.") }
        var request = RuleRequest(station: stationID)
        request.programme = programme
        request.timeZone = Display.given(form.timeZone)
        if programme == nil {
            switch (Display.given(form.on), Display.given(form.at)) {
            case (let on?, nil): request.on = on
            case (nil, let at?): request.at = at
            case (nil, nil): return schedule(error: "Say when: a date and time, or weekly days and a time.")
            default: return schedule(error: "Give either a date and time or weekly days and a time, not both.")
            }
            guard let duration = Display.given(form.duration) else { return schedule(error: "Say how long to record, e.g. 1h.") }
            request.duration = duration
        }
        if let keep = Display.given(form.keep) {
            guard let count = Int(keep), count >= 1 else { return schedule(error: "Keep must be a whole number of at least 1.") }
            request.keep = count
        }
        if let keepDays = Display.given(form.keepDays) {
            guard let days = Int(keepDays), days >= 1 else { return schedule(error: "Keep for must be a whole number of days, at least 1.") }
            request.keepDays = days
        }
        do {
            return .redirect(Self.location("/schedule", notice: try saveRule(request)))
        } catch {
            return schedule(error: "\(error)")
        }
    }

    /// Makes the rule `request` asks for (as `onair schedule add` does), saves it and wakes the
    /// scheduler; returns what to tell the user.
    func saveRule(_ request: RuleRequest) throws -> String {
        let target = try StreamTarget.parse(request.station, catalogue: services.catalogue)
        let entry: Station? = if case .station(let station) = target { station } else { nil }
        let (rule, next) = try request.rule(catalogueStation: entry, guide: services.guide)
        let saved = try services.schedule.add(rule)
        services.wakeScheduler()
        let when = Display.time(next.start, TimeZone(identifier: saved.timeZone) ?? .current)
        return "Added rule \(saved.id ?? 0): \(request.station) \(saved.whenText); next \(when)."
    }

    /// Pauses, resumes or deletes a rule (its recordings stay).
    func changeRule(_ id: Int64, _ action: String) throws -> RenderedPage {
        let changed: ScheduleRule?
        switch action {
        case "pause": changed = try services.schedule.setPaused(ruleID: id, true)
        case "resume": changed = try services.schedule.setPaused(ruleID: id, false)
        case "delete": changed = try services.schedule.remove(ruleID: id)
        default: return notFound("No such action on a rule: \(action).", section: "/schedule")
        }
        guard changed != nil else { return notFound("No rule \(id).", section: "/schedule") }
        services.wakeScheduler()
        let done = ["pause": "Paused", "resume": "Resumed", "delete": "Deleted"][action] ?? action
        return .redirect(Self.location("/schedule", notice: "\(done) rule \(id)."))
    }
}
