import Foundation

/// A private D-Bus session bus (`dbus-daemon --session`) for one test class, and `playerctl` run on it:
/// what a desktop's media keys and widgets do to an MPRIS player.
public final class SessionBusHarness: @unchecked Sendable {  // immutable after init
    public let address: String
    private let daemon: RunningProcess

    public init(timeout: TimeInterval = 10) throws {
        daemon = try ProcessRunner.start("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1"])
        var printed = ""
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !printed.contains("\n") {
            guard daemon.isRunning, Date() < deadline else {
                daemon.stop(grace: 0)
                throw ProcessRunnerError.failed(daemon.result())
            }
            Thread.sleep(forTimeInterval: 0.05)
            printed = String(decoding: daemon.stdout, as: UTF8.self)
        }
        address = printed.split(separator: "\n")[0].trimmingCharacters(in: .whitespaces)
    }

    /// What a process needs in its environment to find this bus.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// `playerctl --player=onair ARGUMENTS…`; its output without the trailing newline, nil when it failed
    /// (no player, or the player refused).
    @discardableResult
    public func playerctl(_ arguments: [String]) -> String? {
        guard let result = try? ProcessRunner.run("playerctl", ["--player=onair"] + arguments, timeout: 10, environment: environment),
              result.succeeded else { return nil }
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    public func stop() { daemon.stop(grace: 0) }
}
