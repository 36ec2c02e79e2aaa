import Foundation
import RadioModel
import Recording
import Scheduling

/// `/status`: what the daemon is doing: episodes being recorded, runtime jobs, the next episodes,
/// recent failures, the disk space left for recordings and what retention deleted lately.
struct StatusView {
    struct Line {
        var title: String
        var meta: String
    }

    struct Job {
        var id: Int64
        var title: String
        var meta: String
        var nowPlaying: String
        var station: String
    }

    var chrome: Chrome
    var diskFree: String
    var active: [Line]
    var jobs: [Job]
    var next: [Line]
    var failures: [Line]
    var retention: String
    var deletions: [Line]

    static let template = """
    {{<layout}}{{$content}}
    <p id="disk">Free space for recordings: {{diskFree}}</p>
    <h2>Recording now</h2>
    <ul class="cards" id="active">{{#active}}<li><span class="title">{{title}}</span> <span class="meta">{{meta}}</span></li>{{/active}}
    {{^active}}<li>No episode is being recorded.</li>{{/active}}</ul>
    <h2>Jobs</h2>
    <ul class="cards" id="status-jobs">{{#jobs}}<li><span class="title">Job {{id}}: {{title}}</span> <span class="meta">{{meta}}</span>
      <span class="live" data-live-title="{{station}}">{{nowPlaying}}</span>
      <form method="post" action="/status/jobs/{{id}}/stop">{{>csrf}}<button type="submit">Stop job {{id}}</button></form></li>{{/jobs}}
    {{^jobs}}<li>No relay or recording started by hand is running.</li>{{/jobs}}</ul>
    <h2>Next episodes</h2>
    <ul class="cards">{{#next}}<li><span class="title">{{title}}</span> <span class="meta">{{meta}}</span></li>{{/next}}
    {{^next}}<li>Nothing ahead.</li>{{/next}}</ul>
    <h2>Recent failures</h2>
    <ul class="cards" id="failures">{{#failures}}<li class="failed"><span class="title">{{title}}</span> <span class="reason">{{meta}}</span></li>{{/failures}}
    {{^failures}}<li>None.</li>{{/failures}}</ul>
    <h2>Retention</h2>
    <p id="retention">{{retention}}</p>
    <ul class="cards" id="deletions">{{#deletions}}<li><span class="title">{{title}}</span> <span class="reason">{{meta}}</span></li>{{/deletions}}
    {{^deletions}}<li>Nothing deleted since the daemon started.</li>{{/deletions}}</ul>
    {{/content}}{{/layout}}
    """
}

extension Pages {
    func status(notice: String? = nil) -> RenderedPage {
        let status = services.status()
        let view = StatusView(
            chrome: Chrome(title: "Status", section: "/status", notice: notice),
            diskFree: DiskSpace.free(at: services.paths.recordings).map { Display.size($0) } ?? "unknown",
            active: status.active.map { recording in
                StatusView.Line(title: [recording.station, recording.programme].compactMap { $0 }.joined(separator: ": "),
                                meta: "\(recording.state) until \(Display.time(recording.windowEnd, .current))")
            },
            jobs: services.jobs().map { job in
                let what = switch job.kind {
                case .relay: "relay of \(job.station) to " + job.sinks.map(\.sink).joined(separator: ", ")
                case .record: "recording of \(job.station)"
                case .watch: "watch of \(job.station)"
                }
                return StatusView.Job(id: job.id, title: what,
                                      meta: "\(job.state), \(ClockText.of(job.uptime)), \(Display.size(job.bytes))"
                                          + (job.gaps > 0 ? ", \(job.gaps) gaps" : "") + (job.lastError.map { "; \($0)" } ?? ""),
                                      nowPlaying: job.title ?? "", station: job.station)
            },
            next: status.next.map { episode in
                StatusView.Line(title: [episode.station, episode.programme].compactMap { $0 }.joined(separator: ": "),
                                meta: Display.time(episode.start, TimeZone(identifier: episode.timeZone) ?? .current))
            },
            failures: status.recentFailures.map { episode in
                StatusView.Line(title: "\(episode.station), \(Display.time(episode.programmeStart, .current))",
                                meta: "\(episode.status.rawValue): \(episode.reason ?? "no reason given")")
            },
            retention: status.retention.minFree.map { "The oldest recordings that are not kept are deleted when less than \(ByteSize(bytes: $0)) is free." }
                ?? "No minimum of free space is set (onair daemon --min-free).",
            deletions: status.retention.lastDeletions.map { deletion in
                StatusView.Line(title: "\(Display.time(deletion.at, .current)): recording \(deletion.recording), "
                                    + "\(URL(fileURLWithPath: deletion.file).lastPathComponent)",
                                meta: deletion.reason)
            })
        return renderer.render("status", view)
    }
}
