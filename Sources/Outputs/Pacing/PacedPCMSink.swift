import Foundation
import Media
import RadioModel

/// A PCM consumer that delivers to a peer at exactly the wall-clock rate of its format, from a thread
/// of its own, whatever the decoder does: the shared core of the fifo, tcp and audio-device sinks.
///
/// `consume` only copies into a bounded jitter buffer, so it never blocks the decode thread. The
/// writer thread takes from that buffer:
/// - for a peer that takes whatever it is given (a FIFO, a socket), by an absolute schedule on the
///   monotonic clock: at any instant the frames written are `elapsed × rate` since the peer was
///   reached, in 10 ms ticks, plus the peer's constant `lead` (written at once when it is reached),
///   never more, so there is no drift and no burst;
/// - for a peer that paces itself (an audio device), as fast as its blocking writes return.
/// When the buffer runs dry (the station stalls or reconnects) the peer gets silence, so it never
/// starves. While the peer cannot be reached the audio that falls due is discarded, so that a peer
/// that comes later gets what plays now, not a backlog. A peer that stops reading catches up on at
/// most half the buffer when it reads again, and is skipped ahead to the present beyond that.
public final class PacedPCMSink: PCMConsumer, @unchecked Sendable {  // `stopping`: Locked; the peer on the writer thread only
    /// How a paced sink buffers; the defaults suit Snapcast and local players.
    public struct Options: Sendable {
        /// The most audio held between the decoder and the peer, in seconds. The usual latency is half
        /// of it; a burst beyond it drops the oldest audio.
        public var bufferSeconds: Double = 0.4
        public init() {}
    }

    public let label: String
    private let format: PCMFormat
    private let buffer: PCMJitterBuffer
    private let peer: PCMPeer
    private let onStatus: SinkStatusHandler
    private let finishTimeout: Double
    private let bufferSeconds: Double
    private let exited = DispatchSemaphore(value: 0)
    private let stopping = Locked(false)

    /// Silence shorter than this after a dry buffer is jitter, not worth a message.
    private static let reportableSilence = 0.25
    /// The pacing tick: what a clock-paced write usually carries.
    private static let tickSeconds = 0.01
    /// The part of the buffer a self-pacing peer gets per write: what PulseAudio asks for at a time
    /// (AudioDevicePeer's `minreq`), so that one request is one write and one wake-up.
    private static let deviceChunkShare = 0.25
    /// How far a self-pacing peer may run ahead of the clock: more than any real device buffers.
    private static let deviceLeadSeconds = 3.0

    init(label: String, format: PCMFormat, options: Options, peer: PCMPeer, onStatus: @escaping SinkStatusHandler) {
        self.label = label
        self.format = format
        self.peer = peer
        self.onStatus = onStatus
        // The peer's lead is taken from the buffer at once when the peer is reached: it is added to the
        // buffer's target level (half its capacity), so what stays behind is the usual target.
        buffer = PCMJitterBuffer(format: format, capacity: options.bufferSeconds + 2 * peer.lead)
        finishTimeout = options.bufferSeconds + peer.lead + 1
        bufferSeconds = options.bufferSeconds
        let thread = Thread { [self] in
            writeLoop()
            exited.signal()
        }
        thread.name = "onair-sink"
        thread.start()
    }

    public func consume(_ pcm: UnsafeRawBufferPointer) throws {
        buffer.push(pcm)
    }

    /// Seconds of audio waiting for the peer: the buffer's health, for a player's view.
    public var bufferedSeconds: Double { Double(buffer.bufferedFrames) / Double(format.sampleRate) }

    /// Plays out what is buffered (bounded by the buffer's length) and closes the peer.
    public func finish() {
        buffer.end()
        if exited.wait(timeout: .now() + finishTimeout) == .timedOut {
            stopping.withLock { $0 = true }
        } else {
            exited.signal()
        }
    }

    private var isStopping: Bool { stopping.current }

    // MARK: Writer thread

