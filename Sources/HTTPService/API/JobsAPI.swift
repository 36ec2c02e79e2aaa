import Engine
import Foundation
import Hummingbird
import RadioModel

/// `/api/v1/jobs`: the daemon's runtime jobs — relays to sinks and recordings — started, listed with
/// their live state, and stopped.
extension API {
    var jobRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/jobs") { _, _ in JSONResponse.make(JobListBody(jobs: facade.runningJobs())) },
            APIRoute(.post, "/api/v1/jobs") { request, _ in
                let body = try await request.decodeJSON(JobRequest.self)
                if body.kind == .relay, body.to?.isEmpty ?? true {
                    throw APIError.invalid("a relay needs \"to\": the sinks declared on the box to send the station to, e.g. [\"kitchen\"]")
                }
                var asked = JobSpec(kind: body.kind, station: body.station, sinks: body.to ?? [], format: body.format,
                                    output: body.output, splitTracks: body.splitTracks ?? false, persist: body.persist ?? false)
                asked.fromNetwork = true  // admitted by RuntimeJobs: declared sinks only, output inside the recordings folder
                do {
                    return try await perform { [asked] daemon in JSONResponse.make(try daemon.startJob(asked), status: .created) }
                } catch {
                    // An unknown station, a sink that cannot open, a station that cannot be resolved:
                    // the job as asked cannot run, and the message says why.
                    throw APIError.invalid("\(error)")
                }
            },
            APIRoute(.get, "/api/v1/jobs/{id}") { _, context in
                let id = try context.id()
                guard let job = facade.runningJobs().first(where: { $0.id == id }) else { throw APIError.notFound("no job \(id)") }
                return JSONResponse.make(job)
            },
            APIRoute(.delete, "/api/v1/jobs/{id}") { _, context in
                let id = try context.id()
                do {
                    return try await perform { daemon in JSONResponse.make(try daemon.stopJob(id: id)) }
                } catch {
                    throw APIError.notFound("no job \(id)")
                }
            },
        ]
    }
}

/// What `POST /api/v1/jobs` takes.
struct JobRequest: Decodable {
    var kind: JobSpec.Kind
    /// A catalogue station id or a stream URL.
    var station: String
    /// A relay's sinks: names declared on the box (`onair sinks add NAME SINK`), or those sinks as declared.
    var to: [String]?
    var format: String?
    var output: String?
    var splitTracks: Bool?
    var persist: Bool?
}

struct JobListBody: Encodable {
    let jobs: [JobStatus]
}
