import Foundation
import Media
import Playback
import RadioModel
import Recording
import StreamInput

/// `r` in the live view: starts a stream-copy recording of the station playing — beginning with the
/// last 30 s already heard — and stops it again. The file is finalised and indexed as `onair record`
/// does it. Attached to the station, it passes the stream's events to the recording under way.
public final class LiveRecordingSwitch: EventConsumer, @unchecked Sendable {  // `recorder` and `finaliser` only inside `state`
    /// The last seconds heard, which a recording starts with: attach it to the station too.
    public let recent: RecentPackets
    private let target: StreamTarget
    private let nowPlaying: NowPlaying
    private let paths: AppPaths
    private struct State {
        var recorder: CopyRecorder?
        var finaliser: Finaliser?
    }
    private let state = Locked(State())

    public init(target: StreamTarget, nowPlaying: NowPlaying, paths: AppPaths) {
        self.target = target
        self.nowPlaying = nowPlaying
        self.paths = paths
        recent = RecentPackets { error in
            nowPlaying.setRecording(nil)
            nowPlaying.setNotice("recording failed: \(error)")
        }
    }

    /// Starts recording (returning what the view shows) or stops it (nil).
    public func toggle() -> String? {
        if let running = recent.stopRecording() {
            running.finish()
            state.withLock { $0.recorder = nil }
            return nil
        }
        let shared = state.withLock { state -> Finaliser in
            if let finaliser = state.finaliser { return finaliser }
            let made = Finaliser(index: try? RecordingsIndex(directory: paths.data))
            state.finaliser = made
            return made
        }
        let plan = target.recordingPlan(programme: nil, template: .standard, base: paths.recordings, format: .copy)
        let nowPlaying = self.nowPlaying
        let recorder = CopyRecorder(plan: plan, finaliser: shared) { event in
            switch event {
            case .started: break
            case .finished(let recording): nowPlaying.setNotice("saved \(recording.file)")
            case .failed(let message, _), .notFinalised(let message, _): nowPlaying.setNotice("recording: \(message)")
            case .noRoom(let message): nowPlaying.setNotice("recording: \(RecordingEvent.noRoomLine(message))")
            case .roomAgain(let leftOut): nowPlaying.setNotice(RecordingEvent.roomAgainLine(leftOut: leftOut))
            }
        }
        state.withLock { $0.recorder = recorder }
        let held = Int(recent.heldSeconds.rounded())
        recent.startRecording(recorder)
        let clock = DateFormatter()
        clock.dateFormat = "HH:mm:ss"
        return "recording since \(clock.string(from: Date()))" + (held > 0 ? ", with the \(held) s before" : "")
    }

    public var label: String { "live recording" }

    /// The stream's events a recording notes (the server, gaps).
    public func handle(_ event: StreamEvent) {
        state.withLock { $0.recorder }?.handle(event)
    }

    /// The recording, if one runs, ends with the station (`recent` finishes it).
    public func finish() {}

    /// Waits for a stopped recording's file to be finalised and indexed.
    public func waitUntilSaved() {
        state.withLock { $0.finaliser }?.waitUntilIdle()
    }
}