    private func writeLoop() {
        BrokenPipeSignal.blockOnThisThread()
        var link = PeerLink(peer: peer, label: label, onStatus: onStatus)
        var schedule = Schedule(sampleRate: format.sampleRate, origin: MonotonicClock.now())
        var silence = SilenceTracker(sampleRate: format.sampleRate, reportAbove: Self.reportableSilence)
        let chunkFrames = max(1, Int((Double(format.sampleRate) * Self.tickSeconds).rounded()))
        let deviceChunkFrames = max(1, Int((Double(format.sampleRate) * bufferSeconds * Self.deviceChunkShare).rounded()))
        let peerLeadFrames = Int64((peer.lead * Double(format.sampleRate)).rounded())
        // The lead goes in one write, so a reader finds it whole with its first read.
        let writeFrames = max(chunkFrames, deviceChunkFrames, Int(peerLeadFrames))
        var chunk = [UInt8](repeating: 0, count: writeFrames * format.bytesPerFrame)
        var pending = 0..<0  // the part of `chunk` the peer has not taken yet

        defer { link.close() }
        while !isStopping {
            let now = MonotonicClock.now()
            if !link.isOpen, link.tryOpen(at: now) {
                schedule.restart(at: now, lead: peerLeadFrames)
                pending = 0..<0
                silence.reset()
            }
            if buffer.isEnded && (!link.isOpen || (buffer.isDrained && pending.isEmpty)) { return }

            if link.isOpen && peer.pacesItself {
                // A device blocks until it wants more. One that takes audio faster than it plays (ALSA's
                // null device, a file plugin) is held to the clock, at most `deviceLead` ahead of it.
                let leadFrames = Int64(Self.deviceLeadSeconds * Double(format.sampleRate))
                if schedule.paced - schedule.framesDue(at: now) > leadFrames {
                    MonotonicClock.sleep(until: schedule.instant(whenDue: schedule.paced - leadFrames))
                    continue
                }
                // Before the first audio a device is not fed silence: its buffer is a quarter of a second
                // or more now, and silence there would only delay the first sound by as much.
                if !silence.audioHasFlowed && buffer.bufferedFrames == 0 && !buffer.isEnded {
                    MonotonicClock.sleep(until: now + Int64(Self.tickSeconds * 1e9))
                    continue
                }
                let bytes = pull(deviceChunkFrames, into: &chunk, silence: &silence)
                schedule.paced += Int64(deviceChunkFrames)
                if !link.write(chunk, 0..<bytes).delivered { schedule.restart(at: MonotonicClock.now()) }
                continue
            }

            let due = schedule.framesDue(at: now)
            if !link.isOpen {
                buffer.discard(frames: Int(due - schedule.paced))
                schedule.paced = due
            } else {
                // A peer that could not take its audio for a moment catches up (the schedule is absolute);
                // one that fell further behind than the buffer's target level skips to the present: a
                // burst of what it missed would only arrive as stale audio.
                if due - schedule.paced > Int64(buffer.targetFrames) { schedule.paced = due }
                while link.isOpen {
                    if pending.isEmpty {
                        guard schedule.paced < due else { break }
                        let frames = Int(min(Int64(max(chunkFrames, Int(peerLeadFrames))), due - schedule.paced))
                        pending = 0..<pull(frames, into: &chunk, silence: &silence)
                        schedule.paced += Int64(frames)
                    }
                    let outcome = link.write(chunk, pending)
                    pending = (pending.lowerBound + outcome.written)..<pending.upperBound
                    if !outcome.delivered {
                        schedule.restart(at: now)
                        pending = 0..<0
                    }
                    if !pending.isEmpty { break }  // the peer is full: the rest goes next tick
                }
            }
            MonotonicClock.sleep(until: schedule.nextTick(after: now, tickSeconds: Self.tickSeconds))
        }
    }

    /// Fills the start of `chunk` with `frames` from the buffer (silence where it lacks audio), reporting
    /// a gap that just ended; returns the bytes filled.
    private func pull(_ frames: Int, into chunk: inout [UInt8], silence: inout SilenceTracker) -> Int {
        let bytes = frames * format.bytesPerFrame
        let pulled = chunk.withUnsafeMutableBytes { buffer.pull(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<bytes])) }
        if let seconds = silence.record(pulled, frames: frames) {
            onStatus(label, .silenceFilled(seconds: seconds))
        }
        return bytes
    }
}

