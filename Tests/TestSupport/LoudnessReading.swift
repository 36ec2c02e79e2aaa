import Foundation

/// A file's EBU R128 integrated loudness as the ffmpeg CLI's `ebur128` filter measures it: the
/// reference the tests hold onair's normalising and tags to.
public enum LoudnessReading {
    /// LUFS, from the summary's "I:" line.
    public static func integrated(of file: URL) throws -> Double {
        let result = try ProcessRunner.run("ffmpeg", ["-nostdin", "-hide_banner", "-nostats", "-i", file.path,
                                                      "-af", "ebur128", "-f", "null", "-"]).check()
        guard let summary = result.stderrText.range(of: "Summary:"),
              let line = result.stderrText[summary.upperBound...].split(separator: "\n").first(where: { $0.contains("I:") }),
              let value = line.split(separator: " ").compactMap({ Double($0) }).first else {
            throw ProcessRunnerError.failed(result)
        }
        return value
    }
}
