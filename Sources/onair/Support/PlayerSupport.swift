import Engine
import Foundation
import Outputs
import Playback
import Store

/// What a player run on a terminal needs beyond its sinks: the listener's controls, the terminal,
/// and the database that remembers favourites, history and positions.
struct LiveViewSettings {
    let controls: PlayerControls
    let terminal: TerminalSession
    let store: PlayerStore?
    /// How much a paused live station keeps (time-shift) before playing on from where it paused.
    var timeShiftSeconds = 120.0

    /// Notes a listen in the history; a database problem costs the entry, not the listen.
    func noteListened(target: StreamTarget, started: Date, seconds: Double) {
        try? store?.addHistory(kind: "station", item: target.identifier, name: target.displayName, started: started, seconds: seconds)
    }
}

enum PlayerSupport {
    /// A "minute" of the sleep timer: 60 s, or what ONAIR_TEST_MINUTE_SECONDS says (tests shorten it).
    static var sleepMinuteSeconds: Double {
        ProcessInfo.processInfo.environment["ONAIR_TEST_MINUTE_SECONDS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 60
    }

    /// The player's tables in onair's database.
    static func openStore() throws -> PlayerStore {
        do {
            return try PlayerStore(database: try OnairDatabase(directory: CatalogueAccess.paths.data))
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// Controls whose volume reaches the sound server when a sink is a speaker.
    static func controls(for sinks: [SinkSpec], onDemand: Bool) -> PlayerControls {
        let speaker = sinks.contains { spec in
            switch spec {
            case .speaker, .pulse, .alsa: return true
            default: return false
            }
        }
        return PlayerControls(sleepTimer: SleepTimer(minuteSeconds: sleepMinuteSeconds, offersEndOfEpisode: onDemand),
                              deviceVolume: speaker ? DeviceVolume() : nil)
    }
}