/// The frames that fall due from an origin on the monotonic clock, and how many have been paced out.
private struct Schedule {
    let sampleRate: Int
    var origin: Int64
    /// Frames written or discarded since the origin.
    var paced: Int64 = 0

    init(sampleRate: Int, origin: Int64) {
        self.sampleRate = sampleRate
        self.origin = origin
    }

    /// Starts counting at `now`, with `lead` frames due at once.
    mutating func restart(at now: Int64, lead: Int64 = 0) {
        origin = now - MonotonicClock.nanoseconds(for: lead, sampleRate: sampleRate)
        paced = 0
    }

    func framesDue(at now: Int64) -> Int64 {
        MonotonicClock.frames(in: now - origin, sampleRate: sampleRate)
    }

    /// The instant at which `frames` are due.
    func instant(whenDue frames: Int64) -> Int64 {
        origin + MonotonicClock.nanoseconds(for: frames, sampleRate: sampleRate)
    }

    /// The next tick boundary after `now`, counted from the origin so ticks never drift.
    func nextTick(after now: Int64, tickSeconds: Double) -> Int64 {
        let tick = Int64(tickSeconds * 1e9)
        return origin + ((now - origin) / tick + 1) * tick
    }
}

/// The peer's connection state on the writer thread: opening with retry delays, one status message
/// per change.
private struct PeerLink {
    let peer: PCMPeer
    let label: String
    let onStatus: SinkStatusHandler
    private(set) var isOpen = false
    private var failures = 0
    private var nextAttempt: Int64 = 0
    private var reportedWaiting = false

    init(peer: PCMPeer, label: String, onStatus: @escaping SinkStatusHandler) {
        self.peer = peer
        self.label = label
        self.onStatus = onStatus
    }

    /// Tries to open the peer if its retry delay has passed; true when it just opened.
    mutating func tryOpen(at now: Int64) -> Bool {
        guard now >= nextAttempt else { return false }
        do {
            let description = try peer.open()
            isOpen = true
            failures = 0
            reportedWaiting = false
            onStatus(label, .connected(peer: description))
            return true
        } catch {
            failures += 1
            nextAttempt = MonotonicClock.now() + Int64(peer.retryDelay(afterFailures: failures) * 1e9)
            if !reportedWaiting {
                reportedWaiting = true
                onStatus(label, .waiting(reason: "\(error)"))
            }
            return false
        }
    }

    /// Writes part of `chunk`; on failure closes the peer and reports it.
    mutating func write(_ chunk: [UInt8], _ range: Range<Int>) -> (written: Int, delivered: Bool) {
        do {
            let written = try chunk.withUnsafeBytes { try peer.write(UnsafeRawBufferPointer(rebasing: $0[range])) }
            return (written, true)
        } catch {
            close()
            failures = 1
            nextAttempt = MonotonicClock.now() + Int64(peer.retryDelay(afterFailures: failures) * 1e9)
            reportedWaiting = true  // "disconnected" already says the peer is away
            onStatus(label, .disconnected(reason: "\(error)"))
            return (0, false)
        }
    }

    mutating func close() {
        guard isOpen else { return }
        peer.close()
        isOpen = false
    }
}

/// Counts the silence written in place of missing audio, and reports it when audio resumes.
private struct SilenceTracker {
    let sampleRate: Int
    let reportAbove: Double
    private var silentFrames = 0
    private(set) var audioHasFlowed = false

    init(sampleRate: Int, reportAbove: Double) {
        self.sampleRate = sampleRate
        self.reportAbove = reportAbove
    }

    mutating func reset() {
        silentFrames = 0
        audioHasFlowed = false
    }

    /// Takes one pull of `frames`; returns the seconds of silence to report when audio just resumed
    /// after a gap worth reporting. Startup silence, before any audio, is not a gap.
    mutating func record(_ pull: PCMJitterBuffer.Pull, frames: Int) -> Double? {
        var report: Double?
        if pull.audioFrames > 0 {
            let seconds = Double(silentFrames) / Double(sampleRate)
            if audioHasFlowed && seconds >= reportAbove { report = seconds }
            audioHasFlowed = true
            silentFrames = 0
        }
        silentFrames += frames - pull.audioFrames
        return report
    }
}
