import Engine
import Foundation
import Guide
import Hummingbird
import RadioModel
import Scheduling

/// `/guide`: what the imported programme guide lists on a day, for every channel or one, with buttons
/// that record every broadcast of a title or of a series (a schedule rule, as `onair schedule add
/// STATION --title/--series` makes it).
struct GuideView {
    struct Channel {
        var name: String
        var broadcasts: [Broadcast]
        /// Why its broadcasts cannot be recorded from here: no station is mapped to the channel.
        var unmapped: String?
    }

    struct Broadcast {
        var time: String
        var title: String
        var subTitle: String?
        var episode: String?
        var description: String?
        var onAir: Bool
        /// The station to record it from; nil while the channel is not mapped to one.
        var station: String?
        var series: String?
        /// The guide page the record buttons come back to.
        var back: String
    }

    var chrome: Chrome
    var channels: [SelectOption]
    var allChannels: Bool
    var date: String
    var previous: String
    var next: String
    var listings: [Channel]
    var imported: Bool

    static let template = """
    {{<layout}}{{$content}}
    {{^imported}}<p>No guide imported yet: import an XMLTV file or URL with <code>onair guide import</code>; the daemon refreshes a URL on its own.</p>{{/imported}}
    {{#imported}}
    <form method="get" action="/guide" class="stack">
      <label for="channel">Station</label>
      <select id="channel" name="channel"><option value=""{{#allChannels}} selected{{/allChannels}}>Every station</option>
      {{#channels}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/channels}}</select>
      <label for="date">Day</label>
      <input id="date" name="date" type="date" value="{{date}}" required>
      <button type="submit">Show</button>
    </form>
    <p class="actions"><a class="button" href="{{previous}}" rel="prev">Day before</a> <a class="button" href="{{next}}" rel="next">Day after</a></p>
    {{#listings}}
    <section class="group"><h2>{{name}}</h2>
    {{#unmapped}}<p class="meta">{{unmapped}}</p>{{/unmapped}}
    <ul class="cards guide">
    {{#broadcasts}}<li{{#onAir}} class="on-air" aria-current="time"{{/onAir}}><span class="at">{{time}}</span> <span class="title">{{title}}</span>
      {{#episode}}<span class="meta">{{episode}}</span>{{/episode}}{{#subTitle}} <span class="meta">{{subTitle}}</span>{{/subTitle}}
      {{#description}}<p class="description">{{description}}</p>{{/description}}
      {{#station}}<div class="actions">
      <form method="post" action="/guide/record">{{>csrf}}<input type="hidden" name="station" value="{{station}}">
      <input type="hidden" name="title" value="{{title}}"><input type="hidden" name="back" value="{{back}}">
      <button type="submit" aria-label="Record every broadcast titled {{title}}">Record this title</button></form>
      {{#series}}<form method="post" action="/guide/record">{{>csrf}}<input type="hidden" name="station" value="{{station}}">
      <input type="hidden" name="series" value="{{series}}"><input type="hidden" name="back" value="{{back}}">
      <button type="submit" aria-label="Record every broadcast of the series of {{title}}">Record this series</button></form>{{/series}}
      </div>{{/station}}</li>{{/broadcasts}}
    {{^broadcasts}}<li>Nothing listed on this day.</li>{{/broadcasts}}
    </ul>
    </section>
    {{/listings}}
    {{/imported}}
    {{/content}}{{/layout}}
    """
}

/// A guide page's record button: the station, and the broadcast's exact title or its series.
struct GuideRecordForm: Decodable, Sendable {
    var station: String?
    var title: String?
    var series: String?
    var back: String?
}

