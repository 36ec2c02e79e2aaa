import Engine
import Foundation
import Guide
import Library
import Outputs
import RadioModel
import StreamInput

/// `/stations/ID`: what is on now, listening in the browser (the station's live mount), starting a relay
/// or a recording, and the station's jobs.
struct StationView {
    struct Job {
        var id: Int64
        var what: String
        var state: String
        var stopAction: String
    }

    struct Programme {
        var programme: String
        var name: String
        var when: String
    }

    var chrome: Chrome
    var id: String
    var homepage: String?
    var place: String
    var onAir: String?
    var nowPlaying: String
    var liveURL: String
    struct Sink { let name: String; let sink: String }
    var sinks: [Sink]
    var hasSinks: Bool
    var jobs: [Job]
    var programmes: [Programme]
    var hasProgrammes: Bool
    var formats: [String]
    var artwork: String
    var play: PlayActions
    var marks: Marks
    /// The titles the station sent lately, newest first.
    var history: [String]

    static let template = """
    {{<layout}}{{$content}}
    <div class="station-head"><img class="art" src="{{artwork}}" alt="" width="96" height="96">
    <p class="meta">{{place}}{{#homepage}} · <a href="{{homepage}}" target="_blank" rel="noopener noreferrer">website</a>{{/homepage}}</p></div>
    <section aria-labelledby="now">
    <h2 id="now">On air</h2>
    {{#onAir}}<p>Programme: <span class="programme">{{onAir}}</span></p>{{/onAir}}
    <p>Now playing: <span class="live" id="now-playing" data-live-title="{{id}}">{{nowPlaying}}</span></p>
    <div class="actions">{{>play}}{{>marks}}</div>
    <audio id="listen" data-ref="station:{{id}}" controls preload="none" src="{{liveURL}}">Your browser cannot play audio: <a href="{{liveURL}}">open the stream</a>.</audio>
    <h3 id="history-heading">Recently played</h3>
    <ol class="history" id="history" data-live-history="{{id}}" aria-labelledby="history-heading">{{#history}}<li>{{.}}</li>{{/history}}</ol>
    </section>
    <section aria-labelledby="jobs-heading">
    <h2 id="jobs-heading">Relay or record</h2>
    {{#hasSinks}}<form method="post" action="/stations/{{id}}/jobs" class="stack">{{>csrf}}
      <input type="hidden" name="kind" value="relay">
      <label for="sink">Relay to</label>
      <select id="sink" name="sink" required>{{#sinks}}<option value="{{name}}">{{name}} ({{sink}})</option>{{/sinks}}</select>
      <button type="submit">Start the relay</button>
    </form>{{/hasSinks}}
    {{^hasSinks}}<p>To relay from here, declare the sinks this box may relay to on the box itself, e.g.
      <code>onair sinks add kitchen fifo:/tmp/snapfifo</code>.</p>{{/hasSinks}}
    <form method="post" action="/stations/{{id}}/jobs" class="stack">{{>csrf}}
      <input type="hidden" name="kind" value="record">
      <label for="format">Record as</label>
      <select id="format" name="format">{{#formats}}<option value="{{.}}">{{.}}</option>{{/formats}}</select>
      <button type="submit">Record now</button>
    </form>
    <ul class="cards" id="jobs">
    {{#jobs}}<li><span class="title">Job {{id}}: {{what}}</span> <span class="meta">{{state}}</span>
      <form method="post" action="{{stopAction}}">{{>csrf}}<button type="submit">Stop job {{id}}</button></form></li>{{/jobs}}
    </ul>
    </section>
    {{#hasProgrammes}}
    <section aria-labelledby="programmes-heading">
    <h2 id="programmes-heading">Programmes</h2>
    <ul class="cards">
    {{#programmes}}<li><span class="title">{{name}}</span> <span class="meta">{{when}}</span>
      <form method="post" action="/schedule/rules">{{>csrf}}<input type="hidden" name="station" value="{{id}}">
      <input type="hidden" name="programme" value="{{programme}}"><button type="submit">Record every broadcast of {{name}}</button></form></li>
    {{/programmes}}
    </ul>
    </section>
    {{/hasProgrammes}}
    {{/content}}{{/layout}}
    """
}

/// A relay or a recording asked for on a station's page.
struct JobForm: Decodable, Sendable {
    var kind: String
    var sink: String?
    var format: String?
}

