import Foundation

/// The database the tests of stored state (the schedule, the recordings index, the runtime jobs) keep
/// it in: onair's SQLite file by default, or with `ONAIR_TEST_DATABASE=postgresql` a real PostgreSQL 15
/// (`PostgresHarness.shared`, started on first use and emptied for each test). scripts/test runs
/// those tests a second time that way, so both backends pass the same tests.
public enum TestDatabase {
    /// The backend this process tests: "sqlite" or "postgresql". Files a test keeps (the browser's
    /// screenshots) go in a folder of this name, since scripts/test runs the two passes side by side.
    public static var backendName: String {
        let chosen = ProcessInfo.processInfo.environment["ONAIR_TEST_DATABASE"] ?? ""
        return chosen.isEmpty ? "sqlite" : chosen
    }

    /// The PostgreSQL URL of an empty database to run on, or nil for SQLite.
    public static func postgresURL() throws -> String? {
        guard let chosen = ProcessInfo.processInfo.environment["ONAIR_TEST_DATABASE"], !chosen.isEmpty, chosen != "sqlite" else { return nil }
        guard chosen == "postgresql" else { throw UnknownDatabase(name: chosen) }
        let server = try PostgresHarness.shared.get()
        try server.reset()
        return server.url
    }
}

/// ONAIR_TEST_DATABASE names neither backend.
public struct UnknownDatabase: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "ONAIR_TEST_DATABASE is sqlite or postgresql, not '\(name)'" }
}
