import Daemon
import Foundation
import Guide
import Hummingbird
import RadioModel

/// `/api/v1/guide`: the programme guides (XMLTV) — what is on a station or every channel on a day,
/// the guide's channels and the stations they are, a channel mapped to a station, and a guide imported
/// from a URL (remembered: the daemon refreshes it with conditional requests). Rules that record by
/// title or series are made at `/api/v1/schedule/rules` (`title`, `series`).
extension API {
    var guideRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/guide") { request, _ in
                let station = request.uri.queryParameters.get("station")
                let date = request.uri.queryParameters.get("date")
                return try await perform { daemon in
                    let catalogue = try daemon.loadCatalogue()
                    return try listing(station: station, date: date, catalogue: catalogue, daemon)
                }
            },
            APIRoute(.get, "/api/v1/guide/channels") { _, _ in
                try await perform { daemon in
                    let catalogue = try daemon.loadCatalogue()
                    let channels = try stored { () throws(GuideError) in try daemon.guide.channelStations(in: catalogue) }
                    return JSONResponse.make(GuideChannelList(channels: channels.map { GuideChannelView($0.channel, station: $0.station, entry: $0.entry) }))
                }
            },
            APIRoute(.put, "/api/v1/guide/channels/{channel}") { request, context in
                let channel = context.parameters.get("channel") ?? ""
                let body = try await request.decodeJSON(ChannelMapping.self)
                return try await perform { daemon in
                    let catalogue = try daemon.loadCatalogue()
                    let entry = catalogue.station(id: body.station)
                    guard entry != nil || (try? webAddress(body.station, of: "station")) != nil else {
                        throw APIError.invalid("no station \"\(body.station)\" in the catalogue (give a catalogue id or a stream URL)")
                    }
                    guard let mapped = try stored({ () throws(GuideError) in try daemon.guide.map(channel: channel, to: body.station) }) else {
                        throw APIError.notFound("the guide has no channel \"\(channel)\" (see GET /api/v1/guide/channels)")
                    }
                    daemon.wake()
                    return JSONResponse.make(GuideChannelView(mapped, station: body.station, entry: entry))
                }
            },
            APIRoute(.post, "/api/v1/guide/import") { request, _ in
                let url = try webAddress(try await request.decodeJSON(GuideImportRequest.self).url, of: "url")
                return try await perform { daemon in
                    let outcome: GuideFetch.Outcome
                    do {
                        outcome = try GuideFetch.refresh(url, into: daemon.guide)
                    } catch {
                        // The URL did not give a guide: no answer, an error status, or not XMLTV.
                        throw APIError.invalid("\(error)")
                    }
                    daemon.wake()
                    return JSONResponse.make(GuideImportReply(url: url, outcome))
                }
            },
            APIRoute(.get, "/api/v1/guide/sources") { _, _ in
                try await perform { daemon in
                    JSONResponse.make(GuideSourceList(sources: try stored { () throws(GuideError) in try daemon.guide.sources() }.map(GuideSourceView.init)))
                }
            },
        ]
    }

    /// What is on `date` (today when nil) on the station's channel, on its clock and in its language;
    /// without a station, on every channel, on the daemon's clock.
    private func listing(station: String?, date: String?, catalogue: Catalogue, _ daemon: BlockingDaemon) throws -> Response {
        var channels: [(channel: String, station: String?, entry: Station?)] = []
        var zone = TimeZone.current
        if let station {
            let entry = catalogue.station(id: station)
            guard entry != nil || (try? webAddress(station, of: "station")) != nil else {
                throw APIError.notFound("no station \"\(station)\" in the catalogue")
            }
            if let entry { zone = TimeZone(identifier: entry.timeZone) ?? zone }
            guard let channel = try stored({ () throws(GuideError) in try daemon.guide.channel(forStation: station, guideID: entry?.guideID) }) else {
                throw APIError.notFound("no imported guide lists \(station) (import one, then map its channel: PUT /api/v1/guide/channels/CHANNEL)")
            }
            channels = [(channel, station, entry)]
        } else {
            channels = try stored { () throws(GuideError) in try daemon.guide.channelStations(in: catalogue) }.map { ($0.channel.id, $0.station, $0.entry) }
        }
        guard let day = GuideListing.day(date, in: zone) else {
            throw APIError.badRequest("date must be today, tomorrow, yesterday or YYYY-MM-DD")
        }
        var entries: [GuideEntry] = []
        for listed in channels {
            entries += try stored { () throws(GuideError) in
                try daemon.guide.listing(channel: listed.channel, station: listed.station, day: day, zone: zone, language: listed.entry?.language)
            }
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withFullDate]
        return JSONResponse.make(GuideDay(date: formatter.string(from: day.start), timeZone: zone.identifier, entries: entries))
    }
}

struct GuideDay: Encodable {
    /// The day listed, YYYY-MM-DD on `timeZone`'s clock.
    let date: String
    let timeZone: String
    let entries: [GuideEntry]
}

struct GuideChannelView: Encodable {
    let id: String
    let name: String?
    /// The station it is (mapped by hand, or the catalogue station whose guideID names it); nil if none.
    let station: String?
    let stationName: String?

    init(_ channel: GuideChannel, station: String?, entry: Station?) {
        id = channel.id
        name = channel.names.first?.text
        self.station = station
        stationName = entry?.name
    }
}

struct GuideChannelList: Encodable { let channels: [GuideChannelView] }

/// What `PUT /api/v1/guide/channels/{channel}` takes.
struct ChannelMapping: Decodable { let station: String }

/// What `POST /api/v1/guide/import` takes.
struct GuideImportRequest: Decodable { let url: String }

struct GuideImportReply: Encodable {
    let url: String
    /// The server answered 304: the copy imported last is current.
    let notModified: Bool
    let imported: GuideImportSummary?

    init(url: String, _ outcome: GuideFetch.Outcome) {
        self.url = url
        switch outcome {
        case .notModified: (notModified, imported) = (true, nil)
        case .imported(let summary): (notModified, imported) = (false, summary)
        }
    }
}

struct GuideSourceView: Encodable {
    let url: String
    let checkedAt: Date?
    let changedAt: Date?

    init(_ source: GuideSource) { (url, checkedAt, changedAt) = (source.url, source.checkedAt, source.changedAt) }
}

struct GuideSourceList: Encodable { let sources: [GuideSourceView] }
