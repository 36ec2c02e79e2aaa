import Dispatch
import Foundation
import Media
import RadioModel
import StreamInput

/// Judges one station's meter twice a second and raises `dead-air`, `down` and `recovered` into the
/// station's one event route (`publish`: the pipeline's), so every consumer — a command's `--json`
/// output, a job, the daemon's log and alert sender — hears them like any other event.
///
/// The decode thread only measures (`StationMeter`); the judging runs here, on a timer, because a
/// station that sends nothing wakes no decode thread.
public final class SignalWatch: @unchecked Sendable {  // `timer` is Dispatch's, safe from any thread; `state` inside its lock
    private let meter: StationMeter
    private let rules: AlertRules
    private let publish: @Sendable (StreamEvent) -> Void
    private let timer: DispatchSourceTimer
    private let state = Locked(State())
    /// One queue for every station's watch: each check is a few atomic loads.
    private static let queue = DispatchQueue(label: "onair.signal-watch")

    private struct State {
        var startedAt: DispatchTime?
        var deadAirSince: Date?
        var downSince: Date?
    }

    public init(meter: StationMeter, rules: AlertRules, publish: @escaping @Sendable (StreamEvent) -> Void) {
        self.meter = meter
        self.rules = rules
        self.publish = publish
        timer = DispatchSource.makeTimerSource(queue: Self.queue)
    }

    /// Starts watching; `ended` tells when the station is gone for good, which ends the watch.
    public func start(until ended: @escaping @Sendable () -> Bool) {
        let first = state.withLock { state -> Bool in
            defer { state.startedAt = state.startedAt ?? .now() }
            return state.startedAt == nil
        }
        guard first, rules.enabled else { return }
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            if ended() { return self.timer.cancel() }
            self.check()
        }
        timer.resume()
    }

    public func stop() { timer.cancel() }

    deinit {
        // A source never resumed must be resumed once before it may be released.
        if state.current.startedAt == nil || !rules.enabled { timer.resume() }
        timer.cancel()
    }

    /// One judgement: what the meter says now against the rules.
    func check(now: DispatchTime = .now(), wallClock: Date = Date()) {
        var events: [StreamEvent] = []
        state.withLock { state in
            // No audio: counted from the last packet, or from the start before the first.
            let absence = meter.secondsSinceLastPacket(now: now)
                ?? Double(now.uptimeNanoseconds - (state.startedAt ?? now).uptimeNanoseconds) / 1e9
            if let since = state.downSince {
                if absence < rules.seconds {
                    state.downSince = nil
                    let length = wallClock.timeIntervalSince(since) - absence
                    events.append(.recovered(SignalAlert(kind: .down, since: since, seconds: max(0, length))))
                }
            } else if absence >= rules.seconds {
                let since = wallClock.addingTimeInterval(-absence)
                state.downSince = since
                events.append(.alert(SignalAlert(kind: .down, since: since, seconds: absence)))
            }
            guard let level = meter.quietLevel else { return }
            if let since = state.deadAirSince {
                let sound = meter.soundSeconds
                if sound >= rules.recoverAfter {
                    state.deadAirSince = nil
                    let length = wallClock.timeIntervalSince(since) - sound
                    events.append(.recovered(SignalAlert(kind: .deadAir, since: since, seconds: max(0, length), level: level)))
                }
            } else {
                let quiet = meter.quietSeconds
                if quiet >= rules.seconds {
                    let since = wallClock.addingTimeInterval(-quiet)
                    state.deadAirSince = since
                    events.append(.alert(SignalAlert(kind: .deadAir, since: since, seconds: quiet, level: level)))
                }
            }
        }
        events.forEach(publish)
    }
}
