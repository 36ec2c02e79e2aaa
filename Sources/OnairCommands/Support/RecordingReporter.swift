import Foundation
import RadioModel
import Recording
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

/// What `onair record` shows: for people, one line per event prefixed with the station, under a status
/// line that is redrawn every second on a terminal (elapsed, size, title, gaps); for programs, JSON
/// lines, each naming its station, with a progress event every few seconds.
final class RecordingReporter: @unchecked Sendable {  // `state` (with a DispatchSourceTimer, not Sendable on Linux) inside its lock
    private let json: Bool
    private let statusLine: Bool
    /// The recorders, their statuses, the timer and the status line.
    private struct State {
        var recorders: [(station: String, recorder: RecordingConsumer)] = []
        /// The recorders' statuses at the last tick: drawing never asks a recorder, which may be the one
        /// reporting an event from inside its own lock.
        var statuses: [(station: String, status: RecordingStatus)] = []
        var timer: DispatchSourceTimer?
        var shownStatus = false
        var ticks = 0
    }
    private let state = Locked(State())
    private let started = Date()

    /// JSON progress every this many seconds.
    private static let progressInterval = 5

    init(json: Bool) {
        self.json = json
        statusLine = !json && isatty(STDERR_FILENO) == 1
    }

    func report(station: String, _ event: StreamEvent) {
        if json {
            Console.json(StationEvent(station: station, event: event))
            return
        }
        let text: String?
        switch event {
        case .connected(let info):
            let details = [info.contentType, info.bitrate.map { "\($0) kbit/s" }].compactMap { $0 }.joined(separator: ", ")
            text = "connected to \(info.name ?? info.url)\(details.isEmpty ? "" : " (\(details))")"
        case .metadata(let change): text = "♪ \(change.title.isEmpty ? "(no title)" : change.title)"
        case .gap(let gap): text = String(format: "gap of %.1f s: the audio that did not arrive is marked in the recording", gap.seconds)
        case .reconnecting(let attempt, let delay): text = String(format: "reconnecting in %.1f s (attempt %d)", delay, attempt)
        case .disconnected(let reason): text = "disconnected: \(reason)"
        case .warning(let message): text = "warning: \(message)"
        case .failed(let message): text = "error: \(message)"
        case .alert(let alert): text = alert.alertLine
        case .recovered(let alert): text = alert.recoveryLine
        case .clipMatched(let sighting): text = sighting.line
        // A failed recorder reports itself, with where its audio is.
        case .decoding, .programDateTime, .consumerFailed, .clipBegan: text = nil
        }
        if let text { line("\(station): \(text)") }
    }

    func report(station: String, _ event: RecordingEvent) {
        if json {
            Console.json(StationEvent(station: station, event: event))
            return
        }
        switch event {
        case .started(let partial): line("\(station): recording into \(partial.deletingLastPathComponent().path)")
        case .finished(let recording):
            let titles = recording.titles.count == 1 ? "1 title" : "\(recording.titles.count) titles"
            let gaps = recording.gaps.isEmpty ? "" : ", \(recording.gaps.count) gap\(recording.gaps.count == 1 ? "" : "s")"
            line("\(station): saved \(recording.file) (\(ClockText.of(recording.duration)), "
                 + "\(Self.size(recording.size)), \(titles)\(gaps))")
        case .failed(let message, let partial):
            line("\(station): recording stopped: \(message)" + (partial.map { "; what was recorded is kept in \($0.path)" } ?? ""))
        case .noRoom(let message): line("\(station): \(RecordingEvent.noRoomLine(message))")
        case .roomAgain(let leftOut): line("\(station): \(RecordingEvent.roomAgainLine(leftOut: leftOut))")
        case .notFinalised(let message, _):
            line("\(station): not finalised: \(message); run 'onair recover' to try again")
        }
    }

    /// Starts showing the recorders' progress.
    func follow(_ recorders: [(station: String, recorder: RecordingConsumer)]) {
        guard statusLine || json else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "onair.record.status"))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in self?.tick() }
        state.withLock { state in
            state.recorders = recorders
            state.timer = timer
        }
        timer.resume()
    }

    /// Stops the status line and clears it.
    func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            clearStatus(&state)
        }
    }

    private func tick() {
        let current = state.withLock { $0.recorders }.map { (station: $0.station, status: $0.recorder.status) }
        state.withLock { state in
            state.statuses = current
            state.ticks += 1
            if statusLine {
                drawStatus(&state)
            } else if state.ticks % Self.progressInterval == 0 {
                for (station, status) in state.statuses { Console.json(StationEvent(station: station, event: RecordingProgress(status))) }
            }
        }
    }

    /// A line above the status line, made printable: it quotes stations, titles and servers' words.
    private func line(_ text: String) {
        let text = TextTable.printable(text)
        state.withLock { state in
            clearStatus(&state)
            FileHandle.standardError.write(Data((text + "\n").utf8))
            if state.timer != nil { drawStatus(&state) }
        }
    }

    /// Inside `state`'s lock, as `drawStatus`.
    private func clearStatus(_ state: inout State) {
        guard state.shownStatus else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        state.shownStatus = false
    }

    /// "● 0:12:03  fip 11.2 MB ♪ Title · 1 gap │ radio2 …", cut to the terminal's width.
    private func drawStatus(_ state: inout State) {
        let statuses = state.statuses
        guard statusLine, !statuses.isEmpty else { return }
        let parts = statuses.map { station, status -> String in
            var part = "\(station) \(Self.size(status.bytes))"
            if statuses.count == 1 { part += " " + ClockText.of(status.mediaTime) }
            if let title = status.title, !title.isEmpty { part += " ♪ \(title)" }
            if status.gaps > 0 { part += " · \(status.gaps) gap\(status.gaps == 1 ? "" : "s")" }
            if status.state == .failed { part += " · stopped" }
            return part
        }
        let text = "● \(ClockText.of(Date().timeIntervalSince(started)))  " + parts.joined(separator: " │ ")
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + TextTable.fitted(TextTable.printable(text), width: Self.columns - 1)).utf8))
        state.shownStatus = true
    }

    private static var columns: Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 else { return 80 }
        return Int(size.ws_col)
    }

    /// "11.2 MB"
    static func size(_ bytes: Int64) -> String {
        bytes < 1_000_000 ? String(format: "%.0f kB", Double(bytes) / 1000) : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// Any event with `"station"` added: several stations share one output.
private struct StationEvent<Event: Encodable>: Encodable {
    let station: String
    let event: Event

    private enum Keys: String, CodingKey { case station }

    func encode(to encoder: Encoder) throws {
        try event.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(station, forKey: .station)
    }
}