extension Pages {
    func station(id: String, notice: String? = nil, error: String? = nil) throws -> RenderedPage {
        guard let station = try services.catalogue().station(id: id) else {
            return notFound("No station with id \(id) in the catalogue.", section: "/stations")
        }
        let target = StreamTarget.station(station)
        let jobs = services.jobs().filter { $0.station == id }
        let aired = services.titles.recent(of: id).map(\.title).filter { !$0.isEmpty }
        let item = LibraryItem(kind: .station, ref: id, title: station.name)
        let sinks = ((try? services.declaredSinks()) ?? DeclaredSinks()).sinks.sorted { $0.key < $1.key }
            .map { StationView.Sink(name: $0.key, sink: UntrustedText.printable(URLRedaction.redact($0.value))) }
        let view = StationView(
            chrome: Chrome(title: station.name, section: "/stations", notice: notice, error: error),
            id: id, homepage: station.homepage.flatMap { $0.hasPrefix("http://") || $0.hasPrefix("https://") ? $0 : nil },
            place: "\(station.country) · \(station.language) · \(station.timeZone)",
            onAir: guideBroadcastOnAir(station) ?? target.programmeOnAir(), nowPlaying: jobs.compactMap(\.title).first ?? aired.first ?? "",
            liveURL: "/live/\(id)",
            sinks: sinks, hasSinks: !sinks.isEmpty,
            jobs: jobs.map { job in
                let what = job.kind == .relay ? "relay to " + job.sinks.map(\.sink).joined(separator: ", ") : "recording"
                return StationView.Job(id: job.id, what: what, state: job.lastError.map { "\(job.state): \($0)" } ?? job.state,
                                       stopAction: "/stations/\(id)/jobs/\(job.id)/stop")
            },
            programmes: station.programmes.map { programme in
                StationView.Programme(programme: programme.id, name: programme.name,
                                      when: programme.slots.map(\.description).joined(separator: "; "))
            },
            hasProgrammes: !station.programmes.isEmpty, formats: ["copy", "mp3", "m4a", "opus", "flac"],
            artwork: ArtworkRoutes.station(id), play: PlayActions(ref: item.reference, title: station.name),
            marks: try LibraryState(services.library).marks(item, back: "/stations/\(id)"), history: aired)
        return renderer.render("station", view, status: error == nil ? .ok : .unprocessableContent)
    }

    /// The programme guide's broadcast on the station now, if a guide lists the station.
    private func guideBroadcastOnAir(_ station: Station) -> String? {
        let now = Date()
        guard let channel = try? services.guide.channel(forStation: station.id, guideID: station.guideID),
              let broadcast = try? services.guide.broadcasts(channel: channel, overlapping: DateInterval(start: now, duration: 1)).first
        else { return nil }
        return broadcast.titles.preferring(station.language)
    }

    /// Starts a relay or a recording through the same `JobSpec` as `onair jobs start`.
    func startJob(station id: String, _ form: JobForm) throws -> RenderedPage {
        var asked: JobSpec
        switch form.kind {
        case "relay":
            guard let sink = Display.given(form.sink) else { return try station(id: id, error: "Say where to relay to.") }
            asked = JobSpec(kind: .relay, station: id, sinks: [sink])
        case "record":
            asked = JobSpec(kind: .record, station: id, format: Display.given(form.format) ?? "copy")
        default:
            return try station(id: id, error: "Unknown kind of job \(form.kind): relay or record.")
        }
        asked.fromNetwork = true  // admitted by RuntimeJobs: declared sinks only
        do {
            let started = try services.startJob(asked)
            let what = asked.kind == .relay ? "Relaying to \(asked.sinks[0])" : "Recording"
            return .redirect(Self.location("/stations/\(id)", notice: "\(what) (job \(started.id))."))
        } catch {
            return try station(id: id, error: "\(error)")
        }
    }

    func stopJob(_ job: Int64, returningTo page: String) throws -> RenderedPage {
        do {
            _ = try services.stopJob(job)
        } catch let error as EngineError where error.kind == .notFound {
            return notFound("No job \(job) is running.", section: page.hasPrefix("/status") ? "/status" : "/stations")
        }
        return .redirect(Self.location(page, notice: "Stopped job \(job)."))
    }
}
