import Foundation
import Media
import RadioModel

/// `--normalize`: the gain that brings what plays to a target loudness (EBU R128, in LUFS), so that
/// stations and recordings play equally loud. An item whose tags give its loudness (ReplayGain, R128)
/// is levelled from its first sample; anything else is measured as it plays (its integrated loudness so
/// far) and stays silent for the first 400 ms it takes to measure, rather than starting too loud.
/// The gain never lifts the peak over full scale. Used on the thread that plays the audio.
public final class LoudnessNormalizer {
    public static let defaultTarget = -16.0
    public static let targetRange = -40.0 ... -5.0
    /// The most a quiet item is raised, in dB: beyond that it mostly raises noise.
    static let maximumBoost = 24.0

    public let target: Double
    private let format: PCMFormat
    private var tagged: LoudnessTag?
    private var meter: LoudnessMeter?

    public init(format: PCMFormat, target: Double) {
        self.format = format
        self.target = target
    }

    /// A new item starts: levelled by its tags' loudness, or measured afresh when it has none.
    public func begin(tagged loudness: LoudnessTag?) {
        tagged = loudness
        meter = nil
    }

    /// The factor the samples of `pcm` are scaled by.
    func gain(for pcm: UnsafeRawBufferPointer) -> Double {
        if let tagged { return factor(for: tagged) }
        if meter == nil { meter = try? LoudnessMeter(format: format) }
        guard let meter, (try? meter.measure(pcm)) != nil else { return 1 }  // a format it cannot measure plays as it is
        guard let integrated = meter.integrated else { return 0 }
        return factor(for: LoudnessTag(integrated: integrated, peak: meter.peak))
    }

    private func factor(for loudness: LoudnessTag) -> Double {
        let decibels = min(Self.maximumBoost, target - loudness.integrated)
        let gain = pow(10, decibels / 20)
        guard let peak = loudness.peak, peak > 0 else { return gain }
        return min(gain, 1 / peak)
    }
}
