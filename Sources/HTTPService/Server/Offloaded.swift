import Dispatch

/// Runs blocking engine work — starting or stopping a job (a recording is finalised first), joining a
/// station (an HLS playlist is fetched), deleting files — on a Dispatch thread, never on Swift's
/// cooperative pool, which serves every connection of the server.
func offloaded<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
