import Foundation
import Outputs
import StreamInput

/// Shows a stream's events: plain lines on stderr for people, or JSON lines for programs.
final class EventReporter: Sendable {
    private let json: Bool
    private let jsonToStandardError: Bool

    /// JSON goes to stderr when stdout carries the audio itself.
    init(json: Bool, audioOnStandardOutput: Bool) {
        self.json = json
        jsonToStandardError = audioOnStandardOutput
    }

    func report(_ event: StreamEvent) {
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
            Console.message(String(format: "Gap of %.1f s in the audio at %@", gap.seconds, Self.clock(gap.mediaTime ?? 0)) + segments)
        case .programDateTime:
            break // the stream's clock, for recorders and --json
        case .warning(let message):
            Console.message("warning: \(message)")
        case .consumerFailed(let label, let reason):
            Console.message("error: \(label) failed: \(reason)")
        case .failed:
            break // the command ends with this as its last line
        }
    }

    /// A sink's peer reached, lost or waited for, and silence written while the station was away.
    func report(sink label: String, _ status: SinkStatus) {
        if json {
            Console.json(SinkStatusEvent(sink: label, status: status), toStandardError: jsonToStandardError)
            return
        }
        Console.message(Self.line(sink: label, status))
    }

    /// A sink's status as one line for people.
    static func line(sink label: String, _ status: SinkStatus) -> String {
        switch status {
        case .waiting(let reason): return "\(label): waiting: \(reason)"
        case .connected(let peer): return "\(label): playing to \(peer)"
        case .disconnected(let reason): return "\(label): lost: \(reason)"
        case .silenceFilled(let seconds): return String(format: "%@: audio resumed after %.1f s of silence", label, seconds)
        }
    }

    /// 1:02:03 or 2:03.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return whole >= 3600
            ? String(format: "%d:%02d:%02d", whole / 3600, whole % 3600 / 60, whole % 60)
            : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}

/// `{"event":"sink","sink":"fifo:/tmp/snapfifo","state":"connected","peer":…}` for `--json`.
private struct SinkStatusEvent: Encodable {
    let sink: String
    let status: SinkStatus

    private enum Keys: String, CodingKey { case event, sink, state, peer, reason, seconds }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("sink", forKey: .event)
        try c.encode(sink, forKey: .sink)
        switch status {
        case .waiting(let reason):
            try c.encode("waiting", forKey: .state)
            try c.encode(reason, forKey: .reason)
        case .connected(let peer):
            try c.encode("connected", forKey: .state)
            try c.encode(peer, forKey: .peer)
        case .disconnected(let reason):
            try c.encode("disconnected", forKey: .state)
            try c.encode(reason, forKey: .reason)
        case .silenceFilled(let seconds):
            try c.encode("silence-filled", forKey: .state)
            try c.encode(seconds, forKey: .seconds)
        }
    }
}
