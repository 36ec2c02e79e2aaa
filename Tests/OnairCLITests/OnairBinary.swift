import Foundation
import XCTest
import TestSupport

/// Runs the built `onair` executable the way a user does, with its own ONAIR_HOME, and with
/// ONAIR_TEST_DATABASE=postgresql its schedule, recordings index and jobs in an emptied PostgreSQL
/// (ONAIR_DATABASE_URL, as a user sharing a database sets it).
struct OnairBinary {
    let home: TemporaryDirectory
    let database: String?

    init() throws {
        home = try TemporaryDirectory(prefix: "onair-home")
        database = try TestDatabase.postgresURL()
    }

    /// The executable SwiftPM built beside the test runner (on Linux the .xctest is itself an executable).
    static var path: String {
        let products = Bundle.main.executableURL!.deletingLastPathComponent()
        return products.appendingPathComponent("onair").path
    }

    var environment: [String: String] { ["ONAIR_HOME": home.url.path].merging(database.map { ["ONAIR_DATABASE_URL": $0] } ?? [:]) { $1 } }

    func run(_ arguments: [String], timeout: TimeInterval = 60, extraEnvironment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(Self.path, arguments, timeout: timeout, environment: environment.merging(extraEnvironment) { $1 })
    }

    /// `onair status` of the daemon on this ONAIR_HOME: with a shared database, `status` shows the
    /// cluster instead, so the database is left out (an empty ONAIR_DATABASE_URL names none).
    func localStatus(_ arguments: [String] = [], timeout: TimeInterval = 60) throws -> ProcessResult {
        try run(["status"] + arguments, timeout: timeout, extraEnvironment: ["ONAIR_DATABASE_URL": ""])
    }

    /// `extraEnvironment` adds to (or overrides) the test's own and ONAIR_HOME.
    func start(_ arguments: [String], extraEnvironment: [String: String] = [:], in namespace: NetworkNamespace? = nil) throws -> RunningProcess {
        let (executable, wrapped) = namespace?.wrap(Self.path, arguments) ?? (Self.path, arguments)
        return try ProcessRunner.start(executable, wrapped, environment: environment.merging(extraEnvironment) { $1 })
    }

    /// The JSON event objects a `--json` run printed.
    static func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A date-time in UTC to the second, as `schedule add --on` takes it (with `--tz UTC`).
    static func utcText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// A date in onair's JSON (ISO 8601 with milliseconds).
    static func date(_ value: Any?) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (value as? String).flatMap { formatter.date(from: $0) }
    }
}
