import APIContract
import Engine
import Foundation
import RadioModel

/// `/api/v1/jobs`: the daemon's runtime jobs — relays to sinks, recordings and watches — started, listed with
/// their live state, and stopped.
extension API {
    func listJobs(_ input: Operations.ListJobs.Input) async throws -> Operations.ListJobs.Output {
        .ok(.init(body: .json(.init(jobs: try facade.runningJobs().map { try GeneratedGlue.contract($0) }))))
    }

    func startJob(_ input: Operations.StartJob.Input) async throws -> Operations.StartJob.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let kind = JobSpec.Kind(rawValue: body.kind.rawValue) ?? .record
        if kind == .relay, body.to?.isEmpty ?? true {
            throw APIError.invalid("a relay needs \"to\": the sinks declared on the box to send the station to, e.g. [\"kitchen\"]")
        }
        if kind != .relay, !(body.to?.isEmpty ?? true) { throw APIError.invalid("\"to\" names a relay's sinks: a \(kind.rawValue) has none") }
        var asked = JobSpec(kind: kind, station: body.station, sinks: body.to ?? [], format: body.format,
                            output: body.output, splitTracks: body.splitTracks ?? false, persist: body.persist ?? false)
        asked.fromNetwork = true  // admitted by RuntimeJobs: declared sinks only, output inside the recordings folder
        let started: JobStatus
        do {
            started = try await perform { [asked] daemon in try daemon.startJob(asked) }
        } catch {
            // An unknown station, a sink that cannot open, a station that cannot be resolved:
            // the job as asked cannot run, and the message says why.
            throw APIError.invalid("\(error)")
        }
        return .created(.init(body: .json(try GeneratedGlue.contract(started))))
    }

    func getJob(_ input: Operations.GetJob.Input) async throws -> Operations.GetJob.Output {
        let id = input.path.id
        guard let job = facade.runningJobs().first(where: { $0.id == id }) else { throw APIError.notFound("no job \(id)") }
        return .ok(.init(body: .json(try GeneratedGlue.contract(job))))
    }

    func stopJob(_ input: Operations.StopJob.Input) async throws -> Operations.StopJob.Output {
        let id = input.path.id
        let stopped: JobStatus
        do {
            stopped = try await perform { daemon in try daemon.stopJob(id: id) }
        } catch {
            throw APIError.notFound("no job \(id)")
        }
        return .ok(.init(body: .json(try GeneratedGlue.contract(stopped))))
    }
}