extension Pages {
    /// The day `date` names (YYYY-MM-DD, today when nil) of one channel (every channel when nil), on the
    /// clock of the channel's station (this machine's for every channel), as `onair guide` lists it.
    func guide(channel selected: String?, date: String?, notice: String? = nil, error: String? = nil) -> RenderedPage {
        var chrome = Chrome(title: "Guide", section: "/guide", notice: notice, error: error)
        var view = GuideView(chrome: chrome, channels: [], allChannels: selected == nil, date: "", previous: "/guide", next: "/guide",
                             listings: [], imported: false)
        var status: HTTPResponse.Status = error == nil ? .ok : .unprocessableContent
        do {
            let mapped = try services.guide.channelStations(in: try services.catalogue())
            view.imported = !mapped.isEmpty
            let name = { (listing: (channel: GuideChannel, station: String?, entry: Station?)) -> String in
                listing.entry?.name ?? listing.channel.names.first?.text ?? listing.station ?? listing.channel.id
            }
            view.channels = mapped.map { SelectOption(value: $0.channel.id, label: name($0), selected: $0.channel.id == selected) }
            let shown = mapped.filter { selected == nil || $0.channel.id == selected }
            if let selected, shown.isEmpty, view.imported {
                chrome.error = "The guide has no channel \(selected)."
                status = .notFound
            }
            let zone = selected == nil ? TimeZone.current : shown.first?.entry.flatMap { TimeZone(identifier: $0.timeZone) } ?? .current
            guard let day = GuideListing.day(date, in: zone) else { throw NotADay(date: date ?? "") }
            let dayText = { (instant: Date) -> String in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = zone
                formatter.dateFormat = "yyyy-MM-dd"
                return formatter.string(from: instant)
            }
            view.date = dayText(day.start)
            let address = { (day: String) -> String in
                var components = URLComponents()
                components.path = "/guide"
                components.queryItems = (selected.map { [URLQueryItem(name: "channel", value: $0)] } ?? []) + [URLQueryItem(name: "date", value: day)]
                return components.string ?? "/guide"
            }
            view.previous = address(dayText(day.start.addingTimeInterval(-43_200)))
            view.next = address(dayText(day.end.addingTimeInterval(43_200)))
            let back = address(view.date)
            view.listings = try shown.map { listing in
                let broadcasts = try services.guide.broadcasts(channel: listing.channel.id, overlapping: day)
                let entries = GuideListing.entries(broadcasts, station: listing.station, zone: zone, language: listing.entry?.language)
                return GuideView.Channel(
                    name: name(listing),
                    broadcasts: zip(broadcasts, entries).map { broadcast, entry in
                        GuideView.Broadcast(time: "\(Self.clock(entry.startLocal))–\(Self.clock(entry.stopLocal))", title: entry.title,
                                            subTitle: entry.subTitle, episode: entry.episode, description: entry.description, onAir: entry.onAir,
                                            station: listing.station, series: broadcast.seriesIDs.first, back: back)
                    },
                    unmapped: listing.station == nil
                        ? "Not mapped to a station, so not recordable from here: onair guide map \(listing.channel.id) STATION." : nil)
            }
        } catch let error as NotADay {
            chrome.error = "\(error.date) is not a day: give one as YYYY-MM-DD."
            status = .unprocessableContent
        } catch {
            chrome.error = "\(error)"
            status = Self.unreadable
        }
        view.chrome = chrome
        return renderer.render("guide", view, status: status)
    }

    /// Adds a rule recording every broadcast the guide lists with this exact title (in any of its
    /// languages) or of this series, on the station; back to the guide.
    func recordFromGuide(_ form: GuideRecordForm) -> RenderedPage {
        let back = URLComponents(string: form.back ?? "")?.queryItems
        let (channel, date) = (back?.first { $0.name == "channel" }?.value, back?.first { $0.name == "date" }?.value)
        guard let station = Display.given(form.station) else { return guide(channel: channel, date: date, error: "Name a station to record from.") }
        var request = RuleRequest(station: station)
        if let series = Display.given(form.series) {
            request.series = series
        } else if let title = Display.given(form.title) {
            request.title = "^\(NSRegularExpression.escapedPattern(for: title))$"
        } else {
            return guide(channel: channel, date: date, error: "Say what to record: a title or a series.")
        }
        do {
            return .redirect(Self.location(back: form.back, fallback: "/guide", notice: try saveRule(request)))
        } catch {
            return guide(channel: channel, date: date, error: "\(error)")
        }
    }

    /// "20:00" from "2026-11-24T20:00:00+01:00".
    private static func clock(_ local: String) -> String {
        String(local.dropFirst(11).prefix(5))
    }
}

/// The `date` asked for is not one: the request's fault (422), not the guide's.
private struct NotADay: Error {
    let date: String
}
