import Foundation
import Media
import RadioModel

/// Recordings played from disk through the player stage, at the speed asked (atempo keeps the pitch),
/// paced to the clock like a live station, with seek, chapters, pause and the queue. Decoding runs on
/// a thread of its own; keys reach it as requests taken between packets. Positions are saved as it
/// plays, so the next run resumes there.
public final class OnDemandPlayer: @unchecked Sendable {  // queue, requests, status and speed in `state`; `clock` on the play thread only
    /// What happened, for the command to report.
    public enum Event: Sendable {
        case started(PlayableItem, at: Double, duration: Double?)
        case ended(PlayableItem, at: Double, heard: Bool)
        case failed(PlayableItem, String)
    }

    /// What the view shows.
    public struct Status: Sendable {
        public var item: PlayableItem?
        public var place = 0
        public var count = 0
        public var position = 0.0
        public var duration: Double?
        public var speed = 1.0
        public var chapter: String?
        public var codec: String?
    }

    public static let speedStep = 0.25
    /// How far ahead of the clock audio is handed on: enough to ride over a busy moment.
    private static let lead = 0.25
    /// How often the position is saved while playing.
    private static let saveInterval = 5.0

    private let format: PCMFormat
    private let controls: PlayerControls
    private let stage: PlayerStage
    private let positions: PositionMemory?
    private let onEvent: @Sendable (Event) -> Void
    private struct State {
        var queue: PlayQueue
        var requests: [PlayerAction] = []
        var stopping = false
        var storedStatus = Status()
        var firstStart: Double?
        var speed: Double
    }
    private let state: Locked<State>
    private let finished = FinishLine()
    /// Play thread only: one clock across the queue, so each item doesn't add its own lead.
    private var clock: PlayClock

    /// `start`: where the first item starts (nil: where it was left, if it was not finished).
    public init(queue: PlayQueue, format: PCMFormat, controls: PlayerControls, stage: PlayerStage, speed: Double,
                start: Double?, positions: PositionMemory?, onEvent: @escaping @Sendable (Event) -> Void) {
        state = Locked(State(queue: queue, firstStart: start, speed: speed))
        self.format = format
        self.controls = controls
        self.stage = stage
        clock = PlayClock(sampleRate: format.sampleRate)
        self.positions = positions
        self.onEvent = onEvent
    }

    public func start() {
        let thread = Thread { [self] in
            playQueue()
            stage.finish()
            finished.cross()
        }
        thread.name = "onair-play"
        thread.start()
    }

    public func perform(_ action: PlayerAction) { state.withLock { $0.requests.append(action) } }

    public func stop() { state.withLock { $0.stopping = true } }

    /// Blocks until the queue has ended or the player was stopped, and the sinks are finished.
    public func waitUntilFinished() {
        finished.wait()
    }

    public func waitUntilFinished(timeout: Double) -> Bool {
        finished.wait(timeout: timeout)
    }

    public var status: Status { state.withLock { $0.storedStatus } }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: Play thread

    private enum ItemEnd { case ended, skipped(Int), stopped }

    private func playQueue() {
        var failuresInARow = 0
        while !isStopping, let item = state.withLock({ $0.queue.current }) {
            let end: ItemEnd
            do {
                end = try play(item)
                failuresInARow = 0
            } catch {
                // One bad recording is reported and skipped; a queue of nothing but bad ones ends.
                onEvent(.failed(item, "\(error)"))
                failuresInARow += 1
                if failuresInARow >= state.withLock({ $0.queue.items.count }) { return }
                end = .ended
            }
            switch end {
            case .stopped: return
            case .skipped(let step): state.withLock { $0.queue.skip(by: step) }
            case .ended:
                if controls.sleepHasExpired() { return }  // "end of this episode"
                state.withLock { $0.queue.advanceAfterEnd() }
            }
        }
    }

