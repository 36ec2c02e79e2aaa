import Foundation
import Media
import Outputs
import RadioModel
import StreamInput

/// Shows a stream's events: plain lines on stderr for people, or JSON lines for programs.
final class EventReporter: EventConsumer, Sendable {
    private let json: Bool
    private let jsonToStandardError: Bool

    /// JSON goes to stderr when stdout carries the audio itself.
    init(json: Bool, audioOnStandardOutput: Bool) {
        self.json = json
        jsonToStandardError = audioOnStandardOutput
    }

    var label: String { "report" }

    func finish() {}

    func handle(_ event: StreamEvent) {
        if json {
            Console.json(event, toStandardError: jsonToStandardError)
            return
        }
        switch event {
        case .connected(let info):
            let details = [info.contentType, info.bitrate.map { "\($0) kbit/s" }].compactMap { $0 }.joined(separator: ", ")
            Console.message("Connected to \(info.name ?? info.url)\(details.isEmpty ? "" : " (\(details))")")
        case .decoding(let codec, let rate, let channels, let bitrate):
            let kbps = bitrate.map { ", \($0 / 1000) kbit/s" } ?? ""
            Console.message("Decoding \(codec), \(rate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")\(kbps)")
        case .metadata(let change):
            Console.message("♪ \(change.title.isEmpty ? "(no title)" : change.title)")
        case .disconnected(let reason):
            Console.message("Disconnected: \(reason)")
        case .reconnecting(let attempt, let delay):
            Console.message(String(format: "Reconnecting in %.1f s (attempt %d)", delay, attempt))
        case .gap(let gap):
            let segments = gap.missingSequences.map { range in
                range.count == 1 ? " (segment \(range.lowerBound) lost)" : " (segments \(range.lowerBound)–\(range.upperBound) lost)"
            } ?? ""
            Console.message(String(format: "Gap of %.1f s in the audio at %@", gap.seconds, ClockText.of(gap.mediaTime ?? 0)) + segments)
        case .programDateTime:
            break // the stream's clock, for recorders and --json
        case .warning(let message):
            Console.message("warning: \(message)")
        case .consumerFailed(let label, let reason):
            Console.message("error: \(label) failed: \(reason)")
        case .failed:
            break // the command ends with this as its last line
        case .alert(let alert):
            Console.message(alert.alertLine)
        case .recovered(let alert):
            Console.message(alert.recoveryLine)
        case .clipMatched(let sighting):
            Console.message(sighting.line)
        case .clipBegan:
            break // told whole once it ends
        }
    }

    /// A sink's peer reached, lost or waited for, and silence written while the station was away.
    func report(sink label: String, _ status: SinkStatus) {
        if json {
            Console.json(SinkStatusReport(sink: label, status: status), toStandardError: jsonToStandardError)
            return
        }
        Console.message(SinkStatusReport(sink: label, status: status).line)
    }
}
