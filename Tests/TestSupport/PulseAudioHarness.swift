import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PulseAudio daemon with one null sink, for testing audio output without a sound card:
/// what is played to the sink can be recorded back from its monitor with parec.
///
///     let pulse = try PulseAudioHarness()
///     defer { pulse.stop() }
///     // play to pulse.server (unix:/…/native) or pulse.tcpServer (tcp:127.0.0.1:PORT)
///     let inputs = try pulse.sinkInputs()
///
/// As root, pulseaudio runs in per-user mode with a warning (no --system needed) as long as HOME
/// and XDG_RUNTIME_DIR point at writable directories; D-Bus and the cookie are not needed with
/// `auth-anonymous=1`. `-n` skips default.pa, so nothing but the modules given here loads.
public final class PulseAudioHarness: @unchecked Sendable {
    /// The null sink's name.
    public let sinkName = "onair_test"
    /// `unix:/…/native`
    public let server: String
    /// `tcp:127.0.0.1:PORT`, as a remote box is reached.
    public let tcpServer: String
    private let directory: TemporaryDirectory
    private let daemon: RunningProcess
    private let environment: [String: String]

    public init(startupTimeout: TimeInterval = 10) throws {
        guard let pulseaudio = ProcessRunner.which("pulseaudio") else {
            throw ProcessRunnerError.executableNotFound("pulseaudio")
        }
        directory = try TemporaryDirectory(prefix: "onair-pulse")
        let runtime = directory.file("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let socket = directory.file("native").path
        let port = try FreePort.pick()
        server = "unix:\(socket)"
        tcpServer = "tcp:127.0.0.1:\(port)"
        // A client that finds no server would otherwise try to start one itself (autospawn) and hang.
        let clientConfig = directory.file("client.conf")
        try "autospawn = no\n".write(to: clientConfig, atomically: true, encoding: .utf8)
        environment = ["HOME": directory.url.path, "XDG_RUNTIME_DIR": runtime.path, "PULSE_SERVER": server,
                       "PULSE_CLIENTCONFIG": clientConfig.path]
        // pulseaudio closes every inherited descriptor at startup, among them the socket through which
        // Foundation learns that a child exited: Foundation then takes the daemon for dead and blocks
        // its process-monitoring thread in waitpid() for it, so no later child's exit is ever noticed.
        // A shell in between holds that socket for as long as the daemon runs (the daemon dies with it).
        daemon = try ProcessRunner.start("sh", ["-c", "setpriv --pdeathsig KILL -- \"$0\" \"$@\"; exit $?", pulseaudio,
            "--daemonize=no", "--exit-idle-time=-1", "-n", "--use-pid-file=no", "--disable-shm", "--log-target=stderr",
            "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            "--load=module-native-protocol-tcp port=\(port) listen=127.0.0.1 auth-anonymous=1",
            "--load=module-null-sink sink_name=\(sinkName) rate=48000",
        ], environment: environment, currentDirectory: directory.url)
        let deadline = Date(timeIntervalSinceNow: startupTimeout)
        while true {
            let info = try pactl(["info"], timeout: 2)
            if info.succeeded { break }
            guard daemon.isRunning, Date() < deadline else {
                daemon.stop(grace: 0)
                throw PulseAudioHarnessError.notReady(daemon: daemon.result().description, pactl: info.description)
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Runs pactl against this daemon.
    public func pactl(_ arguments: [String], timeout: TimeInterval = 10) throws -> ProcessResult {
        try ProcessRunner.run("pactl", ["--server", server] + arguments, timeout: timeout, environment: environment)
    }

    /// The streams playing into the daemon's sinks (`pactl list sink-inputs`), each as its
    /// "Key: value" lines and properties, e.g. `["Sink": "0", "Corked": "no", "media.name": "…"]`.
    public func sinkInputs() throws -> [[String: String]] {
        let text = try pactl(["list", "sink-inputs"]).check().stdoutText
        return text.components(separatedBy: "Sink Input #").dropFirst().map { block in
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let equals = trimmed.range(of: " = ") {
                    fields[String(trimmed[..<equals.lowerBound])] = String(trimmed[equals.upperBound...])
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                } else if let colon = trimmed.range(of: ": ") {
                    fields[String(trimmed[..<colon.lowerBound])] = String(trimmed[colon.upperBound...])
                }
            }
            return fields
        }
    }

    /// Records what the null sink plays for `seconds`, as raw s16le stereo at 48 kHz.
    public func record(seconds: Double) throws -> Data {
        let recorder = try ProcessRunner.start("parec", [
            "--server", server, "--device", "\(sinkName).monitor", "--raw", "--format=s16le", "--rate=48000",
            "--channels=2", "--latency-msec=50",
        ], environment: environment)
        Thread.sleep(forTimeInterval: seconds)
        recorder.stop(grace: 2)
        let data = recorder.stdout
        return data.prefix(data.count - data.count % 4)
    }

    /// Kills the daemon and removes its directory. Idempotent.
    public func stop() {
        daemon.stop(grace: 1)
        directory.remove()
    }

    deinit { stop() }
}

public enum PulseAudioHarnessError: Error, CustomStringConvertible {
    case notReady(daemon: String, pactl: String)

    public var description: String {
        switch self {
        case .notReady(let daemon, let pactl): return "PulseAudio did not answer: \(pactl)\n\(daemon)"
        }
    }
}
