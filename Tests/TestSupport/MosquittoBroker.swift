import Foundation

/// Debian's mosquitto on a loopback port, with accounts and an ACL as an owner would set them up: `onair` may read and
/// write its own topics and Home Assistant's discovery; `homeassistant` reads everything and may send the switches'
/// commands; nobody else gets in. `restart()` brings it back on the same port, empty (no persistence), as after a
/// broker's crash.
public final class MosquittoBroker: @unchecked Sendable {  // `process` changes only in `restart()`, called from the test's thread
    public let port: UInt16
    public static let accounts = [("onair", "daemon-secret"), ("homeassistant", "hub-secret")]
    private let directory: TemporaryDirectory
    private var process: RunningProcess

    public init() throws {
        directory = try TemporaryDirectory(prefix: "onair-mosquitto")
        let passwords = directory.file("passwords")
        for (index, (user, password)) in Self.accounts.enumerated() {
            _ = try ProcessRunner.run("mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", passwords.path, user, password], timeout: 30).check()
        }
        try """
        user onair
        topic readwrite onair/#
        topic readwrite homeassistant/#

        user homeassistant
        topic read #
        topic write onair/+/station/+/record/set
        topic write onair/+/station/+/relay/+/set
        """.write(to: directory.file("acl"), atomically: true, encoding: .utf8)
        // Started as root, mosquitto runs as its own user, which must read these.
        chmod(directory.url.path, 0o755)
        chmod(passwords.path, 0o644)
        port = try FreePort.pick()
        try """
        listener \(port) 127.0.0.1
        allow_anonymous false
        password_file \(passwords.path)
        acl_file \(directory.file("acl").path)
        persistence false
        """.write(to: directory.file("mosquitto.conf"), atomically: true, encoding: .utf8)
        process = try Self.start(directory: directory, port: port)
    }

    /// Kills the broker (as a crash would) and starts it again on the same port, empty.
    public func restart() throws {
        kill(process.pid, SIGKILL)
        _ = process.waitForExit(timeout: 10)
        process = try Self.start(directory: directory, port: port)
    }

    public func stop() {
        process.stop()
    }

    /// `mosquitto_sub` as Home Assistant: every message under `filters`, one line each, "UNIXTIME TOPIC PAYLOAD".
    public func subscribe(_ filters: [String]) throws -> RunningProcess {
        let subscriber = try ProcessRunner.start("mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(port)", "-u", "homeassistant", "-P", "hub-secret",
                                                                   "-F", "%U %t %p"] + filters.flatMap { ["-t", $0] })
        Thread.sleep(forTimeInterval: 0.3)  // subscribed before the test goes on
        return subscriber
    }

    /// `mosquitto_pub` as Home Assistant; `retain` has the broker keep it for every later subscriber.
    public func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        _ = try ProcessRunner.run("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-u", "homeassistant", "-P", "hub-secret",
                                                "-t", topic, "-m", payload] + (retain ? ["-r"] : []), timeout: 30).check()
    }

    private static func start(directory: TemporaryDirectory, port: UInt16) throws -> RunningProcess {
        let process = try ProcessRunner.start("mosquitto", ["-c", directory.file("mosquitto.conf").path])
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline, process.isRunning {
            if FreePort.isAccepting(port) { return process }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw MosquittoFailed(description: "mosquitto did not listen on \(port): \(process.stderrText)")
    }
}

/// The broker did not start.
public struct MosquittoFailed: Error, CustomStringConvertible {
    public let description: String
}

/// One message `mosquitto_sub -F '%U %t %p'` printed.
public struct BrokerMessage: Sendable {
    public let at: Date
    public let topic: String
    public let payload: String

    /// The lines of a subscriber's output.
    public static func read(_ output: String) -> [BrokerMessage] {
        output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let seconds = Double(parts[0]) else { return nil }
            return BrokerMessage(at: Date(timeIntervalSince1970: seconds), topic: String(parts[1]), payload: parts.count > 2 ? String(parts[2]) : "")
        }
    }
}