    private func play(_ item: PlayableItem) throws -> ItemEnd {
        let file = try MediaFile(path: item.path, format: format)
        let chapters = item.chapters ?? file.chapters
        let start = state.withLock { (state) -> Double? in
            defer { state.firstStart = nil }
            return state.firstStart
        } ?? positions?.resumePoint(for: item.path, duration: file.duration) ?? 0
        if start > 0 { try file.seek(to: start) }
        stage.beginItem(loudness: file.loudness)
        state.withLock { state in
            state.storedStatus = Status(item: item, place: (state.queue.place ?? 0) + 1, count: state.queue.items.count,
                                        position: file.position, duration: file.duration, speed: state.speed, chapter: nil,
                                        codec: file.codecName + (file.bitrate.map { " \($0 / 1000) kbit/s" } ?? ""))
        }
        onEvent(.started(item, at: file.position, duration: file.duration))
        let startingSpeed = state.withLock { $0.speed }
        var tempo = startingSpeed == 1 ? nil : try Tempo(format: format, speed: startingSpeed)
        var lastSave = Date()
        let deliver: (UnsafeRawBufferPointer) throws -> Void = { [self] pcm in
            self.clock.handedOn += Int64(pcm.count / format.bytesPerFrame)
            try stage.consume(pcm)
        }
        while true {
            for action in state.withLock({ (state) -> [PlayerAction] in defer { state.requests = [] }; return state.requests }) {
                switch action {
                case .nextInQueue: return finish(item, file, heard: false, end: .skipped(1))
                case .previousInQueue: return finish(item, file, heard: false, end: .skipped(-1))
                case .seek(let seconds):
                    try file.seek(to: file.position + seconds)
                    tempo = try tempo.map { try Tempo(format: format, speed: $0.speed) }  // nothing from before the seek
                case .nextChapter, .previousChapter:
                    if let target = Self.chapterStart(chapters, from: file.position, forward: action == .nextChapter) {
                        try file.seek(to: target)
                        tempo = try tempo.map { try Tempo(format: format, speed: $0.speed) }
                    }
                case .faster, .slower:
                    let step = action == .faster ? Self.speedStep : -Self.speedStep
                    let wanted = state.withLock { state in
                        state.speed = min(Tempo.range.upperBound, max(Tempo.range.lowerBound, state.speed + step))
                        return state.speed
                    }
                    tempo = wanted == 1 ? nil : try Tempo(format: format, speed: wanted)
                default: continue
                }
                clock.restart()
            }
            if isStopping { return finish(item, file, heard: false, end: .stopped) }
            if controls.isPaused {
                Thread.sleep(forTimeInterval: 0.05)
                clock.restart()
                continue
            }
            clock.waitUntilDue(lead: Self.lead)
            let more = try file.read { pcm in
                if let tempo { try tempo.process(pcm, body: deliver) } else { try deliver(pcm) }
            }
            let speed = state.withLock { $0.speed }
            let left = file.duration.map { max(0, $0 - file.position) / speed }
            controls.noteEpisodeLeft(more ? left : 0)
            state.withLock { state in
                state.storedStatus.position = file.position
                state.storedStatus.speed = state.speed
                state.storedStatus.chapter = chapters.last { $0.start <= file.position + 0.01 }?.title
            }
            guard more else {
                try tempo?.drain(body: deliver)
                return finish(item, file, heard: true, end: .ended)
            }
            if Date().timeIntervalSince(lastSave) >= Self.saveInterval {
                positions?.save(item.path, seconds: file.position, heard: false)
                lastSave = Date()
            }
        }
    }

    private func finish(_ item: PlayableItem, _ file: MediaFile, heard: Bool, end: ItemEnd) -> ItemEnd {
        let position = heard ? 0 : file.position
        positions?.save(item.path, seconds: position, heard: heard)
        onEvent(.ended(item, at: heard ? (file.duration ?? file.position) : position, heard: heard))
        return end
    }

    /// The next chapter's start, or going back: this chapter's start, or the one before if this one
    /// began less than 3 s ago (as a CD player's previous-track button does).
    static func chapterStart(_ chapters: [Chapter], from position: Double, forward: Bool) -> Double? {
        if forward { return chapters.first { $0.start > position + 0.01 }?.start }
        let earlier = chapters.filter { $0.start < position - 3 }
        return earlier.last?.start ?? chapters.first?.start
    }
}

/// Holds the play thread to the wall clock: audio is handed on no further than `lead` ahead of it.
private struct PlayClock {
    let sampleRate: Int
    var origin = Date()
    var handedOn: Int64 = 0

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// After a pause or seek the clock starts again from now.
    mutating func restart() {
        origin = Date()
        handedOn = 0
    }

    func waitUntilDue(lead: Double) {
        let ahead = Double(handedOn) / Double(sampleRate) - Date().timeIntervalSince(origin)
        if ahead > lead { Thread.sleep(forTimeInterval: ahead - lead) }
    }
}

extension OnDemandPlayer {
    /// The view and keys on a terminal, until the queue ends or the listener quits.
    public func run(on terminal: TerminalSession) {
        KeyLoop.run(on: terminal, controls: controls, lines: lines, hasFinished: { waitUntilFinished(timeout: 0) },
                    handle: { action in
                        switch action {
                        case .quit:
                            stop()
                            return true
                        case .togglePause: controls.setPaused(!controls.isPaused)
                        case .volumeUp: controls.adjustVolume(by: PlayerControls.volumeStep)
                        case .volumeDown: controls.adjustVolume(by: -PlayerControls.volumeStep)
                        case .toggleMute: controls.toggleMute()
                        case .cycleSleepTimer: controls.cycleSleepTimer()
                        default: perform(action)
                        }
                        return false
                    },
                    sleepExpired: { stop() })
    }

    func lines() -> [String] {
        let now = status
        let title = now.item?.title ?? "(nothing)"
        let place = now.count > 1 ? " (\(now.place)/\(now.count))" : ""
        var timing = [(controls.isPaused ? "⏸ " : "▶ ") + ClockText.of(now.position)
                      + (now.duration.map { " / " + ClockText.of($0) } ?? "")]
        if now.speed != 1 { timing.append(String(format: "%g×", now.speed)) }
        if let chapter = now.chapter { timing.append("chapter: \(chapter)") }
        if let codec = now.codec { timing.append(codec) }
        var settings = [controls.isMuted ? "muted" : "volume \(Int((controls.volume * 100).rounded()))%"]
        if let sleep = controls.sleepTimer.label() { settings.append(sleep) }
        return [
            title + place,
            timing.joined(separator: " · "),
            settings.joined(separator: " · "),
            "space pause  ←/→ 15 s  [/] speed  ,/. chapter  </> queue  +/- volume  m mute  s sleep  q quit",
        ]
    }
}
