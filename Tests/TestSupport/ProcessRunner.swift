import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs external tools (ffmpeg, ffprobe, curl, icecast2) for tests.
///
/// Every child is started through `setpriv --pdeathsig KILL`, so it dies with the test process even
/// when a test crashes before its teardown runs. Linux sends the parent-death signal when the
/// *thread* that forked the child exits, so all children are forked from one thread that lives as
/// long as the process (see `SpawnerThread`), never from a short-lived GCD or test thread.
///
/// The API is blocking: call it from synchronous test methods or threads you own, not from
/// Swift concurrency tasks.
public enum ProcessRunner {
    /// Runs a command to completion and captures its output.
    ///
    /// - Parameters:
    ///   - executable: a name looked up in `PATH` (and the sbin directories), or a path.
    ///   - timeout: after this many seconds the command gets SIGTERM, then SIGKILL; the result says `timedOut`.
    ///   - input: bytes fed to standard input (otherwise /dev/null, so ffmpeg never waits for keys).
    public static func run(
        _ executable: String,
        _ arguments: [String],
        timeout: TimeInterval = 120,
        input: Data? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) throws -> ProcessResult {
        let process = try start(executable, arguments, input: input,
                                environment: environment, currentDirectory: currentDirectory)
        let finished = process.waitForExit(timeout: timeout)
        if !finished { process.stop(grace: 2) }
        return process.result(timedOut: !finished)
    }

    /// Starts a long-running command (a server, a source client). Its stdout and stderr go to files
    /// readable at any time through the returned handle; it is killed when the handle is deallocated.
    ///
    /// - Parameter unprivileged: when the test runs as root, run the command as nobody:nogroup
    ///   (Icecast refuses to run as root). Ignored when not root.
    public static func start(
        _ executable: String,
        _ arguments: [String],
        input: Data? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        unprivileged: Bool = false
    ) throws -> RunningProcess {
        guard let resolved = which(executable) else { throw ProcessRunnerError.executableNotFound(executable) }
        var launchPath = resolved
        var launchArguments = arguments
        if let setpriv = which("setpriv") {
            var options = ["--pdeathsig", "KILL"]
            if unprivileged && geteuid() == 0 {
                options += ["--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            }
            launchPath = setpriv
            launchArguments = options + ["--", resolved] + arguments
        } else if unprivileged && geteuid() == 0 {
            throw ProcessRunnerError.executableNotFound("setpriv (needed to drop root privileges)")
        }
        return try RunningProcess(command: [executable] + arguments, launchPath: launchPath,
                                  launchArguments: launchArguments, input: input,
                                  environment: environment, currentDirectory: currentDirectory)
    }

    /// The full path of an executable, searching `PATH` plus the usual system directories.
    public static func which(_ name: String) -> String? {
        let fileManager = FileManager.default
        if name.contains("/") { return fileManager.isExecutableFile(atPath: name) ? name : nil }
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "")
            .split(separator: ":").map(String.init)
            + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin"]
        return searchPath.lazy
            .map { "\($0)/\(name)" }
            .first { fileManager.isExecutableFile(atPath: $0) }
    }
}

public enum ProcessRunnerError: Error, CustomStringConvertible {
    case executableNotFound(String)
    case failed(ProcessResult)

    public var description: String {
        switch self {
        case .executableNotFound(let name):
            return "\(name) not found; run scripts/setup to install the test tools"
        case .failed(let result):
            return result.description
        }
    }
}

/// How a command ended and what it printed.
public struct ProcessResult: Sendable, CustomStringConvertible {
    public let command: [String]
    /// The exit code, or the signal number when `terminatedBySignal`.
    public let status: Int32
    public let terminatedBySignal: Bool
    public let timedOut: Bool
    public let stdout: Data
    public let stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    public var succeeded: Bool { !timedOut && !terminatedBySignal && status == 0 }

    /// Returns self when the command exited 0, else throws `ProcessRunnerError.failed`.
    @discardableResult
    public func check() throws -> ProcessResult {
        guard succeeded else { throw ProcessRunnerError.failed(self) }
        return self
    }

