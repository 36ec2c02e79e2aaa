import Foundation

/// A terminal for testing a full-screen program: a detached tmux session of a fixed size on a private
/// server socket, driven with send-keys and read with capture-pane.
///
///     let tmux = try TmuxSession(environment: ["ONAIR_HOME": home])
///     defer { tmux.stop() }
///     try tmux.type("onair listen URL\n")
///     XCTAssertTrue(tmux.waitFor("♪ Title"))
public final class TmuxSession: @unchecked Sendable {
    private let directory: TemporaryDirectory
    private let socket: String
    private let name = "onair"

    /// Starts `sh` in a `width`×`height` pane with `environment` added to the test's own.
    public init(width: Int = 120, height: Int = 30, environment: [String: String] = [:]) throws {
        guard ProcessRunner.which("tmux") != nil else { throw ProcessRunnerError.executableNotFound("tmux") }
        directory = try TemporaryDirectory(prefix: "onair-tmux")
        socket = directory.file("socket").path
        var arguments = ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments = ["tmux", "-u"] + arguments + ["env", "PS1=$ ", "sh"]
        // The server tmux forks would keep every descriptor the runner gave the client, among them the
        // socket through which Foundation learns that the client exited: it would then never notice.
        // bash closes them all first.
        let closeInherited = "for fd in /proc/$$/fd/*; do fd=${fd##*/}; ((fd > 2)) && eval \"exec $fd>&-\"; done; exec \"$@\""
        try ProcessRunner.run("bash", ["-c", closeInherited + " </dev/null >/dev/null 2>&1", "bash"] + arguments, timeout: 10,
                              environment: ["TERM": "xterm-256color", "LC_ALL": "C.UTF-8"]).check()
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("tmux", arguments, timeout: 10, environment: ["TERM": "xterm-256color", "LC_ALL": "C.UTF-8"])
    }

    /// Types text literally ("\n" becomes Enter).
    public func type(_ text: String) throws {
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if index > 0 { try tmux(["-S", socket, "send-keys", "-t", name, "Enter"]).check() }
            if !line.isEmpty { try tmux(["-S", socket, "send-keys", "-t", name, "-l", line]).check() }
        }
    }

    /// Presses keys by tmux's names: "Left", "Right", "C-c".
    public func press(_ keys: String...) throws {
        try tmux(["-S", socket, "send-keys", "-t", name] + keys).check()
    }

    /// What the pane shows now.
    public func screen() throws -> String {
        try tmux(["-S", socket, "capture-pane", "-p", "-t", name]).check().stdoutText
    }

    /// What the pane shows, for failure messages.
    public var shown: String { (try? screen()) ?? "(tmux did not answer)" }

    /// Waits until the pane shows `text`.
    public func waitFor(_ text: String, timeout: TimeInterval = 15) -> Bool {
        waitUntil(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until `condition` holds for what the pane shows.
    public func waitUntil(timeout: TimeInterval = 15, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            if let screen = try? screen(), condition(screen) { return true }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        return false
    }

    /// Ends the session and its programs. Idempotent.
    public func stop() {
        _ = try? tmux(["-S", socket, "kill-server"])
        directory.remove()
    }

    deinit { stop() }
}
