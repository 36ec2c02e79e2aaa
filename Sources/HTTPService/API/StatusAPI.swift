import Engine
import Foundation
import Hummingbird
import RadioModel
import Recording
import Scheduling

/// `/api/v1/status`: what the daemon is doing — active episodes and jobs, the next episodes, recent
/// failures, retention's setting and latest deletions — and the disk space left where recordings go.
extension API {
    var statusRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/status") { _, _ in
                try await perform { [live] daemon in
                    JSONResponse.make(ServiceStatus(daemon: daemon.status(), jobs: daemon.runningJobs(), liveMounts: live.stationsServed,
                                                    diskFree: DiskSpace.free(at: daemon.paths.recordings)))
                }
            },
        ]
    }
}

struct ServiceStatus: Encodable {
    let daemon: DaemonStatus
    let jobs: [JobStatus]
    /// Stations whose live mount (`/live/ID`) has listeners or is connecting.
    let liveMounts: [String]
    /// Bytes free on the recordings' file system.
    let diskFree: Int64?
}
