import Foundation
import XCTest
import TestSupport

/// A station "tones" on a local Icecast with the all-day programme "tone-hour", and its episodes
/// recorded by `onair record`, one per frequency, 2 s each: what the play and playlist tests play.
enum RecordedTones {
    static func record(_ frequencies: [Double], with onair: OnairBinary) throws -> IcecastHarness {
        let icecast = try IcecastHarness()
        do {
            try write(stationOn: icecast, for: onair)
            for frequency in frequencies {
                try icecast.startSource(mount: "/tones.mp3", codec: .mp3, frequency: frequency)
                let record = try onair.run(["record", "tones", "--programme", "tone-hour", "--duration", "2"])
                XCTAssertTrue(record.succeeded, "\(record)")
                try icecast.stopSource(mount: "/tones.mp3")
            }
        } catch {
            icecast.stop()
            throw error
        }
        return icecast
    }

    private static func write(stationOn icecast: IcecastHarness, for onair: OnairBinary) throws {
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "tones", "name": "Tones FM", "country": "GB", "language": "en",
         "timeZone": "UTC", "streams": [{"url": "\(icecast.url(mount: "/tones.mp3").absoluteString)", "kind": "icy"}],
         "programmes": [{"id": "tone-hour", "name": "Tone Hour", "slots": [
            {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "start": "00:00", "duration": "24h"}]}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))
    }
}
