import ArgumentParser
import Monitoring

/// When a station counts as dead air or down: shared by the daemon and every command that plays a
/// live station, whose `--json` output shows the `dead-air`, `down` and `recovered` events.
struct AlertOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Audio below this level (dBFS, RMS) counts as dead air.", valueName: "dbfs"))
    var deadAirLevel: Double = AlertRules.standard.quietLevel

    @Option(help: ArgumentHelp("Seconds of dead air, or of no audio, that raise an alert (0: no alerts).", valueName: "seconds"))
    var deadAirSeconds: Double = AlertRules.standard.seconds

    func validate() throws {
        guard deadAirLevel < 0 else {
            throw ValidationError("invalid --dead-air-level \(deadAirLevel): expected a level below 0 dBFS, e.g. -50")
        }
        guard deadAirSeconds >= 0 else {
            throw ValidationError("invalid --dead-air-seconds \(deadAirSeconds): expected 0 or more seconds")
        }
    }

    var rules: AlertRules { AlertRules(quietLevel: deadAirLevel, seconds: deadAirSeconds) }
}
