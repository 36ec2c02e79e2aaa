import Foundation
import TestSupport
import XCTest

/// What the cluster's tests read of the shared database, through `onair`'s own commands.
extension OnairBinary {
    /// `onair status --json`: the daemons and the stations' leases.
    func cluster(database: String) throws -> (daemons: [[String: Any]], leases: [[String: Any]]) {
        let status = try run(["status", "--json", "--database", database])
        let object = try XCTUnwrap(Self.events(status.stdoutText).first, "\(status)")
        return (object["daemons"] as? [[String: Any]] ?? [], object["leases"] as? [[String: Any]] ?? [])
    }

    /// `onair schedule episodes --json`, newest first.
    func episodes(database: String) throws -> [[String: Any]] {
        Self.events(try run(["schedule", "episodes", "--json", "--database", database]).stdoutText)
    }

    /// The recordings index as the shared database holds it, oldest first.
    func indexed(database: String) throws -> [[String: Any]] {
        let result = try run(["recordings", "list", "--json", "--database", database])
        XCTAssertTrue(result.succeeded, "\(result)")
        return Self.events(result.stdoutText)
    }

    /// The newest episode once it has ended (done, failed or missed), or as it stands after `timeout`.
    func endedEpisode(database: String, timeout: TimeInterval) -> [String: Any] {
        var last: [String: Any] = [:]
        _ = eventually(timeout: timeout, every: 0.2) {
            last = (try? episodes(database: database))?.first ?? [:]
            return ["done", "failed", "missed"].contains(last["status"] as? String)
        }
        return last
    }
}
