/// Which frames of a copied MP3 stream are decoded to measure its level, when nothing else needs them
/// decoded (no consumer takes PCM, and the side information has already vouched for each frame).
///
/// Decoding was nearly all that copying a station cost, and the dead-air alert needs a level over
/// seconds, not every frame's. So one window of about 0.1 s is measured in each second of audio, and
/// its verdict stands for the whole second since the last one: quiet when every frame in it was quiet,
/// sound when every frame was, mixed otherwise (a click in the silence breaks a quiet run but is no
/// recovery, as with every frame measured). A silence is seen at most a second late.
///
/// Frames left undecoded leave the decoder's bit reservoir and its overlap behind, so each window
/// starts with a flushed decoder and frames decoded only to fill them again: at least two, and enough
/// main data to hold the 511 bytes a Layer III frame may reach back for (255 in MPEG-2 and 2.5).
struct LevelSampling {
    enum Step: Equatable {
        /// Not decoded.
        case skip
        /// Decoded to prime the decoder, its level not taken; `flushFirst` for the window's first.
        case prime(flushFirst: Bool)
        /// Decoded and measured; `last` ends the window.
        case measure(last: Bool)
    }

    static let period = 1.0
    static let window = 0.1
    private static let reservoirBytes = 512
    private static let fewestPrimingFrames = 2

    private enum Phase {
        case priming(frames: Int, bytes: Int)
        case measuring(seconds: Double)
        case waiting
    }

    private var phase = Phase.priming(frames: 0, bytes: 0)
    /// Audio since this period's window began.
    private var intoPeriod = 0.0
    /// Audio since the last verdict: what the next one stands for.
    private var sinceVerdict = 0.0
    private var quietFrames = 0
    private var soundFrames = 0

    /// Starts over with a window, as after frames the decoder did not follow.
    mutating func restart() { self = LevelSampling() }

    /// What to do with the next frame, `seconds` long, holding `mainDataBytes` of main data (what
    /// follows its header and side information).
    mutating func step(seconds: Double, mainDataBytes: Int) -> Step {
        if case .waiting = phase, intoPeriod >= Self.period {
            phase = .priming(frames: 0, bytes: 0)
            intoPeriod = 0
        }
        intoPeriod += seconds
        sinceVerdict += seconds
        switch phase {
        case .priming(let frames, let primed):
            let (frames, primed) = (frames + 1, primed + mainDataBytes)
            phase = frames >= Self.fewestPrimingFrames && primed >= Self.reservoirBytes
                ? .measuring(seconds: 0) : .priming(frames: frames, bytes: primed)
            return .prime(flushFirst: frames == 1)
        case .measuring(let measured):
            let last = measured + seconds >= Self.window
            phase = last ? .waiting : .measuring(seconds: measured + seconds)
            return .measure(last: last)
        case .waiting:
            return .skip
        }
    }

    /// A measured frame's verdict.
    mutating func note(quiet: Bool) {
        if quiet { quietFrames += 1 } else { soundFrames += 1 }
    }

    /// At a window's end: the level of the audio since the last verdict, and how long that was.
    mutating func verdict() -> (level: StationMeter.Level, microseconds: Int64) {
        let level: StationMeter.Level = switch (quietFrames, soundFrames) {
        case (1..., 0): .quiet
        case (0, 1...): .sound
        default: .mixed
        }
        defer { (quietFrames, soundFrames, sinceVerdict) = (0, 0, 0) }
        return (level, Int64(sinceVerdict * 1e6))
    }
}
