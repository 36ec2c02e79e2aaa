/// When a station counts as dead air or down: decoded audio below `quietLevel` dBFS (RMS) for
/// `seconds` in a row, or no audio at all for `seconds`. `seconds` of 0 turns both alerts off.
public struct AlertRules: Sendable, Equatable {
    public var quietLevel: Double
    public var seconds: Double
    /// Sound must last this long before a dead-air alert is over: one click in the silence is not a recovery.
    public var recoverAfter: Double

    public init(quietLevel: Double = -50, seconds: Double = 30, recoverAfter: Double = 1) {
        self.quietLevel = quietLevel; self.seconds = seconds; self.recoverAfter = recoverAfter
    }

    /// −50 dBFS for 30 s.
    public static let standard = AlertRules()

    public var enabled: Bool { seconds > 0 }
}
