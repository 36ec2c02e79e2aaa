/// A length of time as people read it: "4:05", "1:02:03".
public enum ClockText {
    /// The longest length of audio or position onair takes from the network, and shows (a year): a length a station, a
    /// feed or a request gives may be anything, and the whole number of a huge or non-finite one cannot be had (Swift
    /// stops the process).
    public static let longest = 366.0 * 86400

    /// "4:05", or "1:02:03" from an hour on (or always, with `alwaysHours`); rounded down, and 0:00 for nothing known.
    public static func of(_ seconds: Double, alwaysHours: Bool = false) -> String {
        let total = seconds.isFinite ? Int(min(max(0, seconds), longest).rounded(.down)) : 0
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 || alwaysHours ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
