import Foundation

/// Maloja (PyPI's malojaserver, a scrobble server that implements ListenBrainz's API), from the venv
/// scripts/setup makes ($ONAIR_MALOJA_VENV, else /var/tmp/onair-maloja), on a loopback port with an API key chosen
/// here. The port is picked at once, the server started later: a test can have it away first.
public final class MalojaServer: @unchecked Sendable {  // `process` is set and stopped from the test's thread only
    public static var venv: String { ProcessInfo.processInfo.environment["ONAIR_MALOJA_VENV"] ?? "/var/tmp/onair-maloja" }
    public let port: UInt16
    public let apiKey = "onairTestKey" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    private let directory: TemporaryDirectory
    private var process: RunningProcess?

    /// The ListenBrainz API's root, as `onair scrobble login --server` takes it.
    public var listenBrainzRoot: String { "http://127.0.0.1:\(port)/apis/listenbrainz" }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.venv + "/bin/maloja") else {
            throw MalojaFailed(description: "no Maloja in \(Self.venv): scripts/setup installs it")
        }
        directory = try TemporaryDirectory(prefix: "onair-maloja")
        try "onair: \(apiKey)\n".write(to: directory.file("apikeys.yml"), atomically: true, encoding: .utf8)
        port = try FreePort.pick()
    }

    /// Starts the server and waits until it answers.
    public func start() throws {
        let process = try ProcessRunner.start(Self.venv + "/bin/maloja", ["run"], environment: [
            "MALOJA_DATA_DIRECTORY": directory.url.path, "MALOJA_PORT": "\(port)", "MALOJA_HOST": "127.0.0.1",
            "MALOJA_SKIP_SETUP": "yes", "MALOJA_FORCE_PASSWORD": UUID().uuidString,
        ], currentDirectory: directory.url)
        self.process = process
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline, process.isRunning {
            if let reply = try? RawHTTP.get(URL(string: "http://127.0.0.1:\(port)/apis/mlj_1/serverinfo")!, timeout: 1), reply.statusCode == 200 { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw MalojaFailed(description: "Maloja did not answer on \(port): \(process.stdoutText.suffix(800)) \(process.stderrText.suffix(800))")
    }

    public func stop() {
        process?.stop()
        process = nil
    }

    /// The scrobbles Maloja keeps, oldest first: (seconds since 1970, artists, title). Read from its database file.
    public func scrobbles() throws -> [(time: Int, artists: [String], title: String)] {
        let database = directory.file("malojadb.sqlite").path
        let script = """
        import json, sqlite3, sys
        rows = sqlite3.connect(sys.argv[1]).execute("SELECT timestamp, rawscrobble FROM scrobbles ORDER BY timestamp").fetchall()
        print(json.dumps([[t, json.loads(r)] for t, r in rows]))
        """
        let result = try ProcessRunner.run("python3", ["-c", script, database], timeout: 30).check()
        let rows = try JSONSerialization.jsonObject(with: result.stdout) as? [[Any]] ?? []
        return rows.compactMap { row in
            guard row.count == 2, let time = row[0] as? Int, let raw = row[1] as? [String: Any] else { return nil }
            return (time, raw["track_artists"] as? [String] ?? [], raw["track_title"] as? String ?? "")
        }
    }
}

/// Maloja is missing or did not start.
public struct MalojaFailed: Error, CustomStringConvertible {
    public let description: String
}
