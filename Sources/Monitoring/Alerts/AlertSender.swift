import Foundation
import RadioModel
import StreamInput

/// Sends each station's `dead-air`, `down`, `recovered` and `clip-matched` events on: POSTed as JSON to a webhook
/// (through the transfer engine every stream uses, never blocking the caller) and handed to a
/// command (`/bin/sh -c`, the alert in its environment and as JSON on its stdin). A webhook or
/// command that fails costs one line through `report`, nothing else: the stations go on.
public final class AlertSender: Sendable {
    private let webhook: String?
    private let command: String?
    private let report: @Sendable (_ station: String, _ message: String) -> Void
    /// Commands are started one after another, off the stations' threads.
    private let commands = DispatchQueue(label: "onair.alert-exec")
    /// Clip notices sent per station in the current minute: a station (or a server sending faster than real time) airing
    /// clips back to back must not flood the webhook and the command.
    private let clipNotices = Locked<[String: (minute: Int, count: Int)]>([:])
    static let clipNoticesPerMinute = 30

    public init(webhook: String?, command: String?, report: @escaping @Sendable (_ station: String, _ message: String) -> Void) {
        self.webhook = webhook
        self.command = command
        self.report = report
    }

    /// What an alert looks like to a webhook or a command:
    /// `{"event":"dead-air","station":"fip","since":…,"seconds":30,"level":-50,"at":…}`; a known clip that aired,
    /// `{"event":"clip-matched","station":"fip","since":START,"seconds":15,"clip":"Summer sale","kind":"ad","offset":0,
    /// "score":0.93,"partial":false,"at":…}`.
    public struct Notice: Codable, Sendable, Equatable {
        public var event: String
        public var station: String
        /// For `recovered`: which alert is over.
        public var alert: String?
        public var since: Date
        public var seconds: Double
        public var level: Double?
        /// For `clip-matched`: the clip, its kind, where in it the aired part began, how sure, and whether only part aired.
        public var clip: String?
        public var kind: String?
        public var offset: Double?
        public var score: Double?
        public var partial: Bool?
        public var at: Date
    }

    /// The notice for an alert, a recovery or a clip heard; nil for every other event.
    public static func notice(station: String, _ event: StreamEvent, at date: Date = Date()) -> Notice? {
        switch event {
        case .alert(let alert):
            return Notice(event: alert.kind.rawValue, station: station, since: alert.since, seconds: alert.seconds, level: alert.level, at: date)
        case .recovered(let alert):
            return Notice(event: "recovered", station: station, alert: alert.kind.rawValue, since: alert.since, seconds: alert.seconds, at: date)
        case .clipMatched(let sighting):
            return Notice(event: "clip-matched", station: station, since: sighting.start, seconds: sighting.end.timeIntervalSince(sighting.start),
                          clip: sighting.clip, kind: sighting.kind, offset: sighting.offset, score: sighting.score, partial: sighting.partial,
                          at: date)
        default: return nil
        }
    }

    /// Sends the event on if it is an alert, a recovery or a clip heard. Returns at once.
    public func send(station: String, _ event: StreamEvent) {
        guard let notice = Self.notice(station: station, event) else { return }
        if notice.event == "clip-matched", !admitsClipNotice(station) { return }
        let json = OnairJSON.data(notice)
        if let webhook { post(json, to: webhook, station: station) }
        if let command { run(command, notice: notice, json: json) }
    }

    /// Whether another clip notice of the station may go this minute; the first one refused says so, once a minute.
    private func admitsClipNotice(_ station: String, now: Date = Date()) -> Bool {
        let minute = Int(now.timeIntervalSince1970 / 60)
        let count = clipNotices.withLock { notices -> Int in
            let count = notices[station].map { $0.minute == minute ? $0.count + 1 : 1 } ?? 1
            notices[station] = (minute, count)
            return count
        }
        if count == Self.clipNoticesPerMinute + 1 {
            report(station, "more than \(Self.clipNoticesPerMinute) clips aired in a minute: the rest of this minute's are not sent on")
        }
        return count <= Self.clipNoticesPerMinute
    }

    private func post(_ json: Data, to url: String, station: String) {
        let request = TransferRequest(url: url, headers: [("Content-Type", "application/json")], connectTimeout: 5, stallTimeout: 10,
                                      body: json)
        TransferEngine.shared.load(request, maxBytes: 64 * 1024) { [report] outcome in
            if case .failure(let error) = outcome { report(station, "alert webhook \(URLRedaction.redact(url)): \(error.message)") }
        }
    }

    private func run(_ command: String, notice: Notice, json: Data) {
        commands.async { [report] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            var environment = ProcessInfo.processInfo.environment
            environment["ONAIR_ALERT"] = notice.event
            environment["ONAIR_ALERT_STATION"] = notice.station
            environment["ONAIR_ALERT_SINCE"] = Timestamp.format(notice.since)
            environment["ONAIR_ALERT_SECONDS"] = String(format: "%.1f", notice.seconds)
            environment["ONAIR_ALERT_OF"] = notice.alert
            environment["ONAIR_ALERT_CLIP"] = notice.clip
            environment["ONAIR_ALERT_CLIP_KIND"] = notice.kind
            environment["ONAIR_ALERT_JSON"] = String(decoding: json, as: UTF8.self)
            process.environment = environment
            // Written before the command starts (the pipe holds it), so a command that never reads its
            // stdin cannot make the write fail or block.
            let input = Pipe()
            try? input.fileHandleForWriting.write(contentsOf: json + Data("\n".utf8))
            try? input.fileHandleForWriting.close()
            process.standardInput = input
            process.terminationHandler = { finished in
                guard finished.terminationStatus != 0 else { return }
                report(notice.station, "alert command exited with status \(finished.terminationStatus)")
            }
            do {
                try process.run()
            } catch {
                report(notice.station, "alert command could not start: \(error.localizedDescription)")
            }
        }
    }
}
