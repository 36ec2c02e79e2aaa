import Scheduling

extension DaemonEvent {
    /// The event as `onair daemon` prints it without `--json`: `episode-done episode 12 (fip): note → file`.
    public var line: String {
        var line = event.rawValue
        if let episode { line += " episode \(episode)" }
        if let station { line += " (\(station))" }
        if let message { line += ": \(message)" }
        if let files, !files.isEmpty { line += " → " + files.joined(separator: ", ") }
        return line
    }
}
