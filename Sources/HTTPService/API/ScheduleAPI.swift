import Foundation
import HTTPServing
import Hummingbird
import Outputs
import Recording
import Scheduling

/// `/api/v1/schedule`: rules (created, listed, paused, resumed, deleted), the next episodes, and the
/// episodes recorded or failed, with their state and reason. The daemon re-reads the rules at once.
extension API {
    var scheduleRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/schedule/rules") { _, _ in
                try await perform { daemon in
                    let rules = try stored { () throws(ScheduleError) in try daemon.schedule.rules() }
                    return JSONResponse.make(RuleList(rules: rules.map { RuleView($0, after: Date(), guide: daemon.guide) }))
                }
            },
            APIRoute(.post, "/api/v1/schedule/rules") { request, _ in
                let body = try await request.decodeJSON(RuleBody.self)
                return try await perform { daemon in
                    let station = try daemon.loadCatalogue().station(id: body.station)
                    if station == nil, URL(string: body.station)?.scheme == nil {
                        throw APIError.invalid("no station \"\(body.station)\" in the catalogue (give a catalogue id or a stream URL)")
                    }
                    let (rule, next) = try Self.invalidUnlessValid { () throws(ScheduleError) in
                        try body.request().rule(catalogueStation: station, guide: daemon.guide)
                    }
                    let saved = try stored { () throws(ScheduleError) in try daemon.schedule.add(rule) }
                    daemon.wake()
                    return JSONResponse.make(RuleView(saved, next: next), status: .created)
                }
            },
            APIRoute(.get, "/api/v1/schedule/rules/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    guard let rule = try stored({ () throws(ScheduleError) in try daemon.schedule.rule(id: id) }) else { throw Self.noRule(id) }
                    return JSONResponse.make(RuleView(rule, after: Date(), guide: daemon.guide))
                }
            },
            APIRoute(.delete, "/api/v1/schedule/rules/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in
                    guard let rule = try stored({ () throws(ScheduleError) in try daemon.schedule.remove(ruleID: id) }) else { throw Self.noRule(id) }
                    daemon.wake()
                    return JSONResponse.make(RuleView(rule, next: nil))
                }
            },
            APIRoute(.post, "/api/v1/schedule/rules/{id}/pause") { _, context in try await setPaused(context, true) },
            APIRoute(.post, "/api/v1/schedule/rules/{id}/resume") { _, context in try await setPaused(context, false) },
            APIRoute(.get, "/api/v1/schedule/next") { request, _ in
                let count = try boundedCount(request, "count", default: 10)
                return try await perform { daemon in
                    let rules = try stored { () throws(ScheduleError) in try daemon.schedule.rules() }
                    return JSONResponse.make(UpcomingList(episodes: UpcomingEpisodes.next(count, of: rules, after: Date(), guide: daemon.guide)))
                }
            },
            APIRoute(.get, "/api/v1/schedule/episodes") { request, _ in
                let limit = try boundedCount(request, "limit", default: 100)
                let rule = try request.uri.queryParameters["rule"].map { text -> Int64 in
                    guard let id = Int64(text) else { throw APIError.badRequest("rule must be a rule's id (a number)") }
                    return id
                }
                return try await perform { daemon in
                    let episodes = try stored { () throws(ScheduleError) in try daemon.schedule.episodes(ruleID: rule, limit: limit) }
                    return JSONResponse.make(EpisodeList(episodes: episodes))
                }
            },
        ]
    }

    private func setPaused(_ context: ClientRequestContext, _ paused: Bool) async throws -> Response {
        let id = try context.id()
        return try await perform { daemon in
            guard let rule = try stored({ () throws(ScheduleError) in try daemon.schedule.setPaused(ruleID: id, paused) }) else { throw Self.noRule(id) }
            daemon.wake()
            return JSONResponse.make(RuleView(rule, after: Date(), guide: daemon.guide))
        }
    }

    private static func noRule(_ id: Int64) -> APIError { APIError.notFound("no rule \(id)") }

    /// A rule that does not check out (unknown zone or programme, no future episode) is the request's.
    private static func invalidUnlessValid<T>(_ body: () throws(ScheduleError) -> T) throws -> T {
        do { return try body() } catch { throw APIError.invalid("\(error)") }
    }
}

/// `?count=` / `?limit=`: 1 … 1000.
func boundedCount(_ request: Request, _ name: String, default value: Int) throws -> Int {
    guard let text = request.uri.queryParameters.get(name) else { return value }
    guard let count = Int(text), (1...1000).contains(count) else { throw APIError.badRequest("\(name) must be a number from 1 to 1000") }
    return count
}

/// What `POST /api/v1/schedule/rules` takes: the fields of `onair schedule add`, one way of saying when.
struct RuleBody: Decodable {
    var station: String
    var programme: String?
    var title: String?
    var series: String?
    var at: String?
    var on: String?
    var cron: String?
    var duration: String?
    var timeZone: String?
    var padBefore: String?
    var padAfter: String?
    var format: String?
    var output: String?
    var splitTracks: Bool?
    var keep: Int?
    var keepDays: Int?

    func request() throws(ScheduleError) -> RuleRequest {
        let ways = [programme, title, series, at, on, cron].compactMap { $0 }
        guard ways.count == 1 else { throw ScheduleError("give one of programme, title, series, at, on or cron") }
        if programme ?? title ?? series == nil, duration == nil { throw ScheduleError("at, on and cron need duration (e.g. \"30m\")") }
        if let keep, keep < 1 { throw ScheduleError("keep must be at least 1") }
        var request = RuleRequest(station: station)
        (request.title, request.series, request.programme) = (title, series, programme)
        (request.at, request.on, request.cron, request.duration, request.timeZone) = (at, on, cron, duration, timeZone)
        request.padBefore = padBefore ?? "0s"
        request.padAfter = padAfter ?? "0s"
        if let format {
            guard let parsed = RecordingFormat(rawValue: format) else {
                throw ScheduleError("unknown format '\(format)' (copy, mp3, m4a, opus, flac)")
            }
            request.format = parsed
        }
        if let output {
            // Over the network a template stays inside the recordings folder (`onair schedule add` on the box may write anywhere).
            do { _ = try FileNameTemplate(fromNetwork: output) } catch { throw ScheduleError(error.description) }
        }
        (request.output, request.splitTracks, request.keep) = (output, splitTracks ?? false, keep)
        request.keepDays = keepDays
        return request
    }
}

struct RuleList: Encodable { let rules: [RuleView] }
struct UpcomingList: Encodable { let episodes: [UpcomingEpisode] }
struct EpisodeList: Encodable { let episodes: [Episode] }
