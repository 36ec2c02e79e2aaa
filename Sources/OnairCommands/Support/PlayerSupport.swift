import Foundation
import Library
import Outputs
import Playback
import Store

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
