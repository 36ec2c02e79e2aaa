import Foundation

/// Debian's supysonic (a Subsonic API server, API 1.10.2), the reference the tests hold onair's Subsonic API to: its
/// database, cache and config in a temporary directory, one admin user, `musicFolder` scanned, served by waitress
/// (python3-waitress) on a loopback port. It takes the password only as `p` (plain or `enc:HEX`), not as token and salt.
/// Internet radio stations have no command of their own: create them with `url("createInternetRadioStation", …)`, and
/// always with a `homepageUrl` (without one, its XML answers to getInternetRadioStations fail).
public final class SupysonicServer: @unchecked Sendable {  // `process` is set and stopped from the test's thread only
    public let port: UInt16
    public let user: String
    public let password: String
    /// The server's root; the API is under `rest/`.
    public let baseURL: URL
    private let directory: TemporaryDirectory
    private var process: RunningProcess?

    public init(musicFolder: URL, user: String, password: String) throws {
        guard let server = ProcessRunner.which("supysonic-server"), let cli = ProcessRunner.which("supysonic-cli") else {
            throw SupysonicFailed(description: "no supysonic-server or supysonic-cli: scripts/setup installs Debian's supysonic")
        }
        self.user = user
        self.password = password
        directory = try TemporaryDirectory(prefix: "onair-supysonic")
        // supysonic reads ./supysonic.conf after /etc/supysonic and ~/.supysonic; HOME here keeps the owner's out.
        try """
        [base]
        database_uri = sqlite:///\(directory.file("supysonic.db").path)
        [webapp]
        cache_dir = \(directory.file("cache").path)
        mount_webui = no
        [daemon]
        socket = \(directory.file("daemon.sock").path)
        run_watcher = no
        """.write(to: directory.file("supysonic.conf"), atomically: true, encoding: .utf8)
        let environment = ["HOME": directory.url.path]
        for arguments in [["user", "add", user, "-p", password], ["user", "setroles", user, "--admin"],
                          ["folder", "add", "music", musicFolder.path], ["folder", "scan", "--foreground", "music"]] {
            _ = try ProcessRunner.run(cli, arguments, timeout: 120, environment: environment, currentDirectory: directory.url).check()
        }
        port = try FreePort.pick()
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        let process = try ProcessRunner.start(server, ["--server", "waitress", "--host", "127.0.0.1", "--port", "\(port)"],
                                              environment: environment, currentDirectory: directory.url)
        self.process = process
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline, process.isRunning {
            if let reply = try? RawHTTP.get(url("ping"), timeout: 1), reply.bodyText.contains("\"status\":\"ok\"") { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw SupysonicFailed(description: "supysonic did not answer on \(port): \(process.stdoutText.suffix(800)) \(process.stderrText.suffix(800))")
    }

    /// `rest/ENDPOINT.view` with the user's credentials, the client `onair-test`, API 1.16.1 and JSON (unless
    /// `parameters` says `f`).
    public func url(_ endpoint: String, _ parameters: [String: String] = [:]) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("rest/\(endpoint).view"), resolvingAgainstBaseURL: false)!
        let common = ["u": user, "p": password, "v": "1.16.1", "c": "onair-test", "f": "json"]
        components.queryItems = common.merging(parameters) { $1 }.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url!
    }

    public func stop() {
        process?.stop()
        process = nil
    }
}

/// supysonic is missing or did not start.
public struct SupysonicFailed: Error, CustomStringConvertible {
    public let description: String
}
