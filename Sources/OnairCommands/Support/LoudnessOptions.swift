import ArgumentParser
import Playback

/// `--normalize` and `--normalize-target`, for `listen`, `play` and `relay`.
struct LoudnessOptions: ParsableArguments {
    @Flag(help: "Level the loudness (EBU R128) so that stations and recordings play equally loud.")
    var normalize = false

    @Option(help: ArgumentHelp("The loudness --normalize levels to, in LUFS, written --normalize-target=-20 (default -16; implies --normalize).",
                               valueName: "LUFS"))
    var normalizeTarget: Double?

    func validate() throws {
        if let normalizeTarget, !LoudnessNormalizer.targetRange.contains(normalizeTarget) {
            throw ValidationError("--normalize-target must be between \(Int(LoudnessNormalizer.targetRange.lowerBound)) "
                                  + "and \(Int(LoudnessNormalizer.targetRange.upperBound)) LUFS")
        }
    }

    /// The target in LUFS, or nil when not normalising.
    var target: Double? {
        guard normalize || normalizeTarget != nil else { return nil }
        return normalizeTarget ?? LoudnessNormalizer.defaultTarget
    }
}
