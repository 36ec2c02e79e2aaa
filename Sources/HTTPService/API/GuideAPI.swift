import APIContract
import Daemon
import Foundation
import Guide
import RadioModel

/// `/api/v1/guide`: the programme guides (XMLTV) — what is on a station or every channel on a day,
/// the guide's channels and the stations they are, a channel mapped to a station, and a guide imported
/// from a URL (remembered: the daemon refreshes it with conditional requests). Rules that record by
/// title or series are made at `/api/v1/schedule/rules` (`title`, `series`).
extension API {
    func showGuide(_ input: Operations.ShowGuide.Input) async throws -> Operations.ShowGuide.Output {
        let (station, date) = (input.query.station, input.query.date)
        return try await perform { daemon in
            let catalogue = try daemon.loadCatalogue()
            return .ok(.init(body: .json(try listing(station: station, date: date, catalogue: catalogue, daemon))))
        }
    }

    func listGuideChannels(_ input: Operations.ListGuideChannels.Input) async throws -> Operations.ListGuideChannels.Output {
        try await perform { daemon in
            let catalogue = try daemon.loadCatalogue()
            let channels = try stored { () throws(GuideError) in try daemon.guide.channelStations(in: catalogue) }
            return .ok(.init(body: .json(.init(channels: channels.map { Self.channel($0.channel, station: $0.station, entry: $0.entry) }))))
        }
    }

    func mapGuideChannel(_ input: Operations.MapGuideChannel.Input) async throws -> Operations.MapGuideChannel.Output {
        let channel = input.path.channel
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        return try await perform { daemon in
            let catalogue = try daemon.loadCatalogue()
            let entry = catalogue.station(id: body.station)
            guard entry != nil || (try? webAddress(body.station, of: "station")) != nil else {
                throw APIError.invalid("no station \"\(body.station)\" in the catalogue (give a catalogue id or a stream URL)")
            }
            guard let mapped = try stored({ () throws(GuideError) in try daemon.guide.map(channel: channel, to: body.station) }) else {
                throw APIError.notFound("the guide has no channel \"\(UntrustedText.printable(channel, maxLength: 80))\" (see GET /api/v1/guide/channels)")
            }
            daemon.wake()
            return .ok(.init(body: .json(Self.channel(mapped, station: body.station, entry: entry))))
        }
    }

    func importGuide(_ input: Operations.ImportGuide.Input) async throws -> Operations.ImportGuide.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let url = try webAddress(body.url, of: "url")
        return try await perform { daemon in
            let outcome: GuideFetch.Outcome
            do {
                outcome = try GuideFetch.refresh(url, into: daemon.guide)
            } catch {
                // The URL did not give a guide: no answer, an error status, or not XMLTV.
                throw APIError.invalid("\(error)")
            }
            daemon.wake()
            switch outcome {
            case .notModified:
                return .ok(.init(body: .json(.init(url: url, notModified: true))))
            case .imported(let summary):
                return .ok(.init(body: .json(.init(url: url, notModified: false, imported: try GeneratedGlue.contract(summary)))))
            }
        }
    }

    func listGuideSources(_ input: Operations.ListGuideSources.Input) async throws -> Operations.ListGuideSources.Output {
        try await perform { daemon in
            // Field by field: what the daemon keeps for conditional requests (etag, lastModified) is not the client's.
            let sources = try stored { () throws(GuideError) in try daemon.guide.sources() }.map {
                Components.Schemas.GuideSource(url: $0.url, checkedAt: $0.checkedAt, changedAt: $0.changedAt)
            }
            return .ok(.init(body: .json(.init(sources: sources))))
        }
    }

    /// What is on `date` (today when nil) on the station's channel, on its clock and in its language;
    /// without a station, on every channel, on the daemon's clock.
    private func listing(station: String?, date: String?, catalogue: Catalogue, _ daemon: BlockingDaemon) throws -> Components.Schemas.GuideDay {
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
        return .init(date: formatter.string(from: day.start), timeZone: zone.identifier, entries: try GeneratedGlue.contract(entries))
    }

    /// A guide channel and the station it is (mapped by hand, or the catalogue station whose guideID names it); nil if none.
    private static func channel(_ channel: GuideChannel, station: String?, entry: Station?) -> Components.Schemas.GuideChannel {
        .init(id: channel.id, name: channel.names.first?.text, station: station, stationName: entry?.name)
    }
}
