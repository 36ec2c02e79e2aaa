import APIContract
import Engine
import Foundation
import RadioModel
import Recording
import Scheduling

/// `/api/v1/status`: what the daemon is doing — active episodes and jobs, the next episodes, recent
/// failures, retention's setting and latest deletions — and the disk space left where recordings go.
extension API {
    func status(_ input: Operations.Status.Input) async throws -> Operations.Status.Output {
        try await perform { [live] daemon in
            .ok(.init(body: .json(.init(daemon: try GeneratedGlue.contract(daemon.status()),
                                        jobs: try daemon.runningJobs().map { try GeneratedGlue.contract($0) },
                                        liveMounts: live.stationsServed,
                                        diskFree: DiskSpace.free(at: daemon.paths.recordings).map(Int.init)))))
        }
    }
}
