import Engine
import Foundation
import RadioModel
import Scheduling

/// The daemon's end of the control socket (`onair status`, `onair jobs`): answers each request from its
/// scheduler and its runtime jobs, on the control server's threads.
struct DaemonControl: Sendable {
    let daemon: ScheduleDaemon
    let jobs: JobControl

    /// One request line in, one JSON reply out.
    func answer(_ request: Data) -> Data {
        do {
            guard let request = try? OnairJSON.decoder.decode(ControlRequest.self, from: request) else {
                throw EngineError("unknown command", kind: .configuration)
            }
            switch request.command {
            case .status: return OnairJSON.data(daemon.status())
            case .reload:
                daemon.wake()
                return OnairJSON.data(ControlAcknowledgement())
            case .startJob:
                guard let job = request.job else { throw EngineError("start-job needs a job", kind: .configuration) }
                return OnairJSON.data(try jobs.start(job))
            case .listJobs: return OnairJSON.data(JobList(jobs: jobs.jobs.list()))
            case .stopJob:
                guard let id = request.id else { throw EngineError("stop-job needs an id", kind: .configuration) }
                return OnairJSON.data(try jobs.stop(id: id))
            }
        } catch let error as EngineError {
            return OnairJSON.data(ControlFailure(error: error.description, kind: error.kind))
        } catch {
            return OnairJSON.data(ControlFailure(error: "\(error)", kind: .configuration))
        }
    }
}

/// Starts and stops runtime jobs and tells the live event stream: the one way a job starts or stops,
/// whether the API, a page or `onair jobs` over the control socket asks.
struct JobControl: Sendable {
    let jobs: RuntimeJobs
    let events: DaemonEvents

    func start(_ spec: JobSpec) throws -> JobStatus {
        let status = try jobs.start(spec)
        events.publish(LiveEvent(type: .jobStart, station: status.station, job: status.id))
        return status
    }

    func stop(id: Int64) throws -> JobStatus {
        let status = try jobs.stop(id: id)
        events.publish(LiveEvent(type: .jobStop, station: status.station, job: status.id))
        return status
    }
}
