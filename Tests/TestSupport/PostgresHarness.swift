import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum PostgresHarnessError: Error, CustomStringConvertible {
    case notInstalled(String)
    case startFailed(String)

    public var description: String {
        switch self {
        case .notInstalled(let what): return "PostgreSQL 15 is not installed (\(what)): run scripts/setup"
        case .startFailed(let why): return "PostgreSQL did not start: \(why)"
        }
    }
}

/// A real PostgreSQL 15 server (Debian's postgresql-15) for the tests: `initdb` into a temporary
/// directory, then the server on 127.0.0.1 and a free port, as nobody when the tests run as root
/// (PostgreSQL refuses root). fsync is off: the tests kill processes, never the machine.
public final class PostgresHarness: @unchecked Sendable {  // `server` is touched by the test's own thread only
    public static let binaries = "/usr/lib/postgresql/15/bin"
    public let port: UInt16
    /// With `tls`: the server's certificate for `localhost`, and the authority that signed it.
    public let certificates: TestCertificates?
    private let directory: TemporaryDirectory
    private var server: RunningProcess?

    /// What `--database` takes: the superuser `onair`, no password (trust on loopback), database `onair`.
    public var url: String { url(host: "127.0.0.1") }

    /// The same through another of its addresses (`alsoOn`).
    public func url(host: String) -> String { "postgresql://onair@\(host):\(port)/onair" }

    /// Where else it listens and whom it lets in there (`init(alsoOn:)`).
    private let otherAddress: (address: String, clients: String)?

    /// `tls`: the server also speaks TLS (`ssl = on`), with a certificate for `localhost` made for it.
    /// `alsoOn`: an address of the test's own network namespace it also listens on, and the clients (a CIDR
    /// block) let in there, for a daemon in another namespace linked to the test's.
    public init(tls: Bool = false, alsoOn otherAddress: (address: String, clients: String)? = nil) throws {
        self.otherAddress = otherAddress
        guard FileManager.default.isExecutableFile(atPath: "\(Self.binaries)/initdb") else {
            throw PostgresHarnessError.notInstalled("\(Self.binaries)/initdb")
        }
        directory = try TemporaryDirectory(prefix: "onair-postgres")
        certificates = tls ? try TestCertificates.make(in: directory.url, serverNames: ["localhost"]) : nil
        // The server reads its key only when its own user owns it and nobody else may read it.
        let serverFiles = certificates.map { [$0.key.path, $0.certificate.path] } ?? []
        serverFiles.forEach { chmod($0, 0o600) }
        if geteuid() == 0 {
            guard let nobody = getpwnam("nobody"), let nogroup = getgrnam("nogroup"),
                  ([directory.url.path] + serverFiles).allSatisfy({ chown($0, nobody.pointee.pw_uid, nogroup.pointee.gr_gid) == 0 })
            else { throw PostgresHarnessError.startFailed("cannot hand \(directory.url.path) to nobody:nogroup") }
        }
        try Self.runUnprivileged("\(Self.binaries)/initdb", ["-D", directory.file("data").path, "-U", "onair", "--auth=trust",
                                                             "-E", "UTF8", "--no-sync", "--no-instructions"])
        if let otherAddress {
            let rules = directory.file("data").appendingPathComponent("pg_hba.conf")
            let handle = try FileHandle(forWritingTo: rules)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("host all onair \(otherAddress.clients) trust\n".utf8))
            try handle.close()
        }
        port = try FreePort.pick()
        try start()
        try Self.runUnprivileged("\(Self.binaries)/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "onair", "onair"])
    }

    deinit { server?.stop(grace: 5) }

    /// One server for a test process's store tests, started on first use; each test calls `reset()`.
    public static let shared = Result { try PostgresHarness() }

    /// Empties the database: every table gone, and every session of an earlier test ended, as on a new
    /// server. (XCTest keeps each test case, and the daemons and stores it holds, until the whole run
    /// ends: their idle connections would otherwise add up past `max_connections`.)
    public func reset() throws {
        let sql = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'onair' AND pid <> pg_backend_pid(); "
            + "DROP SCHEMA public CASCADE; CREATE SCHEMA public"
        let result = try ProcessRunner.run("\(Self.binaries)/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "onair", "-q", "-c", sql, "onair"])
        guard result.succeeded else { throw PostgresHarnessError.startFailed("cannot empty the database: \(result)") }
    }

    /// Starts the server (again, on the same port, with the same data); returns once it accepts connections.
    public func start() throws {
        let process = try ProcessRunner.start("\(Self.binaries)/postgres",
                                              ["-D", directory.file("data").path, "-p", "\(port)", "-k", directory.url.path,
                                               "-c", "listen_addresses=127.0.0.1\(otherAddress.map { "," + $0.address } ?? "")",
                                               "-c", "fsync=off", "-c", "max_connections=50"]
                                                + (certificates.map { ["-c", "ssl=on", "-c", "ssl_cert_file=\($0.certificate.path)",
                                                                       "-c", "ssl_key_file=\($0.key.path)"] } ?? []),
                                              unprivileged: true)
        server = process
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            // Accepting on the port is not enough: a server still starting up refuses sessions.
            if FreePort.isAccepting(port),
               (try? ProcessRunner.run("\(Self.binaries)/pg_isready", ["-q", "-h", "127.0.0.1", "-p", "\(port)"]))?.succeeded == true {
                return
            }
            guard process.isRunning else { throw PostgresHarnessError.startFailed(process.stderrText) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw PostgresHarnessError.startFailed("not accepting connections on port \(port) after 30 s: \(process.stderrText)")
    }

    /// Stops the server the way an administrator's restart does (fast shutdown: clients are disconnected).
    public func stop() {
        guard let server else { return }
        kill(server.pid, SIGINT)
        if !server.waitForExit(timeout: 20) { server.stop(grace: 1) }
        self.server = nil
    }

    /// The server's log, for failure messages.
    public var log: String { server?.stderrText ?? "" }

    private static func runUnprivileged(_ executable: String, _ arguments: [String]) throws {
        let process = try ProcessRunner.start(executable, arguments, unprivileged: true)
        guard process.waitForExit(timeout: 120) else {
            process.stop()
            throw PostgresHarnessError.startFailed("\(executable) timed out")
        }
        let result = process.result()
        guard result.succeeded else { throw PostgresHarnessError.startFailed("\(result)") }
    }
}