    public var description: String {
        let outcome = timedOut ? "timed out"
            : terminatedBySignal ? "was killed by signal \(status)"
            : "exited with \(status)"
        let stderrTail = stderrText.suffix(2000)
        return "`\(command.joined(separator: " "))` \(outcome)" + (stderrTail.isEmpty ? "" : ":\n\(stderrTail)")
    }
}

/// A started child process. Killed (SIGKILL) when deallocated if still running.
public final class RunningProcess: @unchecked Sendable {
    public let command: [String]
    public let pid: Int32
    private let process: Process
    private let outputDirectory: TemporaryDirectory
    private let exit: ExitState

    /// Exit bookkeeping lives apart from `self` so that Foundation's termination handler does
    /// not keep the handle alive (the handle's deinit is what kills a forgotten child).
    private final class ExitState: @unchecked Sendable {
        let condition = NSCondition()
        var exited = false
    }

    fileprivate init(command: [String], launchPath: String, launchArguments: [String], input: Data?,
                     environment: [String: String], currentDirectory: URL?) throws {
        self.command = command
        outputDirectory = try TemporaryDirectory(prefix: "onair-process")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launchPath)
        process.arguments = launchArguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }

        let stdoutURL = outputDirectory.file("stdout")
        let stderrURL = outputDirectory.file("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)
        let stdinHandle: FileHandle
        if let input {
            let inputURL = outputDirectory.file("stdin")
            try input.write(to: inputURL)
            stdinHandle = try FileHandle(forReadingFrom: inputURL)
        } else {
            stdinHandle = FileHandle.nullDevice
        }
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        process.standardInput = stdinHandle

        let exit = ExitState()
        process.terminationHandler = { _ in
            exit.condition.lock()
            exit.exited = true
            exit.condition.broadcast()
            exit.condition.unlock()
        }
        defer {
            try? stdoutHandle.close()
            try? stderrHandle.close()
            if input != nil { try? stdinHandle.close() }
        }
        try SpawnerThread.shared.perform { try process.run() }
        self.process = process
        self.exit = exit
        pid = process.processIdentifier
    }

    public var isRunning: Bool {
        exit.condition.lock()
        defer { exit.condition.unlock() }
        return !exit.exited
    }

    /// Waits until the process exits; false if it is still running after `timeout` seconds.
    @discardableResult
    public func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        exit.condition.lock()
        defer { exit.condition.unlock() }
        while !exit.exited {
            if !exit.condition.wait(until: deadline) { return exit.exited }
        }
        return true
    }

    /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL (at once when `grace` is 0), and
    /// waits for the exit.
    public func stop(grace: TimeInterval = 2) {
        guard isRunning else { return }
        if grace > 0 {
            kill(pid, SIGTERM)
            if waitForExit(timeout: grace) { return }
        }
        kill(pid, SIGKILL)
        waitForExit(timeout: 10)
    }

    /// What the process has written to stdout so far.
    public var stdout: Data { (try? Data(contentsOf: outputDirectory.file("stdout"))) ?? Data() }
    /// What the process has written to stderr so far.
    public var stderr: Data { (try? Data(contentsOf: outputDirectory.file("stderr"))) ?? Data() }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The outcome so far; meaningful once the process has exited.
    public func result(timedOut: Bool = false) -> ProcessResult {
        let exited = !isRunning
        return ProcessResult(
            command: command,
            status: exited ? process.terminationStatus : 0,
            terminatedBySignal: exited && process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            stdout: stdout,
            stderr: stderr)
    }

    deinit { stop(grace: 0) }
}

/// The one thread all children are forked from (see `ProcessRunner`). It never exits.
private final class SpawnerThread: @unchecked Sendable {
    static let shared = SpawnerThread()

    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "onair-test-spawner"
        thread.start()
    }

    /// Runs `work` on the spawner thread and waits for it.
    func perform(_ work: @escaping @Sendable () throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        condition.lock()
        queue.append {
            do { try work() } catch { outcome.error = error }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        if let error = outcome.error { throw error }
    }

    private final class OutcomeBox: @unchecked Sendable {
        var error: Error?  // written before `done.signal()`, read after `done.wait()`
    }

    private func serve() {
        // A thread starts with its creator's signal mask, and a child keeps the mask it was forked
        // with: created from a Dispatch worker (which blocks nearly every signal), the spawner would
        // start every server and encoder deaf to SIGTERM, so each graceful stop took its whole grace.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let work = queue.removeFirst()
            condition.unlock()
            work()
        }
    }
}
