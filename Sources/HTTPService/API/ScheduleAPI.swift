import APIContract
import Foundation
import Hummingbird
import Outputs
import Recording
import Scheduling

/// `/api/v1/schedule`: rules (created, listed, paused, resumed, deleted), the next episodes, and the
/// episodes recorded or failed, with their state and reason. The daemon re-reads the rules at once.
extension API {
    func listRules(_ input: Operations.ListRules.Input) async throws -> Operations.ListRules.Output {
        try await perform { daemon in
            let rules = try stored { () throws(ScheduleError) in try daemon.schedule.rules() }
            let views = rules.map { RuleView($0, after: Date(), guide: daemon.guide) }
            return .ok(.init(body: .json(.init(rules: try views.map { try GeneratedGlue.contract($0) }))))
        }
    }

    func addRule(_ input: Operations.AddRule.Input) async throws -> Operations.AddRule.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        return try await perform { daemon in
            let station = try daemon.loadCatalogue().station(id: body.station)
            if station == nil, URL(string: body.station)?.scheme == nil {
                throw APIError.invalid("no station \"\(body.station)\" in the catalogue (give a catalogue id or a stream URL)")
            }
            let (rule, next) = try Self.invalidUnlessValid { () throws(ScheduleError) in
                try Self.ruleRequest(body).rule(catalogueStation: station, guide: daemon.guide)
            }
            let saved = try stored { () throws(ScheduleError) in try daemon.schedule.add(rule) }
            daemon.wake()
            return .created(.init(body: .json(try GeneratedGlue.contract(RuleView(saved, next: next)))))
        }
    }

    func getRule(_ input: Operations.GetRule.Input) async throws -> Operations.GetRule.Output {
        let id = input.path.id
        return try await perform { daemon in
            guard let rule = try stored({ () throws(ScheduleError) in try daemon.schedule.rule(id: id) }) else { throw Self.noRule(id) }
            return .ok(.init(body: .json(try GeneratedGlue.contract(RuleView(rule, after: Date(), guide: daemon.guide)))))
        }
    }

    func deleteRule(_ input: Operations.DeleteRule.Input) async throws -> Operations.DeleteRule.Output {
        let id = input.path.id
        return try await perform { daemon in
            guard let rule = try stored({ () throws(ScheduleError) in try daemon.schedule.remove(ruleID: id) }) else { throw Self.noRule(id) }
            daemon.wake()
            return .ok(.init(body: .json(try GeneratedGlue.contract(RuleView(rule, next: nil)))))
        }
    }

    func pauseRule(_ input: Operations.PauseRule.Input) async throws -> Operations.PauseRule.Output {
        .ok(.init(body: .json(try await setPaused(input.path.id, true))))
    }

    func resumeRule(_ input: Operations.ResumeRule.Input) async throws -> Operations.ResumeRule.Output {
        .ok(.init(body: .json(try await setPaused(input.path.id, false))))
    }

    func nextEpisodes(_ input: Operations.NextEpisodes.Input) async throws -> Operations.NextEpisodes.Output {
        let count = try boundedCount(input.query.count, "count", default: 10)
        return try await perform { daemon in
            let rules = try stored { () throws(ScheduleError) in try daemon.schedule.rules() }
            let episodes = UpcomingEpisodes.next(count, of: rules, after: Date(), guide: daemon.guide)
            return .ok(.init(body: .json(.init(episodes: try episodes.map { try GeneratedGlue.contract($0) }))))
        }
    }

    func listEpisodes(_ input: Operations.ListEpisodes.Input) async throws -> Operations.ListEpisodes.Output {
        let limit = try boundedCount(input.query.limit, "limit", default: 100)
        let rule = input.query.rule
        return try await perform { daemon in
            let episodes = try stored { () throws(ScheduleError) in try daemon.schedule.episodes(ruleID: rule, limit: limit) }
            return .ok(.init(body: .json(.init(episodes: try episodes.map { try GeneratedGlue.contract($0) }))))
        }
    }

    private func setPaused(_ id: Int64, _ paused: Bool) async throws -> Components.Schemas.Rule {
        try await perform { daemon in
            guard let rule = try stored({ () throws(ScheduleError) in try daemon.schedule.setPaused(ruleID: id, paused) }) else { throw Self.noRule(id) }
            daemon.wake()
            return try GeneratedGlue.contract(RuleView(rule, after: Date(), guide: daemon.guide))
        }
    }

    private static func noRule(_ id: Int64) -> APIError { APIError.notFound("no rule \(id)") }

    /// A rule that does not check out (unknown zone or programme, no future episode) is the request's.
    private static func invalidUnlessValid<T>(_ body: () throws(ScheduleError) -> T) throws -> T {
        do { return try body() } catch { throw APIError.invalid("\(error)") }
    }

    /// The body as `onair schedule add`'s request, with the checks the schema cannot state: exactly one way of
    /// saying when, a duration for at, on and cron, a template that stays inside the recordings folder.
    private static func ruleRequest(_ body: Components.Schemas.RuleRequest) throws(ScheduleError) -> RuleRequest {
        let ways = [body.programme, body.title, body.series, body.at, body.on, body.cron].compactMap { $0 }
        guard ways.count == 1 else { throw ScheduleError("give one of programme, title, series, at, on or cron") }
        if body.programme ?? body.title ?? body.series == nil, body.duration == nil {
            throw ScheduleError("at, on and cron need duration (e.g. \"30m\")")
        }
        if let keep = body.keep, keep < 1 { throw ScheduleError("keep must be at least 1") }
        var request = RuleRequest(station: body.station)
        (request.title, request.series, request.programme) = (body.title, body.series, body.programme)
        (request.at, request.on, request.cron, request.duration, request.timeZone) = (body.at, body.on, body.cron, body.duration, body.timeZone)
        request.padBefore = body.padBefore ?? "0s"
        request.padAfter = body.padAfter ?? "0s"
        if let format = body.format?.rawValue {
            guard let parsed = RecordingFormat(rawValue: format) else {
                throw ScheduleError("unknown format '\(format)' (copy, mp3, m4a, opus, flac)")
            }
            request.format = parsed
        }
        if let output = body.output {
            // Over the network a template stays inside the recordings folder (`onair schedule add` on the box may write anywhere).
            do { _ = try FileNameTemplate(fromNetwork: output) } catch { throw ScheduleError(error.description) }
        }
        (request.output, request.splitTracks, request.keep) = (body.output, body.splitTracks ?? false, body.keep)
        request.keepDays = body.keepDays
        return request
    }
}

/// `?count=` / `?limit=`: 1 … 1000.
func boundedCount(_ request: Request, _ name: String, default value: Int) throws -> Int {
    guard let text = request.uri.queryParameters.get(name) else { return value }
    return try boundedCount(Int(text) ?? 0, name, default: value)
}

/// A count asked for (`limit`): 1 to 1000, `value` when not given.
func boundedCount(_ asked: Int?, _ name: String, default value: Int) throws -> Int {
    guard let asked else { return value }
    guard (1...1000).contains(asked) else { throw APIError.badRequest("\(name) must be a number from 1 to 1000") }
    return asked
}
